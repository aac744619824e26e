//go:build unix

package journal

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// slowStart is a session start with a short budget and a slow secret
// test: a store of a few hundred files cannot be read within it.
func slowStart(t *testing.T, f *fixture, session string, background bool) []string {
	t.Helper()
	slow := func([]byte) bool { time.Sleep(20 * time.Millisecond); return false }
	ctx, cancel := context.WithTimeout(context.Background(), 400*time.Millisecond)
	defer cancel()
	notes, err := SessionStart(ctx, HookRequest{Store: f.store, DataDir: f.data, Session: session, Secret: slow, Now: f.clk.now, Background: background})
	if err != nil {
		t.Fatalf("session start %s: %v", session, err)
	}
	return notes
}

// inBackgroundSays returns the count of "journaling N files in the
// background" in notes, or nil.
func inBackgroundSays(notes []string) []string {
	return regexp.MustCompile(`journaling (\d+) files in the background`).FindStringSubmatch(strings.Join(notes, " "))
}

// TestFirstSessionStartFinishesInBackground: a store too large for the
// hook's budget is journaled in part by the hook, which says it is
// journaling the rest in the background; a detached child of the same
// executable finishes the snapshot; the next session start says it
// finished, and the journal is whole (no part left, nothing reported as
// removed).
func TestFirstSessionStartFinishesInBackground(t *testing.T) {
	ended := inBackground(t, "background", "")
	files := bigStore(200)
	f := newFixture(t, files)
	notes := slowStart(t, f, "s1", true)
	m := inBackgroundSays(notes)
	if m == nil {
		t.Fatalf("the first note does not say it journals in the background: %q", notes)
	}
	j := mustJournal(t, f)
	part, _ := j.latest()
	recorded := 0
	if part != nil {
		recorded = len(part.Files)
	}
	if m[1] != fmt.Sprint(len(files)-recorded) {
		t.Errorf("the note says %s files in the background; %d of %d were recorded", m[1], recorded, len(files))
	}
	if err := <-ended; err != nil {
		t.Fatalf("the background run: %v", err)
	}
	if st := j.readBackground(); st == nil || st.State != "finished" {
		t.Fatalf("the background run's record: %+v", st)
	}
	whole, _ := mustJournal(t, f).latest()
	if whole == nil || whole.Partial || len(whole.Files) != len(files) {
		t.Fatalf("after the background run the newest snapshot is %+v", whole)
	}
	notes = slowStart(t, f, "s2", true)
	if !strings.Contains(strings.Join(notes, " "), "finished recording this store in the background") {
		t.Errorf("the next note does not say the background run finished: %q", notes)
	}
	if strings.Contains(strings.Join(notes, " "), "deleted") {
		t.Errorf("a deletion was reported: %q", notes)
	}
	if all, bad, _ := mustJournal(t, f).allManifests(); len(bad) != 0 || len(all) != 1 {
		t.Errorf("%d manifests (%v unreadable), want the one whole snapshot", len(all), bad)
	}
	if j.readBackground() != nil {
		t.Error("the record was kept after it was reported")
	}
	res, err := RunHistory(context.Background(), HistoryRequest{Store: f.store, DataDir: f.data, Now: f.clk.now})
	if err != nil || len(res.Warnings) != 0 || len(res.Steps) != 0 {
		t.Errorf("history: %d steps, warnings %+v, %v; want nothing", len(res.Steps), res.Warnings, err)
	}
}

// TestSessionStartWhileBackgroundRuns: while the background run is at
// work, a session start reads nothing more and says it is still at work.
func TestSessionStartWhileBackgroundRuns(t *testing.T) {
	f := newFixture(t, bigStore(5))
	j := mustJournal(t, f)
	os.MkdirAll(j.Dir, 0o700)
	if err := j.writeBackground(&bgStatus{State: "running", PID: os.Getpid(), Started: wallClock(), Files: 5, Total: 6}); err != nil {
		t.Fatal(err)
	}
	notes := slowStart(t, f, "s1", true)
	if len(notes) != 1 || !strings.Contains(notes[0], "still recording this store in the background") {
		t.Fatalf("notes %q", notes)
	}
	if m, _ := j.latest(); m != nil {
		t.Errorf("a snapshot was taken beside the background run: %s", m.ID)
	}
}

// TestBackgroundKilled: a background run killed (SIGKILL) in the middle
// of its reading leaves the journal readable and consistent; the next
// session start says it stopped, goes on, and the store is whole once a
// session start finishes it.
func TestBackgroundKilled(t *testing.T) {
	ended := inBackground(t, "background-slow", "")
	files := bigStore(200)
	f := newFixture(t, files)
	notes := slowStart(t, f, "s1", true)
	if inBackgroundSays(notes) == nil {
		t.Fatalf("notes %q", notes)
	}
	j := mustJournal(t, f)
	st := waitRunning(t, j)
	time.Sleep(300 * time.Millisecond) // into its reading (20 ms a file)
	if err := syscall.Kill(st.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := <-ended; err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("the background run ended %v, want killed", err)
	}
	assertConsistent(t, f, files)
}

// waitRunning waits until the background run says it runs.
func waitRunning(t *testing.T, j *Journal) *bgStatus {
	t.Helper()
	for range 600 {
		if st := j.readBackground(); st != nil && st.State == "running" {
			return st
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the background run never said it runs")
	return nil
}

// assertConsistent: after a background run was killed, the journal reads
// whole, the next session start reports the stop and (given time)
// finishes the snapshot, every file reads back, and prune removes
// nothing it needs.
func assertConsistent(t *testing.T, f *fixture, files map[string]string) {
	t.Helper()
	j := mustJournal(t, f)
	if _, bad, err := j.allManifests(); err != nil || len(bad) != 0 {
		t.Fatalf("manifests after the kill: %v unreadable, %v", bad, err)
	}
	notes, err := SessionStart(context.Background(), HookRequest{Store: f.store, DataDir: f.data, Session: "s2", Now: f.clk.now, Background: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(notes, " "), "stopped before it finished") {
		t.Errorf("the next note does not say the background run stopped: %q", notes)
	}
	m, _ := mustJournal(t, f).latest()
	if m == nil || m.Partial || len(m.Files) != len(files) {
		t.Fatalf("after the next session start the newest snapshot is %+v", m)
	}
	later := time.Now().Add(2 * time.Hour)
	if _, err := RunPrune(context.Background(), PruneRequest{Store: f.store, DataDir: f.data, Now: func() time.Time { return later }}); err != nil {
		t.Fatal(err)
	}
	j = mustJournal(t, f)
	for _, fl := range m.Files {
		if got, err := j.object(fl.Digest); err != nil || string(got) != files[fl.Path] {
			t.Errorf("%s after the kill and a prune: %q, %v", fl.Path, got, err)
		}
	}
}

// TestTortureKillBackground: a background run killed at each crash point
// of its snapshot (its pack written, its objects durable before the
// manifest is named) leaves the journal consistent.
func TestTortureKillBackground(t *testing.T) {
	needCrashPoints(t)
	for _, step := range []string{"journal.pack-written", "journal.objects-written"} {
		t.Run(step, func(t *testing.T) {
			ended := inBackground(t, "background", step)
			files := bigStore(200)
			f := newFixture(t, files)
			notes := slowStart(t, f, "s1", true)
			if inBackgroundSays(notes) == nil {
				t.Fatalf("notes %q", notes)
			}
			if err := <-ended; err == nil || !strings.Contains(err.Error(), "killed") {
				t.Fatalf("the background run ended %v, want killed at %s", err, step)
			}
			assertConsistent(t, f, files)
		})
	}
}

// TestBackgroundNotes pins what the note says of each way a background
// run can be found, counted or not.
func TestBackgroundNotes(t *testing.T) {
	now := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		st   bgStatus
		want string
	}{
		{bgStatus{State: "running", PID: os.Getpid(), Started: now.Add(-90 * time.Second), Files: 900, Total: 1000}, "the journal is still recording this store in the background (900 of its 1000 files were left when it began, 1m30s ago); until it finishes, a file not yet recorded cannot be undone"},
		{bgStatus{State: "starting", Started: now.Add(-time.Second), Files: -1}, "the journal is still recording this store in the background (1s ago); until it finishes, a file not yet recorded cannot be undone"},
		{bgStatus{State: "finished", Total: 1000, Snapshot: "20261204T120000.000000000Z-abcdef"}, "the journal finished recording this store in the background (1000 files, snapshot 20261204T120000.000000000Z-abcdef): every file can now be undone"},
		{bgStatus{State: "failed", Files: 900, Total: 1000, Error: "disk full"}, "the journal's background recording of 900 files stopped before it finished (disk full); this session start went on from where it stopped"},
		{bgStatus{State: "running", PID: -5, Started: now, Files: -1}, "the journal's background recording of this store's files stopped before it finished (its process is gone: killed, or the machine stopped); this session start went on from where it stopped"},
		{bgStatus{State: "starting", Started: now.Add(-2 * time.Minute), Files: 5, Total: 9}, "the journal's background recording of 5 files stopped before it finished (its process is gone: killed, or the machine stopped); this session start went on from where it stopped"},
	} {
		if got := backgroundNote(&c.st, now); got != c.want {
			t.Errorf("%+v:\n got %s\nwant %s", c.st, got, c.want)
		}
	}
	for _, c := range []struct {
		done, total, left int
		want              string
	}{
		{120, 1000, 880, "the journal has recorded 120 of this store's 1000 files so far and is journaling 880 files in the background (a store this large cannot be read within the hook's time); until that finishes, a file not yet recorded cannot be undone"},
		{-1, 1000, 1000, "the journal is journaling 1000 files in the background (a store this large cannot be read within the hook's time); until that finishes, no file of it can be undone"},
		{-1, 0, -1, "the journal is journaling this store's files in the background (a store this large cannot be read within the hook's time); until that finishes, no file of it can be undone"},
	} {
		if got := inBackgroundNote(c.done, c.total, c.left); got != c.want {
			t.Errorf("%d/%d/%d:\n got %s\nwant %s", c.done, c.total, c.left, got, c.want)
		}
	}
}

// settle flushes every write to the disk: a benchmark's store was written
// long before the session start it measures, not a moment before (the
// first fsync after writing 100,000 files waits for all of them).
func settle() { syscall.Sync() }
