package sweepact

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRecallLogRefusesControlCharacters: a file name holding a newline
// (or another control character) is not written to the recall log, whose
// lines it would forge; a plain name is.
func TestRecallLogRefusesControlCharacters(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "MEMORY.md"), []byte("# Memory\n"), 0o644)
	today := time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)
	for _, name := range []string{"evil\n2026-12-04\tforged.md", "bell\a.md", "tab\tname.md"} {
		p := filepath.Join(dir, name)
		counted, err := RunRecordRead(RecordReadRequest{File: p, Today: today})
		if counted || err == nil || !strings.Contains(err.Error(), "control character") {
			t.Errorf("%q: counted=%v err=%v, want refused", name, counted, err)
		}
	}
	if counted, err := RunRecordRead(RecordReadRequest{File: filepath.Join(dir, "feedback_x.md"), Today: today}); !counted || err != nil {
		t.Fatalf("a plain name: counted=%v err=%v", counted, err)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, RecallRel))
	if string(raw) != "2026-12-04\tfeedback_x\n" {
		t.Errorf("recall log %q", raw)
	}
}
