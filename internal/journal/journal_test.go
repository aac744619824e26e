package journal

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/textfile"
)

// clock is a fake time that moves one minute per call, so snapshot IDs
// are ordered and distinct.
type clock struct{ t time.Time }

func (c *clock) now() time.Time {
	c.t = c.t.Add(time.Minute)
	return c.t
}

func newClock() *clock { return &clock{t: time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)} }

type fixture struct {
	t     testing.TB
	store string
	data  string
	clk   *clock
}

func newFixture(t *testing.T, files map[string]string) *fixture {
	t.Helper()
	f := &fixture{t: t, store: filepath.Join(t.TempDir(), "memory"), data: t.TempDir(), clk: newClock()}
	later(t)
	for p, s := range files {
		f.write(p, s)
	}
	return f
}

// later makes the test's snapshots read as if taken a minute after the
// files were written, as a session start usually is: files are then
// trusted on their stats (see racyWindow).
func later(t testing.TB) {
	t.Helper()
	old := wallClock
	wallClock = func() time.Time { return time.Now().Add(time.Minute) }
	t.Cleanup(func() { wallClock = old })
}

func (f *fixture) write(p, s string) {
	f.t.Helper()
	abs := filepath.Join(f.store, p)
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(abs, []byte(s), 0o644); err != nil {
		f.t.Fatal(err)
	}
	// A distinct modification time, as a real later write would have.
	mt := f.clk.now()
	os.Chtimes(abs, mt, mt)
}

func (f *fixture) read(p string) string {
	raw, err := os.ReadFile(filepath.Join(f.store, p))
	if err != nil {
		return "<absent>"
	}
	return string(raw)
}

func (f *fixture) snap(cause, session string) *SnapshotResult {
	f.t.Helper()
	r, err := Snapshot(context.Background(), SnapshotRequest{Store: f.store, DataDir: f.data, Cause: cause, Session: session,
		Secret: func(b []byte) bool { return bytes.Contains(b, []byte("PASSWORD=")) }, Now: f.clk.now})
	if err != nil {
		f.t.Fatal(err)
	}
	return r
}

const index = `# Memory
- [Testing](feedback_testing.md) — run the race detector before every push
- [Auth](project_auth.md) — sessions move to JWT in Q3
- [Billing](project_billing.md) — exports run nightly at 02:00 UTC
- [CI cache](reference_ci.md) — cache key includes go.sum
- [Release](reference_release.md) — tag from main, never from a branch
`

func sampleStore() map[string]string {
	return map[string]string{
		"MEMORY.md":            index,
		"feedback_testing.md":  "---\nname: testing\n---\nAlways run go test -race before pushing.\n",
		"project_auth.md":      "Sessions move to JWT in Q3; cookies stay until then.\n",
		"project_billing.md":   "Nightly export at 02:00 UTC to s3://billing-exports.\n" + strings.Repeat("Details of the export format. ", 20) + "\n",
		"reference_ci.md":      "The cache key includes go.sum and the Go version.\n",
		"reference_release.md": "Tag releases from main only.\n",
	}
}

func TestSnapshotUnchangedCostsNothing(t *testing.T) {
	f := newFixture(t, sampleStore())
	first := f.snap("session-start", "s1")
	if first.Unchanged || first.Read != 6 {
		t.Fatalf("first snapshot: unchanged=%v read=%d, want a new snapshot reading 6 files", first.Unchanged, first.Read)
	}
	again := f.snap("pre-write", "s1")
	if !again.Unchanged || again.Read != 0 || again.Manifest.ID != first.Manifest.ID {
		t.Errorf("unchanged store: unchanged=%v read=%d id=%s, want no new snapshot and no file read", again.Unchanged, again.Read, again.Manifest.ID)
	}
	f.write("project_auth.md", "Sessions moved to JWT.\n")
	third := f.snap("pre-write", "s1")
	if third.Unchanged || third.Read != 1 {
		t.Errorf("one file changed: unchanged=%v read=%d, want a new snapshot reading 1 file", third.Unchanged, third.Read)
	}
	ms, _, _ := mustJournal(t, f).manifests()
	if len(ms) != 2 {
		t.Errorf("manifests = %d, want 2", len(ms))
	}
}

func mustJournal(t testing.TB, f *fixture) *Journal {
	t.Helper()
	j, err := open(f.data, f.store)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func TestSnapshotWithholdsSecrets(t *testing.T) {
	files := sampleStore()
	files["reference_db.md"] = "Staging DB: PASSWORD=hunter2-very-secret\n"
	f := newFixture(t, files)
	r := f.snap("manual", "")
	if len(r.Withheld) != 1 || r.Withheld[0].Path != "reference_db.md" || r.Withheld[0].Withheld != "secret" {
		t.Fatalf("withheld = %+v, want reference_db.md as secret", r.Withheld)
	}
	// The secret's bytes are nowhere in the journal.
	filepath.WalkDir(f.data, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if raw, _ := os.ReadFile(p); bytes.Contains(raw, []byte("hunter2")) {
				t.Errorf("%s holds the secret", p)
			}
		}
		return nil
	})
}

// TestConsolidation simulates a background consolidation between two
// sessions: entries deleted, one rewritten to a stub, the index rewritten
// without their pointers. History names exactly that, and undo brings the
// store back byte for byte.
func TestConsolidation(t *testing.T) {
	f := newFixture(t, sampleStore())
	before := map[string]string{}
	for p := range sampleStore() {
		before[p] = f.read(p)
	}
	f.snap("session-start", "s1")
	for _, p := range []string{"project_auth.md", "reference_ci.md", "reference_release.md"} {
		os.Remove(filepath.Join(f.store, p))
	}
	f.write("project_billing.md", "Exports.\n")
	f.write("MEMORY.md", "# Memory\n- [Testing](feedback_testing.md) — run the race detector before every push\n- [Billing](project_billing.md) — exports\n")
	cur := f.snap("session-start", "s2")

	h, err := RunHistory(context.Background(), HistoryRequest{Store: f.store, DataDir: f.data})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Steps) != 1 {
		t.Fatalf("steps = %d, want 1", len(h.Steps))
	}
	st := h.Steps[0]
	var kinds []string
	for _, c := range st.Changes {
		kinds = append(kinds, c.Kind+" "+c.Path)
	}
	want := "changed MEMORY.md|changed project_billing.md|removed project_auth.md|removed reference_ci.md|removed reference_release.md"
	if got := strings.Join(kinds, "|"); got != want {
		t.Errorf("changes:\n got %s\nwant %s", got, want)
	}
	if len(st.Dropped) != 3 || len(st.Added) != 0 {
		t.Errorf("pointers dropped %d added %d, want 3 and 0", len(st.Dropped), len(st.Added))
	}
	var wk []string
	for _, w := range h.Warnings {
		wk = append(wk, w.Kind)
	}
	if got := strings.Join(wk, ","); got != "content-collapse,mass-removal,unrecorded-index-drop" { // the index's own shrinking is told by its pointers
		t.Errorf("warnings = %s", got)
	}
	step, err := mustJournal(t, f).sinceLastSession(cur.Manifest)
	if err != nil || step == nil || len(step.Warnings) != 3 {
		t.Fatalf("SinceLastSession = %+v, %v; want the same 3 warnings", step, err)
	}

	// Undo everything removed since the first session: the three entries
	// and their pointers come back; billing's stub stays (it was changed,
	// not removed).
	res, err := RunUndo(context.Background(), UndoRequest{Store: f.store, DataDir: f.data, RemovedSince: h.Steps[0].From,
		Confirm: func(*UndoResult) bool { return true }, Now: f.clk.now})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != "undone" || res.Safety == "" {
		t.Errorf("undo status %s safety %q", res.Status, res.Safety)
	}
	for _, p := range []string{"project_auth.md", "reference_ci.md", "reference_release.md"} {
		if got := f.read(p); got != before[p] {
			t.Errorf("%s = %q, want it back byte for byte", p, got)
		}
	}
	wantIndex := "# Memory\n- [Testing](feedback_testing.md) — run the race detector before every push\n" +
		"- [Auth](project_auth.md) — sessions move to JWT in Q3\n" +
		"- [Billing](project_billing.md) — exports\n" +
		"- [CI cache](reference_ci.md) — cache key includes go.sum\n" +
		"- [Release](reference_release.md) — tag from main, never from a branch\n"
	if got := f.read("MEMORY.md"); got != wantIndex {
		t.Errorf("index after undo:\n%s\nwant:\n%s", got, wantIndex)
	}

	// The whole store back to the first snapshot, byte for byte; and the
	// undo itself undoable.
	if _, err := RunUndo(context.Background(), UndoRequest{Store: f.store, DataDir: f.data, To: h.Steps[0].From,
		Confirm: func(*UndoResult) bool { return true }, Now: f.clk.now}); err != nil {
		t.Fatal(err)
	}
	for p, s := range before {
		if got := f.read(p); got != s {
			t.Errorf("after undo --to: %s = %q, want %q", p, got, s)
		}
	}
}

func TestUndoRefusals(t *testing.T) {
	f := newFixture(t, sampleStore())
	_, err := RunUndo(context.Background(), UndoRequest{Store: f.store, DataDir: f.data, Entry: "x"})
	if outcome.ReasonOf(err) != ReasonNoJournal {
		t.Errorf("empty journal: %v, want %s", err, ReasonNoJournal)
	}
	first := f.snap("manual", "")
	_, err = RunUndo(context.Background(), UndoRequest{Store: f.store, DataDir: f.data, Entry: "nope"})
	if outcome.ReasonOf(err) != ReasonNotInSnap {
		t.Errorf("unknown entry: %v, want %s", err, ReasonNotInSnap)
	}
	_, err = RunUndo(context.Background(), UndoRequest{Store: f.store, DataDir: f.data, To: first.Manifest.ID})
	if outcome.ReasonOf(err) != ReasonNothingToDo {
		t.Errorf("store as snapshot: %v, want %s", err, ReasonNothingToDo)
	}
	_, err = RunUndo(context.Background(), UndoRequest{Store: f.store, DataDir: f.data, To: "x", Entry: "y"})
	if outcome.StatusOf(err) != outcome.Usage {
		t.Errorf("two modes: %v, want a usage error", err)
	}
	// Planned without a yes: nothing written.
	os.Remove(filepath.Join(f.store, "project_auth.md"))
	res, err := RunUndo(context.Background(), UndoRequest{Store: f.store, DataDir: f.data, Entry: "project_auth"})
	if err != nil || res.Status != "planned" || f.read("project_auth.md") != "<absent>" {
		t.Errorf("dry run: status %v err %v; the file must stay absent", res, err)
	}
}

// TestUndoRefusesChangedFile: a file edited between plan and write is
// never overwritten.
func TestUndoRefusesChangedFile(t *testing.T) {
	f := newFixture(t, sampleStore())
	first := f.snap("manual", "")
	f.write("project_auth.md", "v2\n")
	_, err := RunUndo(context.Background(), UndoRequest{Store: f.store, DataDir: f.data, File: "project_auth.md", At: first.Manifest.ID,
		Confirm: func(*UndoResult) bool {
			f.write("project_auth.md", "v3 by another writer\n")
			return true
		}, Now: f.clk.now})
	if outcome.ReasonOf(err) != ReasonChanged {
		t.Fatalf("err = %v, want %s", err, ReasonChanged)
	}
	if got := f.read("project_auth.md"); got != "v3 by another writer\n" {
		t.Errorf("file = %q: the other writer's edit was lost", got)
	}
}

func TestCorruptAndHalfWrittenJournal(t *testing.T) {
	f := newFixture(t, sampleStore())
	good := f.snap("manual", "")
	j := mustJournal(t, f)
	// A corrupt manifest (a disk error) and the debris of a killed writer.
	os.WriteFile(filepath.Join(j.manifestsDir(), "29990101T000000.000000000Z-ffffff.json"), []byte("{\"version\":1,\"id\":"), 0o644)
	os.WriteFile(filepath.Join(j.manifestsDir(), tmpPrefix+"123"), []byte("{"), 0o644)
	latest, err := j.latest()
	if err != nil || latest == nil || latest.ID != good.Manifest.ID {
		t.Fatalf("Latest = %v, %v; want the good snapshot past the corrupt one", latest, err)
	}
	ms, bad, err := j.manifests()
	if err != nil || len(ms) != 1 || len(bad) != 1 {
		t.Errorf("Manifests: %d good, %v bad, %v", len(ms), bad, err)
	}
	// A corrupt object is refused, never restored.
	d := good.Manifest.File("project_auth.md").Digest
	corruptObject(t, j, d)
	if _, err := j.object(d); err == nil {
		t.Error("a corrupt object was trusted")
	}
	// An unwritable data dir is an error the caller can ignore, not a panic.
	ro := filepath.Join(t.TempDir(), "file")
	os.WriteFile(ro, nil, 0o644)
	if _, err := Snapshot(context.Background(), SnapshotRequest{Store: f.store, DataDir: ro}); err == nil {
		t.Error("snapshot into a data dir that is a file succeeded")
	}
}

func TestClobbered(t *testing.T) {
	f := newFixture(t, sampleStore())
	j := mustJournal(t, f)
	if err := j.seeIndex("A", []byte(index)); err != nil {
		t.Fatal(err)
	}
	// Session B adds a line; session A writes its stale copy plus its own line.
	withB := index + "- [Deploy](reference_deploy.md) — deploys need a green canary\n"
	staleA := index + "- [Style](feedback_style.md) — tabs, not spaces\n"
	got := j.clobbered("A", withB, staleA)
	if len(got) != 1 || !strings.Contains(got[0], "reference_deploy.md") {
		t.Errorf("Clobbered = %q, want B's line", got)
	}
	// A merged write keeps B's line: allowed.
	if got := j.clobbered("A", withB, withB+"- [Style](feedback_style.md) — tabs\n"); got != nil {
		t.Errorf("merged write: Clobbered = %q, want nil", got)
	}
	// Unknown session, or no foreign change: nothing judged.
	if j.clobbered("Z", withB, staleA) != nil || j.clobbered("A", index, "") != nil {
		t.Error("judged without evidence")
	}
}

// TestClobberedMultiset: clobbered counts lines as a multiset, as the
// difference of the two whole line sets did: random indexes of a few
// repeated lines, a view, and a write, against that formula.
func TestClobberedMultiset(t *testing.T) {
	f := newFixture(t, sampleStore())
	j := mustJournal(t, f)
	rng := rand.New(rand.NewPCG(3, 4))
	pick := func() string {
		var b strings.Builder
		for range rng.IntN(8) {
			b.WriteString([]string{"- [a](a.md) — x\n", "- [b](b.md) — y  \n", "\n", "# H\n", "- [a](a.md) — x\n"}[rng.IntN(5)])
		}
		return b.String()
	}
	for i := range 300 {
		seen, current, proposed := pick(), pick(), pick()
		session := fmt.Sprint("S", i)
		if err := j.seeIndex(session, []byte(seen)); err != nil {
			t.Fatal(err)
		}
		got := j.clobbered(session, current, proposed)
		var want []string
		if seen != current {
			foreign := minus(lineSet([]byte(current)), lineSet([]byte(seen)))
			removed := removedLines(current, proposed)
			for _, l := range orderedLines(current) {
				if foreign[l] > 0 && removed[l] > 0 {
					want = append(want, l)
					foreign[l]--
					removed[l]--
				}
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("seen %q, current %q, proposed %q: clobbered = %q, want %q", seen, current, proposed, got, want)
		}
	}
}

func TestPrune(t *testing.T) {
	f := newFixture(t, sampleStore())
	f.clk.t = time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	// One snapshot a day for 120 days, each with a new version of a file.
	for d := 0; d < 120; d++ {
		f.write("project_auth.md", strings.Repeat("x", d+1))
		f.snap("manual", "")
		f.clk.t = f.clk.t.Add(24*time.Hour - 2*time.Minute)
	}
	j := mustJournal(t, f)
	old := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	filepath.WalkDir(j.objectsDir(), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			os.Chtimes(p, old, old)
		}
		return nil
	})
	now := f.clk.t
	r, err := RunPrune(context.Background(), PruneRequest{Store: f.store, DataDir: f.data, Retention: defaultRetention, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	// Days 0-29 are past 90 days: one a week of them stays (4-6); the 90
	// days after are all kept (daily, then whole).
	if r.Kept < 94 || r.Kept > 96 || len(r.Removed) != 120-r.Kept {
		t.Errorf("kept %d removed %d", r.Kept, len(r.Removed))
	}
	if r.ObjectsRemoved != len(r.Removed) {
		t.Errorf("objects removed %d, want one per removed snapshot (%d)", r.ObjectsRemoved, len(r.Removed))
	}
	ms, _, _ := j.manifests()
	for _, m := range ms {
		for _, fl := range m.Files {
			if _, err := j.object(fl.Digest); err != nil {
				t.Fatalf("kept snapshot %s lost object of %s: %v", m.ID, fl.Path, err)
			}
		}
	}
	// A size cap drops the oldest first and never the newest.
	r, err = RunPrune(context.Background(), PruneRequest{Store: f.store, DataDir: f.data, Retention: Retention{MaxBytes: 1}, Now: func() time.Time { return now }})
	if err != nil || r.Kept != 1 {
		t.Errorf("cap: kept %d, %v; want only the newest", r.Kept, err)
	}
	if latest, _ := j.latest(); latest == nil || latest.ID != ms[len(ms)-1].ID {
		t.Error("the size cap removed the newest snapshot")
	}
}

// TestSnapshotOverBudget: a snapshot cut short by its time budget writes no
// manifest (history never sees a half store as deletions), keeps what it
// stored, and the next one completes.
func TestSnapshotOverBudget(t *testing.T) {
	f := newFixture(t, sampleStore())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Snapshot(ctx, SnapshotRequest{Store: f.store, DataDir: f.data, Cause: "hook"}); err == nil || !strings.Contains(err.Error(), "the next snapshot continues") {
		t.Fatalf("err = %v, want a stop that says the next snapshot continues", err)
	}
	if m, _ := mustJournal(t, f).latest(); m != nil {
		t.Fatalf("a manifest was written for a stopped snapshot: %s", m.ID)
	}
	if r := f.snap("hook", ""); r.Unchanged || len(r.Manifest.Files) != 6 {
		t.Errorf("the next snapshot: unchanged=%v files=%d, want all 6", r.Unchanged, len(r.Manifest.Files))
	}
}

// TestHistoryShowsTheLiveStore: a deletion no hook has journaled yet is
// the last step of history ("now"), with its warning and an undo that
// works; nothing is recorded by looking.
func TestHistoryShowsTheLiveStore(t *testing.T) {
	f := newFixture(t, sampleStore())
	first := f.snap("session-start", "s1")
	h, err := RunHistory(context.Background(), HistoryRequest{Store: f.store, DataDir: f.data})
	if err != nil || len(h.Steps) != 0 {
		t.Fatalf("unchanged store: steps %+v, err %v; want none", h, err)
	}
	os.Remove(filepath.Join(f.store, "reference_ci.md"))
	f.write("MEMORY.md", strings.Replace(index, "- [CI cache](reference_ci.md) — cache key includes go.sum\n", "", 1))
	h, err = RunHistory(context.Background(), HistoryRequest{Store: f.store, DataDir: f.data, Now: f.clk.now})
	if err != nil {
		t.Fatal(err)
	}
	if h.Snapshots != 1 || len(h.Steps) != 1 || h.Steps[0].To != "now" || h.Steps[0].From != first.Manifest.ID {
		t.Fatalf("history = %+v, want one step from %s to now", h, first.Manifest.ID)
	}
	if len(h.Steps[0].Dropped) != 1 || h.Steps[0].Dropped[0].Target != "reference_ci.md" {
		t.Errorf("dropped = %+v, want the CI cache pointer", h.Steps[0].Dropped)
	}
	if len(h.Warnings) != 1 || h.Warnings[0].Kind != "unrecorded-index-drop" || h.Warnings[0].Snapshot != "now" {
		t.Fatalf("warnings = %+v, want one unrecorded-index-drop at now", h.Warnings)
	}
	if ms, _, _ := mustJournal(t, f).manifests(); len(ms) != 1 {
		t.Errorf("history recorded %d snapshots, want it to record nothing", len(ms))
	}
	if _, err := RunUndo(context.Background(), UndoRequest{Store: f.store, DataDir: f.data, RemovedSince: first.Manifest.ID,
		Confirm: func(*UndoResult) bool { return true }, Now: f.clk.now}); err != nil {
		t.Fatal(err)
	}
	if got := f.read("MEMORY.md"); got != index {
		t.Errorf("index after undo:\n%s\nwant:\n%s", got, index)
	}
	h, err = RunHistory(context.Background(), HistoryRequest{Store: f.store, DataDir: f.data, File: "project_auth.md", Now: f.clk.now})
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range h.Steps {
		if st.To == "now" {
			t.Errorf("--file project_auth.md shows a live step %+v, though that file did not change", st)
		}
	}
}

// lineSet counts the non-blank lines of b: with minus, the oracle of
// removedLines and of clobbered.
func lineSet(b []byte) map[string]int {
	t, _ := textfile.Decode(b)
	return countLines(textfile.Lines(t))
}

// TestRemovedLines: counting only the lines between the common start and
// end gives the multiset difference of the whole texts.
func TestRemovedLines(t *testing.T) {
	texts := []string{"", "a\n", "a\nb\nc\n", "a\nb\nb\nc\n", "a\n\nb  \nc\r\n", "\ufeffa\nb\n", "x\na\nb\nc\ny\n", "a\nc\n", "b\na\nc\n", "a\xff\nb\n"}
	for _, cur := range texts {
		for _, prop := range texts {
			want := minus(lineSet([]byte(cur)), lineSet([]byte(prop)))
			if got := removedLines(cur, prop); !reflect.DeepEqual(got, want) {
				t.Errorf("removedLines(%q, %q) = %v, want %v", cur, prop, got, want)
			}
		}
	}
}

// TestSeeIndexAgain: a session that sees the index it saw already (a
// resumed session) leaves its record as it is; another index replaces it.
func TestSeeIndexAgain(t *testing.T) {
	f := newFixture(t, sampleStore())
	j := mustJournal(t, f)
	if err := j.seeIndex("A", []byte(index)); err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(j.sessionPath("A"))
	if err != nil {
		t.Fatal(err)
	}
	if err := j.seeIndex("A", []byte(index)); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.Stat(j.sessionPath("A")); !os.SameFile(before, again) || !again.ModTime().Equal(before.ModTime()) {
		t.Error("the same index rewrote the session's record")
	}
	if err := j.seeIndex("A", []byte(index+"- [X](x.md) — more\n")); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.Stat(j.sessionPath("A")); os.SameFile(before, after) {
		t.Error("another index did not replace the session's record")
	}
}

// TestLastSessionBefore: reading manifests newest first and stopping at
// the answer finds the snapshot that reading and sorting every manifest
// finds, for every snapshot as the current one; and a manifest whose
// name is not its ID sends it to the full read.
func TestLastSessionBefore(t *testing.T) {
	f := newFixture(t, sampleStore())
	steps := []struct{ cause, session string }{
		{"session-start", "s1"}, {"pre-write", "s1"}, {"pre-write", "s1"}, {"session-start", "s2"},
		{"pre-write", "s2"}, {"session-start", "s2"}, {"pre-write", "s1"}, {"manual", ""}, {"session-start", "s3"},
	}
	for i, s := range steps {
		f.write("project_auth.md", fmt.Sprintf("version %d\n", i))
		f.snap(s.cause, s.session)
	}
	j := mustJournal(t, f)
	check := func() {
		t.Helper()
		ms, _, err := j.manifests()
		if err != nil || len(ms) != len(steps) {
			t.Fatalf("manifests: %d, %v", len(ms), err)
		}
		for _, cur := range ms {
			got, err := j.lastSessionBefore(cur)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := j.lastSessionBeforeSorted(cur)
			if (got == nil) != (want == nil) || got != nil && got.ID != want.ID {
				t.Errorf("before %s (%s %s): got %v, want %v", cur.ID, cur.Cause, cur.Session, got, want)
			}
		}
	}
	check()
	// A manifest renamed by hand sorts by its ID, not its name.
	ms, _, _ := j.manifests()
	old := filepath.Join(j.manifestsDir(), ms[3].ID+".json")
	if err := os.Rename(old, filepath.Join(j.manifestsDir(), "0-renamed.json")); err != nil {
		t.Fatal(err)
	}
	check()
}

// corruptObject spoils every stored copy of digest: its loose object and
// its bytes in each pack that holds it.
func corruptObject(t *testing.T, j *Journal, digest string) {
	t.Helper()
	spoiled := 0
	if _, err := os.Stat(j.objectPath(digest)); err == nil {
		os.WriteFile(j.objectPath(digest), []byte("garbage"), 0o644)
		spoiled++
	}
	for _, p := range j.packs() {
		e, ok := p.objects[digest]
		if !ok || e.size == 0 {
			continue
		}
		f, err := os.OpenFile(p.path, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteAt([]byte{'#'}, p.dataOff+e.off+max(0, e.size-2)) // a stored byte, not the frame's header
		f.Close()
		spoiled++
	}
	if spoiled == 0 {
		t.Fatalf("object %s is stored nowhere", digest[:12])
	}
}
