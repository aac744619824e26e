package sweepact

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/testshared"
)

// TestReachCache: the figure is remembered with the stamp of every file a
// plan reads and recomputed on any change, with --no-cache, or when the
// cache is corrupt or cannot be written; it is always the plan's own.
func TestReachCache(t *testing.T) {
	root := testshared.RealStores(t)
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("HOME", cache)
	dir := t.TempDir()
	copyDir(t, filepath.Join(root, "Warrenpoobear__claude-memory"), dir)
	index := filepath.Join(dir, "MEMORY.md")
	asOf := date(t, "2026-12-02")
	calls := 0
	runPlan = func(req PlanRequest) (*Plan, error) { calls++; return RunPlan(req) }
	t.Cleanup(func() { runPlan = RunPlan })

	reach := func(t *testing.T, noCache bool, wantCalls int) {
		t.Helper()
		got, err := RunReach(ReachRequest{Plan: PlanRequest{Index: index, AsOf: asOf}, NoCache: noCache})
		if err != nil {
			t.Fatal(err)
		}
		pl, err := RunPlan(PlanRequest{Index: index, AsOf: asOf})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(*got, pl.After) {
			t.Errorf("reach = %+v, the plan's after = %+v", *got, pl.After)
		}
		if calls != wantCalls {
			t.Errorf("plans made = %d, want %d", calls, wantCalls)
		}
	}
	// The copy is trusted on its stamps once it has settled.
	time.Sleep(2100 * time.Millisecond)
	reach(t, false, 1)
	reach(t, false, 1)
	reach(t, true, 2) // --no-cache plans afresh
	asOf = date(t, "2026-12-03")
	reach(t, false, 3) // another day is another plan
	asOf = date(t, "2026-12-02")
	reach(t, false, 3)

	n := calls
	changes := []struct {
		name   string
		change func(t *testing.T)
	}{
		{"an entry body edited", func(t *testing.T) { appendTo(t, filepath.Join(dir, firstEntry(t, dir)), "\nmore\n") }},
		{"the index edited", func(t *testing.T) { appendTo(t, index, "\n- [New](new_entry.md) — a new entry\n") }},
		{"an entry created", func(t *testing.T) { appendTo(t, filepath.Join(dir, "new_entry.md"), "# New\n") }},
		{"a ledger created", func(t *testing.T) { appendTo(t, filepath.Join(dir, "LEDGER.md"), "# Ledger\n") }},
		{"the recall log written", func(t *testing.T) {
			os.MkdirAll(filepath.Join(dir, ".memcompact"), 0o755)
			appendTo(t, filepath.Join(dir, RecallRel), "2026-12-01\tnew_entry\n")
		}},
		{"an entry removed", func(t *testing.T) { os.Remove(filepath.Join(dir, "new_entry.md")) }},
	}
	for _, c := range changes {
		t.Run(c.name, func(t *testing.T) {
			c.change(t)
			n++
			reach(t, false, n)
		})
	}

	// A corrupt cache is rebuilt silently; one that cannot be written only
	// costs a plan per run.
	time.Sleep(2100 * time.Millisecond)
	n++
	reach(t, false, n) // records the settled store
	reach(t, false, n)
	files, _ := filepath.Glob(filepath.Join(cache, "memcompact", "*.cache"))
	if len(files) == 0 {
		t.Fatal("no cache file written")
	}
	for _, f := range files {
		os.WriteFile(f, []byte(`{"version":`), 0o600)
	}
	n++
	reach(t, false, n)
	reach(t, false, n)
	os.RemoveAll(filepath.Join(cache, "memcompact"))
	os.WriteFile(filepath.Join(cache, "memcompact"), []byte("a file where the cache directory goes"), 0o600)
	n++
	reach(t, false, n)
	n++
	reach(t, false, n)
}

func appendTo(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func firstEntry(t *testing.T, dir string) string {
	t.Helper()
	des, _ := os.ReadDir(dir)
	for _, de := range des {
		if n := de.Name(); n != "MEMORY.md" && filepath.Ext(n) == ".md" {
			return n
		}
	}
	t.Fatal("no entry file")
	return ""
}
