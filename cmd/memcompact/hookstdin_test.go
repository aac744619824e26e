package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/testshared"
)

// TestHookOpenStdin runs the built executable as Claude Code runs a hook,
// with a client that never closes the hook's stdin: a whole call is judged
// at once (a secret denied), and a call that never arrives whole is denied
// within the input budget. Either way the process exits by itself, long
// before the 10 seconds after which Claude Code would let the write
// through unjudged.
func TestHookOpenStdin(t *testing.T) {
	if testing.Short() {
		t.Skip("builds memcompact with the go command")
	}
	dir := t.TempDir()
	bin := testshared.Install(t, filepath.Join(dir, "bin"))
	mem := filepath.Join(dir, "cfg", "projects", "-p", "memory")
	if err := os.MkdirAll(mem, 0o755); err != nil {
		t.Fatal(err)
	}
	index := "# Memory\n- [Race](feedback_race.md) — take the lock before a shared write\n"
	if err := os.WriteFile(filepath.Join(mem, "MEMORY.md"), []byte(index), 0o644); err != nil {
		t.Fatal(err)
	}
	call, err := json.Marshal(map[string]any{"session_id": "s", "cwd": "/p", "hook_event_name": "PreToolUse", "tool_name": "Write",
		"tool_input": map[string]any{"file_path": filepath.Join(mem, "MEMORY.md"), "content": index + "- token ghp_Zx9Qw3Er7Ty1Ui5Op2As8Df4Gh6Jk0Lz3Xc7V\n"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, sent, deny string
		within           time.Duration
	}{
		{"whole call", string(call), "it would write a secret into memory", 5 * time.Second},
		{"nothing", "", "did not arrive whole within 500ms", 6 * time.Second},
		{"half a call", string(call[:len(call)/2]), "did not arrive whole within 500ms", 6 * time.Second},
	} {
		cmd := exec.Command(bin, "hook", "pre-write")
		cmd.Env = append(os.Environ(), "HOME="+dir, "CLAUDE_CONFIG_DIR="+filepath.Join(dir, "cfg"),
			"MEMCOMPACT_DATA_DIR="+filepath.Join(dir, "data"), "MEMCOMPACT_HOOK_INPUT_BUDGET=500ms", "MEMCOMPACT_GUARD=")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if _, err := stdin.Write([]byte(c.sent)); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil || !strings.Contains(stdout.String(), `"permissionDecision":"deny"`) || !strings.Contains(stdout.String(), c.deny) {
				t.Errorf("%s: %v\nstdout: %s\nstderr: %s", c.name, err, stdout.String(), stderr.String())
			}
		case <-time.After(c.within):
			_ = cmd.Process.Kill()
			<-done
			t.Errorf("%s: the hook was still waiting on its open stdin after %s", c.name, c.within)
		}
		stdin.Close()
	}
}
