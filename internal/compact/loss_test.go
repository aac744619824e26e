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
