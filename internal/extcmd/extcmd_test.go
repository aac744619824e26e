//go:build unix

package extcmd

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRunEchoesStdin(t *testing.T) {
	res, err := Run(context.Background(), Spec{Command: "cat", Stdin: "- a\n", Timeout: 10 * time.Second, MaxOutput: 1 << 10})
	if err != nil || string(res.Stdout) != "- a\n" {
		t.Fatalf("Run = %q, %v", res.Stdout, err)
	}
}

// TestRunArgs: a program run without a shell gets its arguments as they
// are (a newline, quotes, an empty one) and the extra environment.
func TestRunArgs(t *testing.T) {
	args := []string{"sh", "-c", `printf '%s|%s|%s' "$1" "$2" "$EXTRA"`, "sh", "it's\nmulti\nline", ""}
	res, err := Run(context.Background(), Spec{Args: args, Env: []string{"EXTRA=yes"}, Timeout: 10 * time.Second, MaxOutput: 1 << 10})
	if err != nil || string(res.Stdout) != "it's\nmulti\nline||yes" {
		t.Fatalf("Run = %q, %v", res.Stdout, err)
	}
	_, err = Run(context.Background(), Spec{Args: []string{"/nonexistent/prog"}, Timeout: time.Second, MaxOutput: 1})
	if err == nil {
		t.Fatal("a missing program ran")
	}
}

func TestRunFailureKeepsStderr(t *testing.T) {
	_, err := Run(context.Background(), Spec{Command: "echo boom >&2; exit 3", Timeout: 10 * time.Second, MaxOutput: 1 << 10})
	if err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("Run = %v, want the exit and its stderr", err)
	}
}

// TestRunCapsOutput: a command printing without end is killed at the cap;
// what is kept never exceeds it.
func TestRunCapsOutput(t *testing.T) {
	const limit = 1 << 20
	start := time.Now()
	res, err := Run(context.Background(), Spec{Command: "yes xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", Timeout: time.Minute, MaxOutput: limit})
	if !errors.Is(err, ErrTooMuchOutput) {
		t.Fatalf("Run = %v, want ErrTooMuchOutput", err)
	}
	if len(res.Stdout) > limit {
		t.Errorf("kept %d bytes, over the %d cap", len(res.Stdout), limit)
	}
	t.Logf("endless output stopped at %d bytes after %s", len(res.Stdout), time.Since(start).Round(time.Millisecond))
}

// TestRunTimeoutKillsGroup: a timed-out command's background child dies
// with it.
func TestRunTimeoutKillsGroup(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "child.pid")
	_, err := Run(context.Background(), Spec{Command: "sleep 60 & echo $! > " + pidfile + "; sleep 60", Timeout: 300 * time.Millisecond, MaxOutput: 1 << 10})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("Run = %v, want ErrTimeout", err)
	}
	raw, rerr := os.ReadFile(pidfile)
	if rerr != nil {
		t.Fatal(rerr)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(raw)))
	deadline := time.Now().Add(5 * time.Second)
	for syscall.Kill(pid, 0) == nil && !zombie(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the summarizer's child %d outlived the timeout", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// zombie reports whether pid has exited and waits only to be reaped: it
// was killed, though signal 0 still finds it until its new parent (init,
// which in some containers reaps only now and then) collects it. Only
// Linux says so, in /proc; elsewhere the loop waits for the reaping.
func zombie(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state follows the command name, which is in parentheses.
	i := strings.LastIndexByte(string(stat), ')')
	return i >= 0 && strings.HasPrefix(string(stat[i+1:]), " Z")
}
