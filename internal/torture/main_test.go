package torture

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/snapshot"
	"github.com/memcompact/memcompact/internal/testshared"
)

// bin is the memcompact binary the tests run.
var bin string

func TestMain(m *testing.M) {
	if runtime.GOOS == "windows" {
		fmt.Println("torture tests need a unix shell and signals; skipped")
		os.Exit(0)
	}
	flag.Parse()
	if testing.Short() {
		fmt.Println("-short: the torture suite (20 MB lines, crash points, racing writers) runs with the full go test ./...")
		os.Exit(0)
	}
	dir, err := os.MkdirTemp("", "memcompact-torture-")
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "memcompact")
	if b := os.Getenv("MEMCOMPACT_TORTURE_BIN"); b != "" {
		// A prebuilt binary, e.g. an older version, to show what it loses.
		bin = b
	} else {
		// With the crash points compiled in (package crashpoint): they
		// exist only in builds with this tag.
		build := exec.Command("go", "build", "-tags", "memcompact_crashpoints", "-o", bin,
			"github.com/memcompact/memcompact/cmd/memcompact")
		build.Env = testshared.StaticBuild(os.Environ())
		if out, err := build.CombinedOutput(); err != nil {
			fmt.Printf("building memcompact: %v\n%s", err, out)
			os.Exit(1)
		}
	}
	uncache := testshared.UseTempCache()
	code := m.Run()
	uncache()
	os.RemoveAll(dir)
	os.Exit(code)
}

// long reports whether the long counts were asked for.
func long() bool { return os.Getenv("MEMCOMPACT_TORTURE") == "long" }

// count is short by default and long under MEMCOMPACT_TORTURE=long.
func count(short, longer int) int {
	if long() {
		return longer
	}
	return short
}

// result is one finished memcompact run.
type result struct {
	code   int // exit code; -1 when killed by a signal
	killed bool
	stdout string
	stderr string
}

// mc runs memcompact in dir with stdin and extra environment.
func mc(t testing.TB, dir, stdin string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
		r.killed = r.code == -1
	default:
		t.Fatalf("memcompact %v: %v", args, err)
	}
	return r
}

// write creates a file with its directories.
func write(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// policy is a compaction policy budgeting topics/*.md at budget lines.
func policy(budget int) string {
	return fmt.Sprintf("| File | Budget | Newest tier |\n|---|---|---|\n| topics/*.md | %d lines each | last 3 entries |\n", budget)
}

// entry is a four-line diary entry whose one fact is the code span tok:
// the built-in summarizer keeps it verbatim in the history block.
func entry(n int, tok string) string {
	return fmt.Sprintf("## 2026-05-%02d 10:%02d — Entry %s\n- stored `%s`\n- We talked about it for a while.\n- Nothing else came of it.\n", n%28+1, n%60, tok, tok)
}

// newRoot makes a memory root with one diary file holding n entries.
func newRoot(t testing.TB, budget, n int) (root, file string) {
	root = t.TempDir()
	write(t, filepath.Join(root, "compaction", "compaction-policy.md"), policy(budget))
	var b strings.Builder
	b.WriteString("# Diary\n\n")
	for i := 0; i < n; i++ {
		b.WriteString(entry(i, fmt.Sprintf("seed-%d", i)))
		b.WriteString("\n")
	}
	file = filepath.Join(root, "topics", "t.md")
	write(t, file, b.String())
	return root, file
}

// scratch lists memcompact's temporary files under root.
func scratch(t testing.TB, root string) []string {
	var out []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".memcompact-tmp-") {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// since formats an elapsed time for a figure.
func since(t0 time.Time) string { return time.Since(t0).Round(10 * time.Millisecond).String() }

// reachable is a memory file's text followed by every snapshot its
// Compacted History block names: compaction moves the detail of old
// entries out of the live file into those snapshots, so "not lost" means
// present in one of them.
func reachable(t testing.TB, root, path string) string {
	t.Helper()
	text := read(t, path)
	var b strings.Builder
	b.WriteString(text)
	for _, rel := range snapshotsRE.FindAllString(text, -1) {
		// A snapshot stored as changes is read whole (a catalogue, or a
		// plain snapshot, as it is).
		raw, err := snapshot.Read(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			t.Errorf("the block names %s, which cannot be read: %v", rel, err)
			continue
		}
		b.WriteString("\n")
		b.Write(raw)
	}
	return b.String()
}

var snapshotsRE = regexp.MustCompile(`compaction/snapshots/[^\s,*]+?\.md`)
