package journal

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/outcome"
)

// TestUndoRefusesAPathOutsideTheStore: a path named outside the store is
// refused before any plan is shown, with a message that says so (not a
// symlink's), and the file outside is untouched.
func TestUndoRefusesAPathOutsideTheStore(t *testing.T) {
	f := newFixture(t, sampleStore())
	first := f.snap("manual", "")
	outside := filepath.Join(filepath.Dir(f.store), "outside.txt")
	os.WriteFile(outside, []byte("not memory\n"), 0o644)
	for _, req := range []UndoRequest{
		{File: "../outside.txt", At: first.Manifest.ID},
		{File: "sub/../../outside.txt", At: first.Manifest.ID},
		{Entry: "../outside"},
	} {
		shown := false
		req.Store, req.DataDir, req.Now = f.store, f.data, f.clk.now
		req.Confirm = func(*UndoResult) bool { shown = true; return true }
		res, err := RunUndo(context.Background(), req)
		if err == nil || !strings.Contains(err.Error(), "is not a path inside the store") || strings.Contains(err.Error(), "symlink") {
			t.Errorf("%+v: %v, want a refusal naming a path outside the store", req, err)
		}
		if shown || res != nil {
			t.Errorf("%+v: a plan was shown: %+v", req, res)
		}
	}
	if raw, _ := os.ReadFile(outside); string(raw) != "not memory\n" {
		t.Errorf("the file outside the store was changed: %q", raw)
	}
}

// TestDataDirInsideTheStoreIsRefused: a data directory inside the store
// is refused by every verb before anything is written, so an undo of the
// whole store can never remove the journal.
func TestDataDirInsideTheStoreIsRefused(t *testing.T) {
	f := newFixture(t, sampleStore())
	data := filepath.Join(f.store, "journal-data")
	_, err := Snapshot(context.Background(), SnapshotRequest{Store: f.store, DataDir: data, Cause: "manual"})
	if outcome.ReasonOf(err) != ReasonDataInStore || !strings.Contains(err.Error(), "lies inside the store") {
		t.Errorf("snapshot: %v, want a refusal", err)
	}
	if _, err := os.Stat(data); err == nil {
		t.Error("the data directory was created inside the store")
	}
	_, err = RunUndo(context.Background(), UndoRequest{Store: f.store, DataDir: data, To: "last", Confirm: yes})
	if outcome.ReasonOf(err) != ReasonDataInStore {
		t.Errorf("undo: %v, want a refusal", err)
	}
	// The same through a symlink to the store.
	link := filepath.Join(t.TempDir(), "link")
	os.Symlink(f.store, link)
	_, err = Snapshot(context.Background(), SnapshotRequest{Store: f.store, DataDir: filepath.Join(link, "d"), Cause: "manual"})
	if outcome.ReasonOf(err) != ReasonDataInStore {
		t.Errorf("through a symlink: %v, want a refusal", err)
	}
}
