package doctor

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func writeStore(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "MEMORY.md")
}

func TestSessionNote(t *testing.T) {
	today := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)

	// Healthy: no note at all.
	ix := writeStore(t, map[string]string{
		"MEMORY.md":        "# Memory\n\n## Feedback\n- [Run tests with race](feedback_race.md) — always pass -race\n",
		"feedback_race.md": "x\n",
	})
	if note := SessionNote(Diagnose(Options{Index: ix, Today: today, Quick: true})); note != "" {
		t.Fatalf("healthy store got a note: %q", note)
	}

	// 203 pointer lines: the last ones are past the 200-line cut, and the
	// note names them, nearest the cut first, and says where to read on.
	var b strings.Builder
	b.WriteString("# Memory\n\n## Feedback\n")
	files := map[string]string{}
	for i := 1; i <= 200; i++ {
		fmt.Fprintf(&b, "- [Lesson %d](feedback_l%d.md) — what lesson %d teaches\n", i, i, i)
		files[fmt.Sprintf("feedback_l%d.md", i)] = "x\n"
	}
	files["MEMORY.md"] = b.String()
	ix = writeStore(t, files)
	r := Diagnose(Options{Index: ix, Today: today, Quick: true})
	note := SessionNote(r)
	for _, want := range []string{
		"needs attention:",
		"everything from line 201 on was NOT loaded into this session, including 3 entries: feedback_l198.md (line 201), feedback_l199.md (line 202), feedback_l200.md (line 203)",
		"Read " + ix + " from line 201",
	} {
		if !strings.Contains(note, want) {
			t.Errorf("note lacks %q:\n%s", want, note)
		}
	}
	if r.CheckResult != "skipped" {
		t.Errorf("quick mode ran the strict check: %s", r.CheckResult)
	}
}

// TestSessionNoteLeadsWithTheJournal: the journal's lines (a deletion
// since the last session) come before the diagnosis's, above all the
// long load-cut bullet; alone they make a note too.
func TestSessionNoteLeadsWithTheJournal(t *testing.T) {
	r := &Report{Result: "problems", Store: "/m", Index: "/m/MEMORY.md"}
	r.Load.Cut, r.Load.FirstCutLine = true, 201
	note := SessionNoteWith(r, "/m", []string{"since the last session 3 entries were deleted"})
	del, cut := strings.Index(note, "since the last session"), strings.Index(note, "longer than Claude Code loads")
	if del < 0 || cut < 0 || del > cut {
		t.Errorf("note %q: want the deletion before the load cut", note)
	}
	if got := SessionNoteWith(nil, "/m", []string{"x"}); got != "memcompact: this project's memory store (/m): x" {
		t.Errorf("journal line alone: %q", got)
	}
	if got := SessionNoteWith(&Report{Result: "healthy"}, "/m", nil); got != "" {
		t.Errorf("nothing to say: %q", got)
	}
}

// TestMostOfIsMost: mostOf, which formats only the items it lists, lists
// what most lists of every item formatted.
func TestMostOfIsMost(t *testing.T) {
	for total := 0; total <= 9; total++ {
		all := make([]string, total)
		for i := range all {
			all[i] = fmt.Sprintf("item %d", i)
		}
		for n := 1; n <= 6; n++ {
			got := mostOf(total, n, func(i int) string { return fmt.Sprintf("item %d", i) })
			if want := most(append([]string(nil), all...), n); !slices.Equal(got, want) {
				t.Errorf("mostOf(%d, %d) = %q, most = %q", total, n, got, want)
			}
		}
	}
}
