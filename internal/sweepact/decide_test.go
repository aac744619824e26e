package sweepact

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/outcome"
)

// TestDecideRefusesWhatItCannotTrust: a decision that names no subject,
// says nonsense or contradicts another for the same subject is refused as
// the request's own error (usage), and the plan file is left as it was;
// the same decision given twice is one decision.
func TestDecideRefusesWhatItCannotTrust(t *testing.T) {
	const asOf = "2026-12-02"
	_, planPath, pl := plannedCopy(t, "davidtleess__dg-cockpit", asOf)
	before, _ := os.ReadFile(planPath)
	id := pl.Subjects[0].Identity
	tests := []struct {
		name string
		ds   []Decision
		want string // "" accepted
	}{
		{"unknown subject", []Decision{{Identity: "nobody@unknown", Decision: Accepted}}, "'nobody@unknown' is not a subject of the plan"},
		{"not a decision", []Decision{{Identity: id, Decision: "maybe"}}, `decision is accepted or rejected; found "maybe"`},
		{"unknown disposition", []Decision{{Identity: id, Decision: Accepted, Disposition: "yeet"}}, `unknown disposition "yeet"`},
		{"contradiction", []Decision{{Identity: id, Decision: Accepted}, {Identity: id, Decision: Rejected}}, "is decided twice, differently (accepted, then rejected)"},
		{"contradiction in disposition", []Decision{{Identity: id, Decision: Accepted, Disposition: "keep"}, {Identity: id, Decision: Accepted, Disposition: "demote"}},
			"(accepted as keep, then accepted as demote)"},
		{"the same twice", []Decision{{Identity: id, Decision: Rejected}, {Identity: id, Decision: Rejected}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := RunApply(context.Background(), ApplyRequest{PlanPath: planPath, Decisions: tt.ds, Yes: true, DryRun: true, AsOf: date(t, asOf)})
			if tt.want == "" {
				if outcome.StatusOf(err) == outcome.Usage {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if outcome.StatusOf(err) != outcome.Usage || outcome.ReasonOf(err) != ReasonBadArg || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v (status %v); want a usage error holding %q", err, outcome.StatusOf(err), tt.want)
			}
			if after, _ := os.ReadFile(planPath); string(after) != string(before) {
				t.Error("a refused decision changed the plan file")
			}
		})
	}
}
