package journal

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/crashpoint"
	"github.com/memcompact/memcompact/internal/testshared/short"
)

// The torture tests run a snapshot or an undo in a child process (this
// test binary, re-executed) that kills itself with SIGKILL at a named step,
// then prove the journal is still readable and every store file is whole:
// as it was before, or as it is after, never anything else.

const childEnv = "MEMCOMPACT_JOURNAL_TORTURE_CHILD"

func TestMain(m *testing.M) {
	if op := os.Getenv(childEnv); op != "" {
		os.Exit(child(op))
	}
	short.RunInMemory(m)
}

// child runs one operation: "snapshot STORE DATA" or "undo STORE DATA SNAP".
func child(op string) int {
	f := strings.Split(op, "\x1f")
	var err error
	switch f[0] {
	case "snapshot":
		_, err = Snapshot(context.Background(), SnapshotRequest{Store: f[1], DataDir: f[2], Cause: "torture"})
	case "background", "background-slow":
		// The store was written before the session start, as the
		// parent's fixture has it (later).
		wallClock = func() time.Time { return time.Now().Add(time.Minute) }
		if f[0] == "background-slow" {
			backgroundSecret = func([]byte) bool { time.Sleep(20 * time.Millisecond); return false }
		}
		_, err = RunBackground(context.Background(), BackgroundRequest{Store: f[1], DataDir: f[2], Session: f[3]})
	case "prune-day-later":
		// A day on, keeping only the last hour: the first snapshot goes,
		// and the deltas on it are written whole first.
		later := func() time.Time { return time.Now().Add(24 * time.Hour) }
		_, err = RunPrune(context.Background(), PruneRequest{Store: f[1], DataDir: f[2], Now: later,
			Retention: Retention{KeepAll: time.Hour, KeepDaily: time.Hour, MaxBytes: 1 << 30}})
	case "undo":
		_, err = RunUndo(context.Background(), UndoRequest{Store: f[1], DataDir: f[2], To: f[3], Confirm: func(*UndoResult) bool { return true }})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

func runChild(t *testing.T, crashAt string, op ...string) (killed bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+strings.Join(op, "\x1f"), crashpoint.Env+"="+crashAt)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok && ee.ProcessState.String() == "signal: killed" {
		return true
	}
	if err != nil {
		t.Fatalf("child %v: %v\n%s", op, err, out)
	}
	return false
}

// storeFiles reads every file of a store.
func storeFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasPrefix(d.Name(), ".") {
			raw, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			out[rel] = string(raw)
		}
		return nil
	})
	return out
}

func TestTortureKillDuringSnapshot(t *testing.T) {
	needCrashPoints(t)
	for _, step := range []string{"journal.before-rename", "journal.objects-written"} {
		t.Run(step, func(t *testing.T) {
			f := newFixture(t, sampleStore())
			first := f.snap("manual", "")
			f.write("project_auth.md", "rewritten\n")
			if !runChild(t, step, "snapshot", f.store, f.data) {
				t.Fatalf("the child was not killed at %s", step)
			}
			j := mustJournal(t, f)
			latest, err := j.latest()
			if err != nil || latest == nil {
				t.Fatalf("journal unreadable after a kill at %s: %v", step, err)
			}
			if latest.ID != first.Manifest.ID {
				t.Errorf("a manifest appeared although the snapshot was killed before its rename")
			}
			// The next run repairs: it records the change.
			next := f.snap("manual", "")
			if next.Unchanged {
				t.Error("the change was lost after the crash")
			}
			if _, err := j.object(next.Manifest.File("project_auth.md").Digest); err != nil {
				t.Errorf("object after recovery: %v", err)
			}
		})
	}
}

// TestTortureKillDuringRebase: a prune killed as it writes whole a
// snapshot stored as the changes from one it drops leaves every snapshot
// readable (the base is removed only after), and the next prune
// finishes the job.
func TestTortureKillDuringRebase(t *testing.T) {
	needCrashPoints(t)
	f := newFixture(t, sampleStore())
	f.snap("manual", "")
	f.write("project_auth.md", "rewritten\n")
	second := f.snap("manual", "").Manifest
	if second.base == "" {
		t.Fatal("the second snapshot is not a delta")
	}
	if !runChild(t, "journal.before-rename", "prune-day-later", f.store, f.data) {
		t.Fatal("the child was not killed")
	}
	ms, bad, err := mustJournal(t, f).manifests()
	if err != nil || len(bad) > 0 || len(ms) != 2 {
		t.Fatalf("after a kill during the rebase: %d snapshots, unreadable %v, %v", len(ms), bad, err)
	}
	if runChild(t, "", "prune-day-later", f.store, f.data) {
		t.Fatal("the second prune was killed")
	}
	ms, bad, err = mustJournal(t, f).manifests()
	if err != nil || len(bad) > 0 || len(ms) != 1 || ms[0].ID != second.ID || !slices.Equal(ms[0].Files, second.Files) {
		t.Fatalf("after the second prune: %d snapshots, unreadable %v, %v; want the second, whole", len(ms), bad, err)
	}
}

// TestTortureKillDuringFirstSnapshot: a first snapshot killed as it
// writes its pack, or once the pack is durable but before its manifest is
// named, leaves no manifest; the next snapshot records every file, reads
// each back whole from the killed run's pack (adopting it: synced before
// its manifest is named), and prune keeps it.
func TestTortureKillDuringFirstSnapshot(t *testing.T) {
	needCrashPoints(t)
	for _, step := range []string{"journal.pack-written", "journal.objects-written"} {
		t.Run(step, func(t *testing.T) {
			f := newFixture(t, sampleStore())
			if !runChild(t, step, "snapshot", f.store, f.data) {
				t.Fatalf("the child was not killed at %s", step)
			}
			j := mustJournal(t, f)
			if m, err := j.latest(); err != nil || m != nil {
				t.Fatalf("after a kill at %s: latest = %v, %v; want no snapshot and no error", step, m, err)
			}
			next := f.snap("manual", "")
			if len(next.Manifest.Files) != len(sampleStore()) {
				t.Fatalf("the next snapshot has %d files, want %d", len(next.Manifest.Files), len(sampleStore()))
			}
			for _, fl := range next.Manifest.Files {
				if got, err := mustJournal(t, f).object(fl.Digest); err != nil || string(got) != sampleStore()[fl.Path] {
					t.Errorf("%s after recovery: %q, %v", fl.Path, got, err)
				}
			}
			// The killed run's pack, read back whole, is adopted (synced
			// before the manifest names it) rather than written again.
			if n := len(packFiles(t, j)); n != 1 {
				t.Fatalf("%d packs, want the orphan adopted by the next snapshot", n)
			}
			later := time.Now().Add(2 * time.Hour)
			if _, err := RunPrune(context.Background(), PruneRequest{Store: f.store, DataDir: f.data, Now: func() time.Time { return later }}); err != nil {
				t.Fatal(err)
			}
			if n := len(packFiles(t, j)); n != 1 {
				t.Errorf("%d packs after prune, want the adopted one kept", n)
			}
			for _, fl := range next.Manifest.Files {
				if _, err := mustJournal(t, f).object(fl.Digest); err != nil {
					t.Errorf("%s after prune: %v", fl.Path, err)
				}
			}
		})
	}
}

func TestTortureKillDuringUndo(t *testing.T) {
	needCrashPoints(t)
	for _, step := range []string{"undo.safety-taken", "undo.file-written", "journal.before-rename"} {
		t.Run(step, func(t *testing.T) {
			f := newFixture(t, sampleStore())
			first := f.snap("manual", "")
			before := storeFiles(t, f.store)
			os.Remove(filepath.Join(f.store, "project_auth.md"))
			f.write("project_billing.md", "stub\n")
			f.write("MEMORY.md", "# Memory\n")
			after := storeFiles(t, f.store)
			if !runChild(t, step, "undo", f.store, f.data, first.Manifest.ID) {
				t.Fatalf("the child was not killed at %s", step)
			}
			now := storeFiles(t, f.store)
			for p := range union(before, after) {
				b, okB := before[p]
				a, okA := after[p]
				n, okN := now[p]
				if !(okN == okB && n == b) && !(okN == okA && n == a) {
					t.Errorf("%s is neither old nor new after a kill at %s: %q", p, step, n)
				}
			}
			if _, _, err := mustJournal(t, f).manifests(); err != nil {
				t.Errorf("journal unreadable: %v", err)
			}
			// Running the undo again finishes the job.
			if _, err := RunUndo(context.Background(), UndoRequest{Store: f.store, DataDir: f.data, To: first.Manifest.ID,
				Confirm: func(*UndoResult) bool { return true }, Now: func() time.Time { return time.Now() }}); err != nil && !strings.Contains(err.Error(), "nothing to undo") {
				t.Fatal(err)
			}
			for p, s := range before {
				if got := storeFiles(t, f.store)[p]; got != s {
					t.Errorf("after the re-run %s = %q, want %q", p, got, s)
				}
			}
		})
	}
}

func union(a, b map[string]string) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// needCrashPoints skips a test that kills the process at a crash point in
// a build without them (they compile only with the memcompact_crashpoints
// tag: go test -tags memcompact_crashpoints).
func needCrashPoints(t *testing.T) {
	t.Helper()
	if !crashpoint.Enabled {
		t.Skip("the crash points are compiled only with -tags " + crashpoint.Tag)
	}
}
