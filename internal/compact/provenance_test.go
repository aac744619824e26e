package compact

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestProvenanceThreeRounds: after three compactions the block names all
// three snapshots, and every original line of every round is in the file
// or in one of them.
func TestProvenanceThreeRounds(t *testing.T) {
	text := diary(12, "\n")
	root := setup(t, "topics/tools.md", text)
	var names []string
	for i := 0; i < 3; i++ {
		o := opts(root, "topics/tools.md", 1000, 6-2*i)
		o.Explicit = true
		o.Now = now.Add(time.Duration(i) * time.Second)
		pl := Prepare(context.Background(), o)
		if pl.Report.Status != StatusCompacted {
			t.Fatalf("round %d: %s", i+1, pl.Report.Message)
		}
		if err := pl.Write(); err != nil {
			t.Fatal(err)
		}
		names = append(names, pl.Report.Snapshot)
	}
	got, _ := os.ReadFile(filepath.Join(root, "topics/tools.md"))
	prov := ""
	for _, l := range strings.Split(string(got), "\n") {
		if strings.HasPrefix(l, "*Distilled from") {
			prov = l
		}
	}
	if want := "Full detail in " + strings.Join(names, ", ") + ".*"; !strings.HasSuffix(prov, want) {
		t.Errorf("provenance %q, want it to end %q", prov, want)
	}
	checkRewrite(t, "three rounds", text, string(got), root, "", nil)
}

// TestRepeatAcrossRounds: a list file with one section; a second round
// whose new items repeat a bullet of the first round's block merges the
// repeat into that bullet (both dates), and every original line is still
// in the file or a snapshot it names. A file with two sections does not
// merge (the block's bullets could have come from either).
func TestRepeatAcrossRounds(t *testing.T) {
	for _, tc := range []struct {
		name, other string
		merged      bool
	}{{"one section", "", true}, {"two sections", "### Tools\n\n- 2026-01-02: Uses make.\n- 2026-01-09: Builds with Go 1.26.\n\n", false}} {
		t.Run(tc.name, func(t *testing.T) {
			// Each item carries a filler line, so that distilling makes
			// the file smaller (a file within budget is never made larger).
			first := "# Prefs\n\n" + tc.other + "## Preferences\n\n- 2026-01-03: Builds with Go 1.26.\n  - ok\n  - n/a\n- 2026-01-04: Lives in Berlin.\n  - ok\n  - n/a\n- 2026-01-05: Works remotely.\n  - ok\n  - n/a\n- 2026-01-06: Has a cat.\n"
			root := setup(t, "main/prefs.md", first)
			round := func(i, budget int) string {
				o := opts(root, "main/prefs.md", budget, 2)
				o.Explicit, o.Now = true, now.Add(time.Duration(i)*time.Second)
				pl := Prepare(context.Background(), o)
				if pl.Report.Status != StatusCompacted {
					t.Fatalf("round %d: %s", i, pl.Report.Message)
				}
				if err := pl.Write(); err != nil {
					t.Fatal(err)
				}
				got, _ := os.ReadFile(filepath.Join(root, "main/prefs.md"))
				return string(got)
			}
			after1 := round(1, 1000)
			if !strings.Contains(after1, "- 2026-01-03: Builds with Go 1.26.\n") {
				t.Fatalf("round 1:\n%s", after1)
			}
			second := after1 + "- 2026-02-07: Builds with Go 1.26.\n  - ok\n  - n/a\n- 2026-02-08: Reads a lot.\n  - ok\n  - n/a\n- 2026-02-09: Swims.\n  - ok\n  - n/a\n- 2026-02-10: Runs.\n  - ok\n  - n/a\n"
			os.WriteFile(filepath.Join(root, "main/prefs.md"), []byte(second), 0o644)
			after2 := round(2, 1000)
			n := strings.Count(after2, "Builds with Go 1.26.")
			if merged := strings.Contains(after2, "- 2026-01-03, 2026-02-07: Builds with Go 1.26.\n") && n == 1; merged != tc.merged {
				t.Errorf("merged %v (%d times), want %v:\n%s", merged, n, tc.merged, after2)
			}
			checkRewrite(t, tc.name, first, after2, root, "", nil)
			checkRewrite(t, tc.name, second, after2, root, "", nil)
		})
	}
}

// TestMergeNotes: the periods a round merged are named with the longer
// period and the snapshot that holds their lines; a catalogue keeps the
// notes of earlier rounds.
func TestMergeNotes(t *testing.T) {
	old := periods([]string{"- 2026-01 — 3 entries: A; B; C.", "- 2026-02 — 1 entry: D.", "- 2026-01-03 09:00 — Omar: allergic.", "- 2025-Q4 — 2 entries: E; F.", "- 2026-04 — 1 entry: G."})
	now := periods([]string{"2026-Q1 — 4 entries: A; B; C; D.", "2025 — 2 entries.", "2026-04 — 1 entry: G."})
	got := mergeNotes(old, now, "2026-12-04", "compaction/snapshots/t-2026-12-04.md")
	want := []string{
		"- 2026-12-04: 2026-01, 2026-02 merged into 2026-Q1; the lines as they were are in compaction/snapshots/t-2026-12-04.md",
		"- 2026-12-04: 2025-Q4 merged into 2025; the lines as they were are in compaction/snapshots/t-2026-12-04.md",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	text := catalogueText("t.md", []string{"compaction/snapshots/t-2026-12-04.md"}, got)
	if back := mergedLines(text); strings.Join(back, "\n") != strings.Join(want, "\n") {
		t.Errorf("mergedLines read back %q", back)
	}
	if l := readCatalogue(text); len(l) != 1 || l[0] != "compaction/snapshots/t-2026-12-04.md" {
		t.Errorf("the catalogue's snapshots read back as %q", l)
	}
}
