package journal

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// sameStatEdit rewrites p with s (the same size as before) and sets its
// modification time back to what it was: an edit a stat cannot see by
// size and modification time alone.
func (f *fixture) sameStatEdit(p, s string) {
	f.t.Helper()
	abs := filepath.Join(f.store, p)
	fi, err := os.Stat(abs)
	if err != nil {
		f.t.Fatal(err)
	}
	if fi.Size() != int64(len(s)) {
		f.t.Fatalf("%s: the edit must keep the size (%d, not %d)", p, fi.Size(), len(s))
	}
	if err := os.WriteFile(abs, []byte(s), 0o644); err != nil {
		f.t.Fatal(err)
	}
	if err := os.Chtimes(abs, fi.ModTime(), fi.ModTime()); err != nil {
		f.t.Fatal(err)
	}
}

func TestSameStatEditIsJournaled(t *testing.T) {
	f := newFixture(t, sampleStore())
	f.snap("session-start", "s1")
	f.sameStatEdit("reference_ci.md", "The cache key includes go.mod and the Go version.\n")
	r := f.snap("pre-write", "s1")
	if r.Unchanged || r.Read != 1 {
		t.Fatalf("an edit that kept size and mtime: unchanged=%v read=%d, want a new snapshot reading the file", r.Unchanged, r.Read)
	}
	got, err := mustJournal(t, f).object(r.Manifest.File("reference_ci.md").Digest)
	if err != nil || string(got) != "The cache key includes go.mod and the Go version.\n" {
		t.Errorf("journaled bytes = %q, %v; want the edited bytes", got, err)
	}
}

// TestRacyRecordIsNotTrusted: a file read within racyWindow of its last
// change is read again by the next snapshot, even when its stat is the
// same (an edit within the same clock tick moves no time).
func TestRacyRecordIsNotTrusted(t *testing.T) {
	f := newFixture(t, sampleStore())
	wallClock = time.Now // the files were just written: every record is racy
	abs := filepath.Join(f.store, "reference_ci.md")
	now := time.Now()
	os.Chtimes(abs, now, now)
	first := f.snap("session-start", "s1")
	again := f.snap("pre-write", "s1")
	if again.Read == 0 {
		t.Errorf("a file changed within the racy window of its digest was trusted on its stat (read %d of %d)", again.Read, len(first.Manifest.Files))
	}
	if !again.Unchanged {
		t.Errorf("re-reading an unchanged racy file wrote a new snapshot")
	}
	later(t)
	settled := f.snap("pre-write", "s1")
	if settled.Read == 0 || settled.Unchanged {
		t.Errorf("once the files settle the snapshot that reads them again is written, so the next trusts them: read=%d unchanged=%v", settled.Read, settled.Unchanged)
	}
	if last := f.snap("pre-write", "s1"); last.Read != 0 || !last.Unchanged {
		t.Errorf("settled files were read again: read=%d unchanged=%v", last.Read, last.Unchanged)
	}
}

// TestUndoTheUndoKeepsASameStatEdit: the safety snapshot before an undo
// reads every file, so undoing the undo brings back the bytes the undo
// overwrote, even when no snapshot saw them before.
func TestUndoTheUndoKeepsASameStatEdit(t *testing.T) {
	f := newFixture(t, sampleStore())
	old := f.snap("session-start", "s1")
	f.write("reference_ci.md", "The cache key includes go.sum and the Go vers.\n")
	f.snap("pre-write", "s1")
	edited := "The cache key includes go.sum and the Go VERS.\n"
	f.sameStatEdit("reference_ci.md", edited)
	ctx := context.Background()
	res, err := RunUndo(ctx, UndoRequest{Store: f.store, DataDir: f.data, To: old.Manifest.ID, Confirm: yes, Now: f.clk.now})
	if err != nil {
		t.Fatal(err)
	}
	if got := f.read("reference_ci.md"); got != sampleStore()["reference_ci.md"] {
		t.Fatalf("undo wrote %q", got)
	}
	if _, err := RunUndo(ctx, UndoRequest{Store: f.store, DataDir: f.data, To: res.Safety, Confirm: yes, Now: f.clk.now}); err != nil {
		t.Fatal(err)
	}
	if got := f.read("reference_ci.md"); got != edited {
		t.Errorf("undoing the undo brought back %q, want the edited bytes %q", got, edited)
	}
}

func yes(*UndoResult) bool { return true }

// TestUnchangedSessionStartWritesNothing: a new session on an unchanged
// store writes no manifest (the field's 874 KB per session start on a
// 5,000-entry store), and says nothing.
func TestUnchangedSessionStartWritesNothing(t *testing.T) {
	f := newFixture(t, sampleStore())
	for _, s := range []string{"s1", "s2", "s3"} {
		notes, err := SessionStart(context.Background(), HookRequest{Store: f.store, DataDir: f.data, Session: s, Now: f.clk.now})
		if err != nil || len(notes) != 0 {
			t.Fatalf("%s: %q, %v", s, notes, err)
		}
	}
	if ms, _, _ := mustJournal(t, f).manifests(); len(ms) != 1 {
		t.Errorf("%d manifests after three session starts on an unchanged store, want 1", len(ms))
	}
}
