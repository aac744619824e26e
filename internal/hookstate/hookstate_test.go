package hookstate

import (
	"os"
	"strings"
	"testing"
	"time"
)

// TestRecordAndReport: failures are read back in order; a reported mark
// hides what came before it from Unreported but not from Since; a line
// that is not an event is skipped; the record keeps its last MaxEvents.
func TestRecordAndReport(t *testing.T) {
	dir := t.TempDir() + "/data"
	t0 := time.Date(2026, 12, 4, 10, 0, 0, 0, time.UTC)
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	for _, e := range []Event{
		{At: at(0), Hook: "pre-write", Failure: "internal error (x); denied"},
		{At: at(1), Hook: "session-start", Reported: true},
		{At: at(2), Hook: "pre-write", Session: "s", GuardOff: true},
		{At: at(3), Hook: "session-start", Failure: "journal: disk full"},
	} {
		if err := Record(dir, e); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.OpenFile(Path(dir), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("not json\n")
	f.Close()
	events, err := Read(dir)
	if err != nil || len(events) != 4 {
		t.Fatalf("Read = %d events, %v", len(events), err)
	}
	fails, off := Unreported(events)
	if len(fails) != 1 || fails[0].Failure != "journal: disk full" || !off {
		t.Errorf("Unreported = %+v, %v", fails, off)
	}
	fails, off = Since(events, at(0))
	if len(fails) != 2 || !off {
		t.Errorf("Since = %+v, %v", fails, off)
	}
	if !GuardOffRecorded(events, "s") || GuardOffRecorded(events, "other") {
		t.Error("GuardOffRecorded")
	}
	for i := range MaxEvents + 5 {
		if err := Record(dir, Event{At: at(10 + i), Failure: "f"}); err != nil {
			t.Fatal(err)
		}
	}
	raw, _ := os.ReadFile(Path(dir))
	if n := strings.Count(string(raw), "\n"); n > MaxEvents+1 {
		t.Errorf("the record holds %d lines, want at most %d", n, MaxEvents+1)
	}
}

// TestReadAbsent: no record is no events and no error.
func TestReadAbsent(t *testing.T) {
	if events, err := Read(t.TempDir()); err != nil || events != nil {
		t.Fatalf("Read of an empty dir = %v, %v", events, err)
	}
}
