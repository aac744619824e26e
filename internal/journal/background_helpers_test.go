package journal

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/crashpoint"
)

// inBackground makes this test's session starts run their background
// snapshots in a child of the test binary (op, e.g. "background" or
// "background-slow", with crashAt its crash point), reaped by the test;
// it returns a channel that yields each child's end.
func inBackground(t testing.TB, op, crashAt string) <-chan error {
	t.Helper()
	ended := make(chan error, 8)
	oldCmd, oldSpawn := selfCommand, spawn
	selfCommand = func(store, data, session string) (*exec.Cmd, error) {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"="+strings.Join([]string{op, store, data, session}, "\x1f"), crashpoint.Env+"="+crashAt)
		return cmd, nil
	}
	spawn = func(cmd *exec.Cmd) error {
		if err := cmd.Start(); err != nil {
			return err
		}
		go func() { ended <- cmd.Wait() }()
		return nil
	}
	t.Cleanup(func() { selfCommand, spawn = oldCmd, oldSpawn })
	return ended
}

// bigStore is a store of n entries and an index.
func bigStore(n int) map[string]string {
	files := map[string]string{IndexName: "# Memory\n"}
	for i := range n {
		files[fmt.Sprintf("entry_%03d.md", i)] = fmt.Sprintf("entry %d\n", i)
	}
	return files
}

// TestUnchangedSessionStartStoresNothing: a session start on an unchanged
// store records the new session's view of the index without storing the
// index again (it is in the first snapshot's pack): no loose copy.
func TestUnchangedSessionStartStoresNothing(t *testing.T) {
	f := newFixture(t, sampleStore())
	ctx := context.Background()
	if _, err := SessionStart(ctx, HookRequest{Store: f.store, DataDir: f.data, Session: "s1", Now: f.clk.now}); err != nil {
		t.Fatal(err)
	}
	j := mustJournal(t, f)
	before := treeBytes(t, j.objectsDir())
	if _, err := SessionStart(ctx, HookRequest{Store: f.store, DataDir: f.data, Session: "s2", Now: f.clk.now}); err != nil {
		t.Fatal(err)
	}
	if after := treeBytes(t, j.objectsDir()); after != before {
		t.Errorf("the objects grew from %d to %d bytes on an unchanged session start", before, after)
	}
	if _, err := os.Stat(j.sessionPath("s2")); err != nil {
		t.Errorf("the new session's view was not recorded: %v", err)
	}
}
