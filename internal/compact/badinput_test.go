package compact

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/budget"
)

// TestBadInputTiers: a tier of only chatter, only code, a people file with
// no dates, and a dated duplicate written with a full-width colon — each
// gives a clear result: compacted with nothing lost (every non-chatter
// line still in the file or the snapshot, every code block whole), or a
// clear refusal; never a bent or vanished fact.
func TestBadInputTiers(t *testing.T) {
	chatter := "# Diary\n\n"
	for i := 1; i <= 8; i++ {
		chatter += "## 2026-01-0" + itoa(i) + " 10:00 — Chat " + itoa(i) + "\nThanks, good session!\n\nDanke, gutes Gespräch!\n\n谢谢，聊得很开心！\n\n"
	}
	code := "# Snippets\n\n"
	for i := 1; i <= 8; i++ {
		code += "## 2026-01-0" + itoa(i) + " 10:00 — Snippet " + itoa(i) + "\n```sh\nmake job-" + itoa(i) + "\n  --verbose\n```\n\n"
	}
	people := "# People\n\n"
	for _, p := range [][2]string{{"Omar Haddad-Ortega", "Allergic to peanuts; carries an EpiPen."}, {"Mia Chen", "Likes tea."}, {"Jonas Berg", "Has asthma; inhaler in his bag."}, {"Aiko Sato", "Likes hiking."}, {"Lena Vogel", "Vegetarian."}, {"Priya Nair", "Likes jazz."}} {
		people += "## " + p[0] + "\n- " + p[1] + "\n- Works on the platform team.\n\n"
	}
	colon := "# Prefs\n\n## Preferences\n\n- 2026-01-03: Prefers tabs in Go files.\n- 2026-01-04: Uses ripgrep for search.\n- 2026-02-07：Prefers tabs in Go files.\n- 2026-01-04: Uses ripgrep for search.\n- 2026-02-07: Uses ripgrep for search.\n"
	for i := 10; i <= 22; i++ {
		colon += "- 2026-03-" + itoa(i) + "： Prefers tabs in Go files.\n"
	}
	colon += "- 2026-04-01: Reviews on Fridays.\n- 2026-04-02: Writes tests first.\n- 2026-04-03: Ships on Tuesdays.\n"
	for _, tc := range []struct {
		name, text string
		budget     int
		unit       budget.Unit
		keep       []string // must be in the live file after
		gone       []string // must not be in the block
	}{
		{name: "only chatter", text: chatter, budget: 25, unit: budget.Lines, gone: []string{"Thanks, good session!", "Danke", "谢谢", "Chat 1"}},
		{name: "only code", text: code, budget: 1000, unit: budget.Lines, keep: []string{"```sh\n  make job-1\n    --verbose\n  ```"}},
		{name: "people without dates", text: people, budget: 20, unit: budget.Lines, keep: []string{"Omar Haddad-Ortega", "Allergic to peanuts; carries an EpiPen.", "Jonas Berg", "Has asthma; inhaler in his bag.", "Mia Chen", "Aiko Sato"}},
		{name: "full-width colon duplicate", text: colon, budget: 1000, unit: budget.Lines, keep: []string{"2026-01-03, 2026-02-07, 2026-03-10, ", ": Prefers tabs in Go files.", "2026-01-04, 2026-02-07: Uses ripgrep for search."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := setup(t, "f.md", tc.text)
			o := opts(root, "f.md", tc.budget, 2)
			o.Row.Unit, o.Explicit = tc.unit, true
			pl := Prepare(context.Background(), o)
			if pl.Report.Status != StatusCompacted {
				t.Fatalf("%s: %s", pl.Report.Status, pl.Report.Message)
			}
			if err := pl.Write(); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(filepath.Join(root, "f.md"))
			s := string(got)
			if n, was := budget.Measure(s, tc.unit), budget.Measure(tc.text, tc.unit); n > was {
				t.Errorf("the file grew: %d -> %d %s\n%s", was, n, tc.unit, s)
			}
			for _, k := range tc.keep {
				if !strings.Contains(s, k) {
					t.Errorf("lost %q:\n%s", k, s)
				}
			}
			block := s
			if i := strings.Index(s, "## Compacted History"); i >= 0 {
				block = s[i+3:]
				if j := strings.Index(block, "\n## "); j >= 0 {
					block = block[:j]
				}
			}
			for _, g := range tc.gone {
				if strings.Contains(block, g) {
					t.Errorf("chatter %q left in the block:\n%s", g, block)
				}
			}
			checkRewrite(t, tc.name, tc.text, s, root, "", mustKeepOf(pl))
		})
	}
}
