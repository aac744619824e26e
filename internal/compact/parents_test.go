package compact

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/memcompact/memcompact/internal/summarize"
)

// people is a people list: each person an entry, attributes nested.
const people = `# People

## People

- **Anna Schmidt** — colleague, Berlin office
  - Allergic to nuts.
  - Prefers email over Slack.
- **Ben Okafor** — neighbour
  - Vegetarian and cooks a lot.
  - 2026-01-08: came back from parental leave
- **Chen Wei** — manager
  - Has two kids.
  - Runs marathons every spring.
- **Dana Levi** — friend from university
  - Runs marathons every spring.
  - 2026-01-14: got promoted
- **Emil Novak** — contractor
  - Has two kids.
`

// scripted is a model that gives its answers in turn and records every
// request it was sent.
type scripted struct {
	mu      sync.Mutex
	answers []string
	sent    []string
}

func (m *scripted) Complete(_ context.Context, turns []summarize.Turn) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sent = append(m.sent, turns[len(turns)-1].Text)
	a := m.answers[0]
	if len(m.answers) > 1 {
		m.answers = m.answers[1:]
	}
	return a, nil
}

func (m *scripted) Name() string { return "scripted" }

const (
	// Chen is given Anna's allergy and Ben's return from leave.
	wrongBullets = "- **Anna Schmidt** — colleague, Berlin office. Prefers email over Slack.\n" +
		"- **Ben Okafor** — neighbour; vegetarian and cooks a lot.\n" +
		"- **Chen Wei** — manager; has two kids; allergic to nuts; 2026-01-08: came back from parental leave.\n"
	rightBullets = "- **Anna Schmidt** — colleague, Berlin office. Allergic to nuts. Prefers email over Slack.\n" +
		"- **Ben Okafor** — neighbour. Vegetarian and cooks a lot. 2026-01-08: came back from parental leave.\n" +
		"- **Chen Wei** and **Dana Levi**: run marathons every spring; Chen Wei has two kids.\n"
)

func peoplePlan(t *testing.T, o func(*Options)) *Plan {
	t.Helper()
	root := setup(t, "main/people.md", people)
	op := opts(root, "main/people.md", 20, 2)
	op.Explicit = true
	o(&op)
	return Prepare(context.Background(), op)
}

// TestModelMisplacedRepaired: a model that puts one person's attribute
// under another is told so, by name, in the repair round; its corrected
// bullets are used.
func TestModelMisplacedRepaired(t *testing.T) {
	// The model is given Anna's and Ben's entries only: a bullet about
	// Chen and Dana would be grounded in no entry it was given.
	right := strings.Join(strings.SplitAfter(rightBullets, "\n")[:2], "")
	m := &scripted{answers: []string{wrongBullets, right}}
	pl := peoplePlan(t, func(o *Options) { o.Model = m })
	if len(m.sent) != 2 {
		t.Fatalf("%d requests, want 2: %s", len(m.sent), pl.Report.Message)
	}
	repair := m.sent[1]
	for _, want := range []string{"under the wrong parent", `"Allergic to nuts." is under Chen Wei in the bullets, but in the file it belongs to Anna Schmidt`, `came back from parental leave" is under Chen Wei`} {
		if !strings.Contains(repair, want) {
			t.Errorf("the repair request does not say %q:\n%s", want, repair)
		}
	}
	if pl.Report.Status != StatusCompacted || !strings.Contains(pl.Report.Block, "Anna Schmidt** — colleague, Berlin office. Allergic to nuts.") {
		t.Fatalf("%s: %s\n%s", pl.Report.Status, pl.Report.Message, pl.Report.Block)
	}
}

// TestModelMisplacedAborts: still misplaced after the repair round, the
// compaction aborts naming the statement; nothing can be appended to mend
// a wrong attribution.
func TestModelMisplacedAborts(t *testing.T) {
	m := &scripted{answers: []string{wrongBullets}}
	pl := peoplePlan(t, func(o *Options) { o.Model = m })
	if pl.Report.Status != StatusAborted || !strings.Contains(pl.Report.Message, "wrong parent") || !strings.Contains(pl.Report.Message, "Allergic to nuts.") {
		t.Fatalf("%s: %s", pl.Report.Status, pl.Report.Message)
	}
}

// TestSummaryMisplaced: an agent's summary (compact --summary, MCP
// compact_apply) gets the same check from verification.
func TestSummaryMisplaced(t *testing.T) {
	pl := peoplePlan(t, func(o *Options) {
		o.Summary = strings.Split(strings.TrimSpace(strings.ReplaceAll(wrongBullets, "- **", "**")), "\n")
	})
	// Refused either way: the allergy under the wrong person is also a
	// priority fact missing from its own person, which is checked first.
	if pl.Report.Status != StatusAborted || (len(pl.Report.Misplaced) != 2 || !strings.Contains(pl.Report.Message, "under the wrong parent")) && !strings.Contains(pl.Report.Message, "Allergic to nuts.") {
		t.Fatalf("%s %q: %s", pl.Report.Status, pl.Report.Misplaced, pl.Report.Message)
	}
	ok := strings.Split(strings.TrimSpace(strings.ReplaceAll(rightBullets, "- **", "**")), "\n")
	if pl := peoplePlan(t, func(o *Options) { o.Summary = ok }); len(pl.Report.Misplaced) != 0 || pl.Report.Status != StatusCompacted {
		t.Fatalf("right bullets: %s %q: %s", pl.Report.Status, pl.Report.Misplaced, pl.Report.Message)
	}
}

func TestSubjectOf(t *testing.T) {
	for _, tc := range []struct {
		title string
		list  bool
		want  string
	}{
		{"- **Anna Schmidt** — colleague, Berlin office", true, "Anna Schmidt"},
		{"Ben Okafor — neighbour", false, "Ben Okafor"},
		{"2026-05-02 10:00 — Module setup", false, ""},
		{"Build: how the release is cut", false, "Build"},
		{"A long title that is a sentence about many things", false, ""},
		{"田中さん（同僚）", false, "田中さん（同僚）"},
	} {
		if got := subjectOf(tc.title, tc.list); got != tc.want {
			t.Errorf("subjectOf(%q) = %q, want %q", tc.title, got, tc.want)
		}
	}
}
