package sweepact

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/outcome"
)

// TestRunPlanFile: the plan lands in its default file or in Out, Record
// appends one proposed row per move (and nothing without it), an
// unwritable plan file is refused naming the file, and a missing index
// refuses before anything is written.
func TestRunPlanFile(t *testing.T) {
	tests := []struct {
		name   string
		out    string // relative to the store; "" for the default
		record bool
		block  bool // a file stands where the plan's folder would be
		noIx   bool
		reason outcome.Reason
	}{
		{name: "default file"},
		{name: "out", out: "elsewhere/plan.json"},
		{name: "record", record: true},
		{name: "unwritable", out: "blocked/plan.json", block: true, reason: ReasonWrite},
		{name: "no index", noIx: true, reason: ReasonNoIndex},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := fixtureStore(t)
			ix := filepath.Join(dir, "MEMORY.md")
			if tt.noIx {
				ix = filepath.Join(dir, "NONE.md")
			}
			if tt.block {
				if err := os.WriteFile(filepath.Join(dir, "blocked"), []byte("x"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			ledger, _ := os.ReadFile(filepath.Join(dir, "LEDGER.md"))
			req := PlanFileRequest{PlanRequest: PlanRequest{Index: ix, AsOf: date(t, "2026-08-08")}, Record: tt.record}
			want := filepath.Join(dir, DefaultPlanRel)
			if tt.out != "" {
				req.Out = filepath.Join(dir, tt.out)
				want = req.Out
			}
			res, err := RunPlanFile(context.Background(), req)
			if outcome.ReasonOf(err) != tt.reason || (err == nil) != (tt.reason == "") {
				t.Fatalf("err %v (%q); want reason %q", err, outcome.ReasonOf(err), tt.reason)
			}
			after, _ := os.ReadFile(filepath.Join(dir, "LEDGER.md"))
			added := strings.Count(string(after), "\n") - strings.Count(string(ledger), "\n")
			if err != nil {
				if res != nil || added != 0 {
					t.Errorf("refused, yet result %+v and %d ledger line(s) added", res, added)
				}
				if tt.reason == ReasonWrite && !strings.HasPrefix(err.Error(), want+": the plan could not be written: ") {
					t.Errorf("the refusal does not name the plan file: %v", err)
				}
				return
			}
			if res.Path != want {
				t.Errorf("Path %s, want %s", res.Path, want)
			}
			if back, err := ReadPlan(want); err != nil || back.IndexSHA256 != res.Plan.IndexSHA256 {
				t.Errorf("the plan file does not read back as the plan: %v", err)
			}
			moves := 0
			for _, s := range res.Plan.Subjects {
				if s.Disposition != Keep && s.Disposition != Complete && s.Decision != Rejected {
					moves++
				}
			}
			if !tt.record {
				moves = 0
			}
			if res.Recorded != moves || added != moves {
				t.Errorf("Recorded %d, ledger +%d lines; want %d", res.Recorded, added, moves)
			}
		})
	}
}
