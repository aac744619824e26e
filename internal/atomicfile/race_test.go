//go:build unix

package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/textfile"
)

// TestReplaceKeepsRacingAppends rewrites a file in a loop while another
// goroutine appends lines the way a shell's ">>" does (open, write, close).
// Every append must survive.
func TestReplaceKeepsRacingAppends(t *testing.T) {
	p := filepath.Join(t.TempDir(), "MEMORY.md")
	os.WriteFile(p, []byte("# Memory\n"), 0o644)
	const appends = 300
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(done)
		for i := 0; i < appends; i++ {
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Error(err)
				return
			}
			fmt.Fprintf(f, "- append %d\n", i)
			f.Close()
			time.Sleep(200 * time.Microsecond)
		}
	}()
	rewrites, refused := 0, 0
	for loop := true; loop; {
		select {
		case <-done:
			loop = false
		default:
		}
		raw, _ := os.ReadFile(p)
		// The rewrite keeps every line: any append missing afterwards was
		// lost by the replace, not dropped by the rewrite.
		err := Replace(p, raw, textfile.Digest(raw))
		switch {
		case err == nil:
			rewrites++
		case errors.Is(err, ErrChanged):
			refused++
		default:
			t.Fatal(err)
		}
	}
	wg.Wait()
	raw, _ := os.ReadFile(p)
	lost := 0
	for i := 0; i < appends; i++ {
		if !strings.Contains(string(raw), fmt.Sprintf("- append %d\n", i)) {
			lost++
		}
	}
	t.Logf("%d appends, %d rewrites, %d refused as changed, %d lost", appends, rewrites, refused, lost)
	if lost > 0 {
		t.Errorf("%d of %d appends lost", lost, appends)
	}
}

// TestReconcile writes into the old inode after the rename, as a writer
// that opened the file before it would, and checks the write is recovered.
func TestReconcile(t *testing.T) {
	for _, tc := range []struct {
		name, foreign, want string
		changed             bool
	}{
		{"append re-applied", "old\nappended\n", "new\nappended\n", false},
		{"in-place rewrite put back", "rewritten\n", "rewritten\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "a.md")
			os.WriteFile(p, []byte("old\n"), 0o644)
			old, _ := os.Open(p)
			defer old.Close()
			writer, _ := os.OpenFile(p, os.O_WRONLY, 0)
			os.WriteFile(filepath.Join(dir, "n"), []byte("new\n"), 0o644)
			os.Rename(filepath.Join(dir, "n"), p)
			writer.WriteAt([]byte(tc.foreign), 0)
			writer.Close()
			err := reconcile(old, []byte("old\n"), p)
			if got := errors.Is(err, ErrChanged); got != tc.changed {
				t.Errorf("reconcile = %v, want changed=%v", err, tc.changed)
			}
			if got, _ := os.ReadFile(p); string(got) != tc.want {
				t.Errorf("file = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestStaleTempRemoved(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.md")
	os.WriteFile(p, []byte("a"), 0o644)
	// pid 0x7ffffffe is not a live process.
	stale := filepath.Join(dir, TempPrefix+"2147483646-a.md-0011")
	live := filepath.Join(dir, fmt.Sprintf("%s%d-a.md-0022", TempPrefix, os.Getpid()))
	os.WriteFile(stale, []byte("debris"), 0o644)
	os.WriteFile(live, []byte("ours"), 0o644)
	if err := Replace(p, []byte("b"), textfile.Digest([]byte("a"))); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Error("a dead run's temporary file was not removed")
	}
	if _, err := os.Stat(live); err != nil {
		t.Error("a live run's temporary file was removed")
	}
	if !IsScratch(filepath.Base(stale)) || !IsScratch(".memcompact.lock") || IsScratch("notes.md") {
		t.Error("IsScratch misjudges names")
	}
}
