package journal

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestLargeStoreIsJournaledInParts: a store too large to read within the
// hook's time is journaled in parts, one per session start, each saying
// so in the note; history and the deletion
// note never take a part for a removal; the last part makes it whole.
func TestLargeStoreIsJournaledInParts(t *testing.T) {
	files := map[string]string{IndexName: "# Memory\n"}
	for i := range 200 {
		files[fmt.Sprintf("entry_%03d.md", i)] = fmt.Sprintf("entry %d\n", i)
	}
	f := newFixture(t, files)
	slow := func([]byte) bool { time.Sleep(20 * time.Millisecond); return false }
	parts := 0
	for ; parts < 40; parts++ {
		ctx, cancel := context.WithTimeout(context.Background(), 400*time.Millisecond)
		notes, err := SessionStart(ctx, HookRequest{Store: f.store, DataDir: f.data, Session: fmt.Sprintf("s%d", parts), Secret: slow, Now: f.clk.now})
		cancel()
		if err != nil {
			t.Fatalf("part %d: %v", parts, err)
		}
		if len(notes) == 0 || !strings.Contains(notes[0], "journaled in parts") {
			break
		}
		if strings.Contains(strings.Join(notes, " "), "deleted") {
			t.Errorf("a part was reported as a deletion: %q", notes)
		}
	}
	if parts == 0 {
		t.Fatal("the store was journaled in one go: the test's store is too small to need parts")
	}
	m, _ := mustJournal(t, f).latest()
	if m.Partial || len(m.Files) != len(files) {
		t.Fatalf("after %d parts: partial=%v, %d of %d files", parts, m.Partial, len(m.Files), len(files))
	}
	if all, _, _ := mustJournal(t, f).allManifests(); len(all) != 1 {
		t.Errorf("%d manifests once whole, want the parts dropped for the whole one", len(all))
	}
	res, err := RunHistory(context.Background(), HistoryRequest{Store: f.store, DataDir: f.data, Now: f.clk.now})
	if err != nil || len(res.Warnings) != 0 || len(res.Steps) != 0 {
		t.Errorf("history after the parts: %d steps, warnings %+v, %v; want nothing", len(res.Steps), res.Warnings, err)
	}
}
