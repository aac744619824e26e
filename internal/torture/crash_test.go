package torture

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/snapshot"
)

// The named steps of a write (package crashpoint) a run can be killed at.
var crashSteps = []string{
	"replace:locked", "replace:temp-written", "replace:before-rename", "replace:renamed",
	"create:temp-written", "exclusive:temp-written", "exclusive:linked",
}

// crashCase is one verb run on a fresh fixture.
type crashCase struct {
	name   string
	target string // the file the verb rewrites, relative to the fixture
	stdin  string
	args   []string
	setup  func(t testing.TB) string // returns the fixture directory
}

func crashCases() []crashCase {
	overBudget := func(t testing.TB) string { root, _ := newRoot(t, 40, 9); return root }
	withinBudget := func(t testing.TB) string { root, _ := newRoot(t, 400, 9); return root }
	withSnapshot := func(t testing.TB) string {
		root, _ := newRoot(t, 400, 9)
		write(t, filepath.Join(root, "compaction", "snapshots", "t-2026-01-01.md"), "# Diary\n\n"+entry(1, "old"))
		return root
	}
	settings := func(t testing.TB) string {
		dir := t.TempDir()
		write(t, filepath.Join(dir, "settings.json"), `{"model": "opus", "env": {"A": "1"}}`+"\n")
		return dir
	}
	return []crashCase{
		{"compact", "topics/t.md", "", []string{"compact", "topics/t.md", "--yes"}, overBudget},
		{"save-compacting", "topics/t.md", entry(50, "new"), []string{"save", "topics/t.md", "--yes"}, overBudget},
		{"save-append", "topics/t.md", entry(50, "new"), []string{"save", "topics/t.md", "--yes"}, withinBudget},
		{"restore", "topics/t.md", "", []string{"restore", "t-2026-01-01.md", "--yes"}, withSnapshot},
		{"hooks-install", "settings.json", "", []string{"hooks", "install", "--settings", "settings.json"}, settings},
	}
}

// TestKillAtNamedSteps kills each verb with SIGKILL at each named step of
// its writes, then checks that the file is whole (its old bytes or the
// bytes a clean run writes), that every snapshot or backup under a real
// name is complete, and that the next run succeeds and removes the debris.
func TestKillAtNamedSteps(t *testing.T) {
	for _, c := range crashCases() {
		t.Run(c.name, func(t *testing.T) {
			before, after := cleanRun(t, c)
			reached := 0
			for _, step := range crashSteps {
				dir := c.setup(t)
				r := mc(t, dir, c.stdin, []string{"MEMCOMPACT_TEST_CRASH_AT=" + step}, c.args...)
				if r.killed {
					reached++
				}
				checkWhole(t, c, dir, step, before, after)
				checkNextRun(t, c, dir, step)
			}
			t.Logf("FIGURE kill -9 at named steps, %s: %d of %d steps reached and killed, 0 torn files, 0 bad snapshots", c.name, reached, len(crashSteps))
			if reached == 0 {
				t.Error("no step was reached; the test proves nothing")
			}
		})
	}
}

// TestKillAtRandomTimes slows every step by a random pause and kills the
// run at a random moment, many times per verb.
func TestKillAtRandomTimes(t *testing.T) {
	trials := count(6, 100)
	for _, c := range crashCases() {
		t.Run(c.name, func(t *testing.T) {
			before, after := cleanRun(t, c)
			killed, finished := 0, 0
			for i := 0; i < trials; i++ {
				dir := c.setup(t)
				cmd := exec.Command(bin, c.args...)
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), "MEMCOMPACT_TEST_DELAY_MAX=4ms")
				cmd.Stdin = strings.NewReader(c.stdin)
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				time.Sleep(time.Duration(rand.N(60)) * time.Millisecond)
				cmd.Process.Signal(syscall.SIGKILL)
				if err := cmd.Wait(); err != nil && cmd.ProcessState.ExitCode() == -1 {
					killed++
				} else {
					finished++
				}
				checkWhole(t, c, dir, fmt.Sprintf("random trial %d", i), before, after)
			}
			t.Logf("FIGURE kill -9 at random times, %s: %d trials (%d killed mid-run, %d finished first), 0 torn files, 0 bad snapshots", c.name, trials, killed, finished)
		})
	}
}

// cleanRun returns the target's bytes before and after an uninterrupted run.
func cleanRun(t *testing.T, c crashCase) (before, after string) {
	dir := c.setup(t)
	before = read(t, filepath.Join(dir, c.target))
	if r := mc(t, dir, c.stdin, nil, c.args...); r.code != 0 {
		t.Fatalf("clean run exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	after = read(t, filepath.Join(dir, c.target))
	if before == after {
		t.Fatal("the clean run changed nothing; the test proves nothing")
	}
	return before, after
}

// checkWhole asserts the target is either its old or its new bytes, and
// every snapshot or backup under a real name holds the old bytes whole.
func checkWhole(t *testing.T, c crashCase, dir, when, before, after string) {
	t.Helper()
	got := read(t, filepath.Join(dir, c.target))
	if got != before && got != after {
		t.Errorf("%s: %s is torn (%d bytes; before %d, after %d)", when, c.target, len(got), len(before), len(after))
	}
	snaps, _ := os.ReadDir(filepath.Join(dir, "compaction", "snapshots"))
	for _, e := range snaps {
		if _, _, _, _, ok := snapshot.ParseName(e.Name()); !ok || e.Name() == "t-2026-01-01.md" {
			continue
		}
		if b, err := snapshot.Read(filepath.Join(dir, "compaction", "snapshots", e.Name())); err != nil || string(b) != before {
			t.Errorf("%s: snapshot %s is not the file's old bytes (%d bytes, want %d)", when, e.Name(), len(b), len(before))
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, c.target+".memcompact-backup")); err == nil && string(b) != before {
		t.Errorf("%s: the backup is not the old bytes (%d bytes, want %d)", when, len(b), len(before))
	}
}

// checkNextRun runs the verb again without a crash: it must succeed (or
// find nothing to do) and leave no temporary file behind.
func checkNextRun(t *testing.T, c crashCase, dir, step string) {
	t.Helper()
	r := mc(t, dir, c.stdin, nil, c.args...)
	if r.code != 0 {
		t.Errorf("after a kill at %s, the next run exit %d: %s%s", step, r.code, r.stdout, r.stderr)
	}
	if left := scratch(t, dir); len(left) > 0 {
		t.Errorf("after a kill at %s, the next run left temporary files: %v", step, left)
	}
}
