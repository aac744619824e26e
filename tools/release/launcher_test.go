package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// The plugin's launcher (bin/memcompact) on its first run, against release
// archives served on 127.0.0.1 in GoReleaser's layout, as tools/release
// writes them. The archived "memcompact" is a stand-in script, so the
// launcher's own work is what is tried, not a cross-compile.

const fakeExe = "#!/bin/sh\necho \"fake memcompact $*\"\n"

// plugin lays out a plugin folder holding the real launcher and manifest,
// and returns its root.
func plugin(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the sh launcher is tried on POSIX systems")
	}
	root := t.TempDir()
	for _, f := range []string{"bin/memcompact", ".claude-plugin/plugin.json"} {
		b, err := os.ReadFile(filepath.Join("..", "..", f))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(root, filepath.Dir(f)), 0o755)
		if err := os.WriteFile(filepath.Join(root, f), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// release serves one version's archive for this system and its checksums
// file; corrupt makes the checksum wrong, missing serves nothing at all.
type served struct {
	archive, sums []byte
	name          string
	hits          atomic.Int32
}

func newRelease(t *testing.T, version string, corrupt bool) *served {
	t.Helper()
	arch := map[string]string{"amd64": "amd64", "arm64": "arm64"}[runtime.GOARCH]
	if arch == "" {
		t.Skipf("no release is built for %s", runtime.GOARCH)
	}
	a, err := tarGzOf([]file{{"README.md", []byte("readme\n"), 0o644}, {"memcompact", []byte(fakeExe), 0o755}}, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	name := "memcompact_" + version + "_" + runtime.GOOS + "_" + arch + ".tar.gz"
	h := sha256.Sum256(a)
	if corrupt {
		h[0] ^= 0xff
	}
	return &served{archive: a, name: name, sums: []byte(hex.EncodeToString(h[:]) + "  " + name + "\n")}
}

func (r *served) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.hits.Add(1)
	switch {
	case strings.HasSuffix(req.URL.Path, "/"+r.name):
		w.Write(r.archive)
	case strings.HasSuffix(req.URL.Path, "_checksums.txt"):
		w.Write(r.sums)
	default:
		http.NotFound(w, req)
	}
}

// noGoPath is PATH without the folders that hold a go command: a machine
// without Go.
func noGoPath() string {
	var keep []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(d, "go")); err == nil {
			continue
		}
		keep = append(keep, d)
	}
	return strings.Join(keep, string(os.PathListSeparator))
}

// launch runs the launcher with args and stdin, the release at url and the
// data folder data; it returns stdout, stderr and the exit code.
func launch(t *testing.T, root, url, data, stdin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(filepath.Join(root, "bin", "memcompact"), args...)
	cmd.Env = []string{"PATH=" + noGoPath(), "HOME=" + t.TempDir(), "MEMCOMPACT_RELEASE_URL=" + url, "CLAUDE_PLUGIN_DATA=" + data}
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

const (
	memoryWrite = `{"hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"/home/u/.claude/projects/-home-u-p/memory/MEMORY.md","old_string":"a","new_string":"b"}}`
	entryWrite  = `{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/home/u/.claude/projects/-home-u-p/memory/feedback_x.md","content":"x"}}`
	codeWrite   = `{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/home/u/p/main.go","content":"package main"}}`
)

func TestLauncherFetchesAndChecks(t *testing.T) {
	t.Parallel()
	root := plugin(t)
	rel := newRelease(t, "0.1.0", false)
	srv := httptest.NewServer(rel)
	defer srv.Close()
	data := filepath.Join(t.TempDir(), "data")
	out, errs, code := launch(t, root, srv.URL, data, "", "version")
	if code != 0 || out != "fake memcompact version\n" {
		t.Fatalf("first run: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(data, "v0.1.0", "memcompact")); err != nil {
		t.Errorf("not installed in the data folder: %v", err)
	}
	hits := rel.hits.Load()
	if out, _, code := launch(t, root, srv.URL, data, "", "doctor"); code != 0 || out != "fake memcompact doctor\n" {
		t.Errorf("second run: exit %d, stdout %q", code, out)
	}
	if rel.hits.Load() != hits {
		t.Errorf("the second run fetched again (%d requests, then %d)", hits, rel.hits.Load())
	}
	if left, _ := filepath.Glob(filepath.Join(data, ".install*")); len(left) > 0 {
		t.Errorf("the install left %v behind", left)
	}
}

// failing is what every failed first run must show: a message naming the
// cause, nothing installed, and the guard still on for memory files.
func failing(t *testing.T, root, url, data string, causes ...string) {
	t.Helper()
	_, errs, code := launch(t, root, url, data, "", "doctor")
	if code != 2 {
		t.Errorf("doctor: exit %d, want 2", code)
	}
	for _, c := range append(causes, "fix: ") {
		if !strings.Contains(errs, c) {
			t.Errorf("the message lacks %q:\n%s", c, errs)
		}
	}
	if _, err := os.Stat(filepath.Join(data, "v0.1.0")); err == nil {
		t.Errorf("a failed first run installed %s", filepath.Join(data, "v0.1.0"))
	}
	writes := []struct {
		payload string
		deny    bool
	}{{memoryWrite, true}, {codeWrite, false}, {entryWrite, true}, {`not json`, true}}
	if testing.Short() {
		// The quick loop: one write denied and one let through per cause
		// (the hook's branch is the same for every cause); the full run
		// tries every kind of payload with each.
		writes = writes[:2]
	}
	for _, w := range writes {
		out, _, code := launch(t, root, url, data, w.payload, "hook", "pre-write")
		denied := strings.Contains(out, `"permissionDecision":"deny"`)
		if code != 0 || denied != w.deny {
			t.Errorf("pre-write of %.80s: exit %d, denied %v, want %v; stdout %q", w.payload, code, denied, w.deny, out)
		}
		if denied && !strings.Contains(out, causes[0]) {
			t.Errorf("the denial does not name the cause %q: %s", causes[0], out)
		}
	}
	out, _, code := launch(t, root, url, data, `{"hook_event_name":"SessionStart"}`, "hook", "session-start")
	if code != 0 || !strings.Contains(out, `"additionalContext":"memcompact is not running`) {
		t.Errorf("session-start: exit %d, stdout %q", code, out)
	}
}

func TestLauncherBadChecksum(t *testing.T) {
	t.Parallel()
	root := plugin(t)
	srv := httptest.NewServer(newRelease(t, "0.1.0", true))
	defer srv.Close()
	data := filepath.Join(t.TempDir(), "data")
	failing(t, root, srv.URL, data, "does not match its checksum", "Go is not installed")
}

func TestLauncherNoReleaseNoGo(t *testing.T) {
	t.Parallel()
	root := plugin(t)
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	failing(t, root, srv.URL, filepath.Join(t.TempDir(), "data"), "could not download", "Go is not installed")
}

func TestLauncherNoNetwork(t *testing.T) {
	t.Parallel()
	root := plugin(t)
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there any more
	failing(t, root, url, filepath.Join(t.TempDir(), "data"), "could not download")
}

func TestLauncherUnwritableData(t *testing.T) {
	t.Parallel()
	root := plugin(t)
	srv := httptest.NewServer(newRelease(t, "0.1.0", false))
	defer srv.Close()
	// A data folder under a regular file cannot be made, even by root.
	blocker := filepath.Join(t.TempDir(), "file")
	os.WriteFile(blocker, nil, 0o644)
	failing(t, root, srv.URL, filepath.Join(blocker, "data"), "cannot be written")
}

func TestLauncherHalfInstalled(t *testing.T) {
	t.Parallel()
	t.Run("a version folder without its executable is replaced", func(t *testing.T) {
		root := plugin(t)
		srv := httptest.NewServer(newRelease(t, "0.1.0", false))
		defer srv.Close()
		data := filepath.Join(t.TempDir(), "data")
		os.MkdirAll(filepath.Join(data, "v0.1.0"), 0o755)
		os.WriteFile(filepath.Join(data, "v0.1.0", "README.md"), nil, 0o644)
		if out, errs, code := launch(t, root, srv.URL, data, "", "version"); code != 0 || out != "fake memcompact version\n" {
			t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
		}
	})
	t.Run("a plugin without its manifest", func(t *testing.T) {
		root := plugin(t)
		os.Remove(filepath.Join(root, ".claude-plugin", "plugin.json"))
		srv := httptest.NewServer(newRelease(t, "0.1.0", false))
		defer srv.Close()
		failing(t, root, srv.URL, filepath.Join(t.TempDir(), "data"), "installed only in part")
	})
}

// TestReleaseVersionIsThePlugins: the archives tools/release names by
// default are the ones the launcher asks for.
func TestReleaseVersionIsThePlugins(t *testing.T) {
	v, err := pluginVersion(filepath.Join("..", "..", ".claude-plugin", "plugin.json"))
	if err != nil || v == "" {
		t.Fatalf("plugin version %q: %v", v, err)
	}
	b, _ := os.ReadFile(filepath.Join("..", "..", "bin", "memcompact"))
	for _, want := range []string{"memcompact_${version}_${goos}_${goarch}.$ext", "memcompact_${version}_checksums.txt"} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("the launcher does not ask for %s", want)
		}
	}
}
