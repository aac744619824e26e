package journal

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestSessionStartPrunesPastTheCap: a session start finds its journal past
// the cap and prunes it there and then (no user command), within the
// hook's budget, keeping the newest snapshot whole.
func TestSessionStartPrunesPastTheCap(t *testing.T) {
	f := newFixture(t, sampleStore())
	for v := range 6 {
		for p := range sampleStore() {
			f.write(p, strings.Repeat("version "+string(rune('a'+v))+" of "+p+"\n", 40))
		}
		f.snap("manual", "")
	}
	j := mustJournal(t, f)
	before := j.diskBytes()
	ms, _, _ := j.manifests()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	later := func() time.Time { return time.Now().Add(2 * time.Minute) }
	cap := before / 3
	if _, err := SessionStart(ctx, HookRequest{Store: f.store, DataDir: f.data, Session: "s1", Now: later, Retention: Retention{KeepAll: time.Nanosecond, KeepDaily: time.Nanosecond, MaxBytes: cap}}); err != nil {
		t.Fatal(err)
	}
	after := mustJournal(t, f).diskBytes()
	left, _, _ := mustJournal(t, f).manifests()
	if after >= before || len(left) >= len(ms) {
		t.Errorf("journal %d → %d bytes, %d → %d snapshots: want it pruned", before, after, len(ms), len(left))
	}
	newest := left[len(left)-1]
	for _, fl := range newest.Files {
		if got, err := mustJournal(t, f).object(fl.Digest); err != nil || string(got) != f.read(fl.Path) {
			t.Errorf("%s after the prune: %v", fl.Path, err)
		}
	}
}
