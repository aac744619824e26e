package torture

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSummarizerLimits runs compact with summarizers that misbehave: one
// that prints without end, and one that times out while its child keeps
// running. The file must stay untouched, the endless printer must be
// stopped at the output cap (memory stays bounded), and the child must die
// with its summarizer.
func TestSummarizerLimits(t *testing.T) {
	t.Run("endless output", func(t *testing.T) {
		root, file := newRoot(t, 40, 9)
		before := read(t, file)
		t0 := time.Now()
		cmd := exec.Command(bin, "compact", "topics/t.md", "--yes", "--summarizer", "yes xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx")
		cmd.Dir = root
		out, _ := cmd.CombinedOutput()
		rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss // KiB on Linux
		if cmd.ProcessState.ExitCode() == 0 || !strings.Contains(string(out), "printed more than") {
			t.Errorf("exit %d: %s", cmd.ProcessState.ExitCode(), out)
		}
		if read(t, file) != before {
			t.Error("the file changed")
		}
		t.Logf("FIGURE summarizer printing without end: stopped after %s, peak memory %d MiB, file untouched", since(t0), rss/1024)
		if rss > 512*1024 {
			t.Errorf("peak memory %d MiB: the output cap did not hold", rss/1024)
		}
	})
	t.Run("timeout kills the process group", func(t *testing.T) {
		root, file := newRoot(t, 40, 9)
		before := read(t, file)
		pidfile := filepath.Join(root, "child.pid")
		r := mc(t, root, "", nil, "compact", "topics/t.md", "--yes", "--timeout", "300ms",
			"--summarizer", "sleep 120 & echo $! > "+pidfile+"; wait")
		if r.code == 0 || !strings.Contains(r.stdout+r.stderr, "timed out") {
			t.Errorf("exit %d: %s%s", r.code, r.stdout, r.stderr)
		}
		if read(t, file) != before {
			t.Error("the file changed")
		}
		raw, err := os.ReadFile(pidfile)
		if err != nil {
			t.Fatal(err)
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(string(raw)))
		deadline := time.Now().Add(5 * time.Second)
		for alive(pid) {
			if time.Now().After(deadline) {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("the summarizer's child %d outlived the timeout", pid)
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Logf("FIGURE timed-out summarizer: its child process was killed with it")
	})
}

// alive reports whether pid is a running (not zombie) process.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	return err != nil || !strings.Contains(string(b), ") Z ")
}
