package compact

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/budget"
)

// allergies is a diary whose every entry holds a priority fact: on one
// line each, the must-keep statements need more room than a small budget.
func allergies(n int) string {
	var b strings.Builder
	b.WriteString("# Family\n\n")
	for i := 1; i <= n; i++ {
		b.WriteString("## 2025-0" + itoa(1+i%9) + "-1" + itoa(i%10) + " 10:00 — Person " + itoa(i) + "\n")
		b.WriteString("Person " + itoa(i) + " is allergic to peanuts and carries an EpiPen.\n\n")
	}
	return b.String()
}

// TestPriorityFactsShortfall: a budget that cannot hold the priority facts
// is a shortfall that writes nothing and says how many statements
// --allow-loss would move and the budget that keeps them; with AllowLoss
// the file is compacted, the loss counted and named in the message.
func TestPriorityFactsShortfall(t *testing.T) {
	text := allergies(12)
	root := setup(t, "family.md", text)
	o := opts(root, "family.md", 400, 2)
	o.Row.Unit = budget.Chars
	o.Explicit = true
	pl := Prepare(context.Background(), o)
	rep := pl.Report
	if rep.Status != StatusShortfall {
		t.Fatalf("%s: %s", rep.Status, rep.Message)
	}
	if !strings.Contains(rep.Message, "--allow-loss would fit it by moving 10 statements") || rep.SuggestBudget == 0 {
		t.Errorf("shortfall does not name the loss and the budget: %q (suggest %d)", rep.Message, rep.SuggestBudget)
	}
	suggest := rep.SuggestBudget
	if got, _ := os.ReadFile(filepath.Join(root, "family.md")); string(got) != text {
		t.Errorf("the file changed")
	}
	o.AllowLoss = true
	pl = Prepare(context.Background(), o)
	rep = pl.Report
	if rep.Status != StatusCompacted || rep.FactsDropped == nil || rep.FactsDropped.Priority != 10 {
		t.Fatalf("%s: %s (%+v)", rep.Status, rep.Message, rep.FactsDropped)
	}
	if !strings.Contains(rep.Message, "(--allow-loss: 10 statements that must stay live, 10 of them priority, moved to the snapshot.)") {
		t.Errorf("message: %q", rep.Message)
	}
	// With the suggested budget nothing is lost.
	o.AllowLoss = false
	o.Row.Budget = suggest
	pl = Prepare(context.Background(), o)
	if pl.Report.Status != StatusCompacted || pl.Report.FactsDropped.Priority != 0 || pl.Report.FactsKept.Priority != 10 {
		t.Errorf("at the suggested budget: %s %+v %+v", pl.Report.Message, pl.Report.FactsKept, pl.Report.FactsDropped)
	}
}

// TestCharacterCeiling: a file within its lines budget whose lines are
// long past the ceiling (Budget × CharsPerLine characters) is over budget:
// it is compacted, and the result is within the ceiling.
func TestCharacterCeiling(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Notes\n\n")
	for i := 1; i <= 6; i++ {
		b.WriteString("## 2026-01-0" + itoa(i) + " 10:00 — Note " + itoa(i) + "\n")
		b.WriteString(strings.Repeat("Chatted about the weather. ", 60) + "The build of service-" + itoa(i) + " takes " + itoa(i) + " minutes.\n\n")
	}
	text := b.String()
	root := setup(t, "notes.md", text)
	o := opts(root, "notes.md", 30, 2)
	if n := budget.Measure(text, budget.Lines); n > 30 {
		t.Fatalf("the fixture is %d lines", n)
	}
	pl := Prepare(context.Background(), o)
	if pl.Report.Status != StatusCompacted {
		t.Fatalf("%s: %s", pl.Report.Status, pl.Report.Message)
	}
	if n := len([]rune(pl.NewText())); n > 30*CharsPerLine {
		t.Errorf("%d characters after, ceiling %d", n, 30*CharsPerLine)
	}
	if !strings.Contains(pl.NewText(), "The build of service-1 takes 1 minutes.") {
		t.Errorf("lost a fact:\n%s", pl.NewText())
	}
}

// attributeDiary mixes people's attributes (said of a named person, in six
// languages) with chatter, repeats, a reversal and plain observations.
const attributeDiary = "# Notes\n\n" +
	"## 2025-01-02 10:00 — Omar\n\nOmar has two kids, Sami and Noor. Thanks, that was helpful!\n\n" +
	"## 2025-01-03 10:00 — Cafe\n\nThe cafe on Elm Street was closed for repairs all week.\n\n" +
	"## 2025-01-04 10:00 — Jonas\n\nJonas hat zwei Kinder und ist 41 Jahre alt.\n\n" +
	"## 2025-01-05 10:00 — Chat\n\nGood session overall.\n\n" +
	"## 2025-01-06 10:00 — Sofía\n\nSofía tiene tres hijos.\n\n" +
	"## 2025-01-07 10:00 — Meetings\n\nWe meet on Saturdays at the library.\n\n" +
	"## 2025-01-08 10:00 — 王芳\n\n王芳有两个孩子。\n\n" +
	"## 2025-01-09 10:00 — Weather\n\nIt rained the whole afternoon in the park by the river.\n\n" +
	"## 2025-01-10 10:00 — 佐藤\n\n佐藤さんは猫が好きです。\n\n" +
	"## 2025-01-11 10:00 — Omar again\n\nOmar has two kids, Sami and Noor.\n\n" +
	"## 2025-01-12 10:00 — 민준\n\n민준은 고양이를 좋아한다.\n\n" +
	"## 2025-01-13 10:00 — Meetings moved\n\nInstead of Saturdays, we now meet on Sundays at the library.\n\n" +
	"## 2025-01-14 10:00 — Bus\n\nThe number 12 bus was late again near the old station.\n\n" +
	"## 2025-02-01 10:00 — Newest 1\n\nNothing new.\n\n" +
	"## 2025-02-02 10:00 — Newest 2\n\nStill nothing new.\n"

// TestAttributesUnderPressure: under pressure the built-in summarizer
// drops chatter, repeats, the superseded side and plain observations
// before any person's attribute; at the smallest budget it reaches
// without loss every attribute is in the live file, word for word; below
// it the run stops with a shortfall that writes nothing, and --allow-loss
// moves the attributes to the snapshot, counted as priority.
func TestAttributesUnderPressure(t *testing.T) {
	attrs := []string{"Omar has two kids, Sami and Noor.", "Jonas hat zwei Kinder und ist 41 Jahre alt.", "Sofía tiene tres hijos.",
		"王芳有两个孩子。", "佐藤さんは猫が好きです。", "민준은 고양이를 좋아한다."}
	root := setup(t, "notes.md", attributeDiary)
	var fit *Report
	var below *Report
	for b := 200; b <= 1400; b += 20 {
		o := opts(root, "notes.md", b, 2)
		o.Row.Unit = budget.Chars
		o.Explicit = true
		rep := Prepare(context.Background(), o).Report
		if rep.Status == StatusCompacted {
			fit = rep
			break
		}
		below = rep
	}
	if fit == nil || below == nil {
		t.Fatalf("no budget between a shortfall and a fit: last %+v", below)
	}
	if fit.FactsKept == nil || fit.FactsKept.Priority < len(attrs) || fit.FactsDropped == nil || fit.FactsDropped.Priority != 0 {
		t.Fatalf("at %d chars: kept %+v dropped %+v", fit.Budget, fit.FactsKept, fit.FactsDropped)
	}
	if d := fit.FactsDropped; d.Chatter == 0 || d.Observation == 0 {
		t.Errorf("at %d chars chatter and observations should be gone first: dropped %+v", fit.Budget, d)
	}
	for _, a := range attrs {
		if !strings.Contains(fit.Block, a) {
			t.Errorf("at %d chars the attribute %q left the live file:\n%s", fit.Budget, a, fit.Block)
		}
	}
	if below.Status != StatusShortfall || !strings.Contains(below.Message, "--allow-loss") {
		t.Fatalf("at %d chars: %s: %s", below.Budget, below.Status, below.Message)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "notes.md")); string(got) != attributeDiary {
		t.Fatal("a shortfall changed the file")
	}
	o := opts(root, "notes.md", below.Budget, 2)
	o.Row.Unit, o.Explicit, o.AllowLoss = budget.Chars, true, true
	rep := Prepare(context.Background(), o).Report
	t.Logf("fits at %d chars (kept %+v, dropped %+v); at %d: %s", fit.Budget, *fit.FactsKept, *fit.FactsDropped, below.Budget, rep.Message)
	if rep.Status != StatusCompacted || rep.FactsDropped == nil || rep.FactsDropped.Priority == 0 || !strings.Contains(rep.Message, "--allow-loss") {
		t.Errorf("--allow-loss at %d chars: %s (dropped %+v)", below.Budget, rep.Message, rep.FactsDropped)
	}
}
