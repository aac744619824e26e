package compact

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/summarize"
	"github.com/memcompact/memcompact/internal/testshared"
)

// peopleDiary is a people file over its budget: its oldest tier holds a
// health fact, two people's attributes, a decision and an observation.
const peopleDiary = "# People\n\n" +
	"## 2025-01-17 10:00 — Omar\n\nOmar is allergic to peanuts and carries an EpiPen.\n\n" +
	"## 2025-01-18 10:00 — Omar's family\n\nOmar has two kids, Sami and Noor.\n\n" +
	"## 2025-01-20 09:00 — Lena\n\nLena's birthday is on 14 March; she turns 41.\n\n" +
	"## 2025-01-22 09:00 — Visits\n\nWe decided to meet Omar on Thursdays.\n\n" +
	"## 2025-01-25 09:00 — Cafe\n\nThe cafe on Elm Street was closed for repairs.\n\n" +
	"## 2025-02-01 09:00 — Note 6\n\nLena moved to the platform team.\n\n" +
	"## 2025-02-02 09:00 — Note 7\n\nOmar now works from Leeds.\n\n" +
	"## 2025-02-03 09:00 — Note 8\n\nLena's phone is in the shared vault.\n\n" +
	"## 2025-02-04 09:00 — Note 9\n\nThe cafe reopened.\n\n" +
	"## 2025-02-05 09:00 — Note 10\n\nThe cafe has a new menu.\n\n" +
	"## 2025-02-06 09:00 — Note 11\n\nThe cafe now opens at 8.\n\n" +
	"## 2025-02-07 09:00 — Note 12\n\nThe cafe closes at 18.\n"

const peoplePolicy = "| File | Budget | Newest tier | Notes |\n|---|---|---|---|\n| people.md | 40 lines | last 3 entries | n |\n"

// TestDeclaredDrops: an agent's summary must carry every priority fact of
// the tier (health, a person's attributes, a decision in force) or declare
// it dropped in a "Dropped:" bullet. A silent drop is refused with the
// file unchanged; a declared one is written, counted and named in the
// report, and the block names it with the snapshot that holds its text.
func TestDeclaredDrops(t *testing.T) {
	all := "- 2025-01-17: Omar is allergic to peanuts and carries an EpiPen.\n- 2025-01-18: Omar has two kids, Sami and Noor.\n" +
		"- 2025-01-20: Lena's birthday is on 14 March; she turns 41.\n- 2025-01-22: We decided to meet Omar on Thursdays.\n"
	tests := []struct {
		name, summary string
		ok            bool
		dropped       int
		fault         string
	}{
		{"every fact kept", all, true, 0, ""},
		{"observation left out", all, true, 0, ""},
		{"allergy dropped silently", strings.Replace(all, "- 2025-01-17: Omar is allergic to peanuts and carries an EpiPen.\n", "", 1), false, 0, "Omar is allergic to peanuts"},
		{"kids dropped silently", strings.Replace(all, "- 2025-01-18: Omar has two kids, Sami and Noor.\n", "", 1), false, 0, "Omar has two kids"},
		{"decision dropped silently", strings.Replace(all, "- 2025-01-22: We decided to meet Omar on Thursdays.\n", "", 1), false, 0, "We decided to meet Omar"},
		{"allergy declared dropped", strings.Replace(all, "- 2025-01-17: Omar is allergic to peanuts and carries an EpiPen.\n", "", 1) + "- Dropped: 2025-01-17 Omar's peanut allergy (EpiPen)\n", true, 1, ""},
		{"two declared, bold", "- Omar is allergic to peanuts and carries an EpiPen.\n- **Dropped:** Omar's two kids\n- Dropped: Lena's birthday, 14 March\n- We decided to meet Omar on Thursdays.\n", true, 2, ""},
		{"invented drop", all + "- Dropped: Karim's shellfish intolerance\n", false, 0, "declares dropped"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := testshared.Tree(t, map[string]string{budget.PolicyRel: peoplePolicy, "people.md": peopleDiary})
			req := Request{Root: root, Files: []string{filepath.Join(root, "people.md")}, Timeout: summarize.DefaultTimeout,
				Confirmed: true, Today: today, Now: now, Summary: &Summary{Name: "agent", Text: tc.summary}}
			res, err := Run(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			rep := res.Files[0]
			got, _ := os.ReadFile(filepath.Join(root, "people.md"))
			if !tc.ok {
				// A priority fact that is also a must-keep statement is
				// refused as lost (lost_must_keep) before its meaning is
				// read; either refusal names it.
				named := strings.Join(append(append([]string(nil), rep.Unfaithful...), rep.LostKeep...), "\n") + rep.Message
				if rep.Status != StatusAborted || string(got) != peopleDiary || !strings.Contains(named, tc.fault) {
					t.Fatalf("status %s, faults %q, lost %q; want aborted naming %q, file unchanged", rep.Status, rep.Unfaithful, rep.LostKeep, tc.fault)
				}
				return
			}
			if rep.Status != StatusCompacted {
				t.Fatalf("status %s: %s (%q)", rep.Status, rep.Message, rep.Unfaithful)
			}
			if len(rep.DeclaredDropped) != tc.dropped {
				t.Errorf("declared dropped %q, want %d", rep.DeclaredDropped, tc.dropped)
			}
			if tc.dropped > 0 {
				line := "Dropped by the summarizer (" + string(rune('0'+tc.dropped)) + ", full text in " + rep.Snapshot + "): "
				if !strings.Contains(string(got), line) || !strings.Contains(rep.Message, "declared dropped") {
					t.Errorf("the block or the message does not name the drops and their snapshot:\n%s\n%s", got, rep.Message)
				}
				snap, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(rep.Snapshot)))
				if !strings.Contains(string(snap), "Omar is allergic to peanuts") && tc.name == "allergy declared dropped" {
					t.Errorf("the snapshot does not hold the dropped text")
				}
				if strings.Contains(string(got), "- Dropped:") {
					t.Errorf("a declaration was written as a statement:\n%s", got)
				}
			}
		})
	}
}
