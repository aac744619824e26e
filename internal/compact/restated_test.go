package compact

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/summarize"
	"github.com/memcompact/memcompact/internal/testshared"
)

// TestRestatedFactsFoldOnce: a German people file restates its people's
// facts entry after entry; compacted, then saved into until its year
// folds again, the year's "Kept:" list holds each fact once (the earlier
// block's list and the entries folded now used to be joined with every
// repeat), and a date with a period ("am 14. März") keeps its month (it
// was split off as a sentence of its own and lost).
func TestRestatedFactsFoldOnce(t *testing.T) {
	facts := []string{
		"Omar ist allergisch gegen Erdnüsse und trägt einen EpiPen.",
		"Lena hat zwei Kinder, Mia und Jonas.",
		"Priya ist Teamleiterin im Berliner Büro.",
		"Aiko hat am 14. März Geburtstag.",
	}
	var b strings.Builder
	b.WriteString("# Leute\n\n")
	for d := 1; d <= 40; d++ {
		fmt.Fprintf(&b, "## 2025-%02d-%02d 10:00 — Notiz %d\n- %s\n- Danke an alle, gutes Treffen!\n\n", d%12+1, d%27+1, d, facts[d%len(facts)])
	}
	root := testshared.Tree(t, map[string]string{
		budget.PolicyRel: "| File | Budget | Newest tier | Notes |\n|---|---|---|---|\n| people.md | 40 lines | last 5 entries | n |\n",
		"people.md":      b.String(),
	})
	path := filepath.Join(root, "people.md")
	at := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	for i := 0; i < 20; i++ {
		entry := fmt.Sprintf("## 2026-01-%02d 10:00 — Neu %d\n- %s\n- Danke an alle!\n", i+1, i, facts[i%len(facts)])
		if _, err := Save(context.Background(), SaveRequest{Root: root, File: path, Entry: []byte(entry), EntryName: "the entry",
			Timeout: summarize.DefaultTimeout, Confirmed: true, Today: at, Now: at.Add(time.Duration(i) * time.Minute)}); err != nil {
			t.Fatalf("save %d: %v", i, err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var year string
	for _, l := range strings.Split(string(got), "\n") {
		if strings.HasPrefix(l, "- 2025 — ") {
			year = l
		}
	}
	if year == "" {
		t.Fatalf("no 2025 line in:\n%s", got)
	}
	for _, f := range facts {
		if n := strings.Count(year, f); n != 1 {
			t.Errorf("%q is %d times on the year's line, want once:\n%s", f, n, year)
		}
	}
	if strings.Count(year, "März") != strings.Count(year, "am 14. März") {
		t.Errorf("a date lost its day or its subject on the year's line:\n%s", year)
	}
}
