package journal

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// deadPid is the id of a process that has exited.
func deadPid(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Skipf("cannot run a child: %v", err)
	}
	return cmd.Process.Pid
}

// TestRunRemovesKilledRunsDebris: a snapshot removes the temporary files
// a killed run left (its own naming, older than a minute, its process
// gone) in the journal's folders and in the store; a fresh one, or one of
// a running process, stays.
func TestRunRemovesKilledRunsDebris(t *testing.T) {
	f := newFixture(t, sampleStore())
	f.snap("session-start", "s1")
	j := mustJournal(t, f)
	dead := strconv.Itoa(deadPid(t))
	old := time.Now().Add(-2 * time.Minute)
	put := func(dir, name string, mtime time.Time) string {
		os.MkdirAll(dir, 0o700)
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte("half"), 0o600)
		os.Chtimes(p, mtime, mtime)
		return p
	}
	gone := []string{
		put(j.manifestsDir(), tmpPrefix+dead+"-123", old),
		put(j.sessionsDir(), tmpPrefix+dead+"-456", old),
		put(j.objectsDir(), tmpPrefix+dead+"-789", old),
		put(j.objectsDir(), tmpPrefix+"1234567", old), // an older version's name: no process id
		put(f.store, tmpPrefix+dead+"-MEMORY.md-abcdef", old),
	}
	stay := []string{
		put(j.manifestsDir(), tmpPrefix+dead+"-fresh", time.Now()),
		put(j.objectsDir(), tmpPrefix+strconv.Itoa(os.Getpid())+"-live", old),
	}
	f.write("project_auth.md", "changed\n")
	f.snap("pre-write", "s1")
	for _, p := range gone {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s: a killed run's temporary file was left", p)
		}
	}
	for _, p := range stay {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: a fresh or live run's temporary file was removed", p)
		}
	}
}
