package compact

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/summarize"
	"github.com/memcompact/memcompact/internal/testshared"
)

const runPolicy = "| File | Budget | Newest tier | Notes |\n|---|---|---|---|\n" +
	"| topics/tools.md | 120 lines | last 3 entries | n |\n| topics/small.md | 500 lines | last 3 entries | n |\n| topics/prose.md | 5 lines | last 3 entries | n |\n"

// runRoot is a memory root with an over-budget diary, one within budget
// and one without entries.
func runRoot(t *testing.T) string {
	return testshared.Tree(t, map[string]string{
		budget.PolicyRel:  runPolicy,
		"topics/tools.md": diary(10, "\n"),
		"topics/small.md": diary(2, "\n"),
		"topics/prose.md": "just\nsome\nprose\nwith\nno\nentries\nat\nall\n",
		"elsewhere.md":    "x\n",
	})
}

func TestRun(t *testing.T) {
	yes := func(*Report) bool { return true }
	no := func(*Report) bool { return false }
	noBullets := &Summary{Name: "agent", Text: "## Summary\n\n---\n"}
	tests := []struct {
		name    string
		req     Request // Root, Timeout and the clock are filled in
		status  outcome.Status
		reason  outcome.Reason // of the error, or of the first report
		reports []string       // the reports' statuses
		written bool           // topics/tools.md was rewritten
	}{
		{name: "all over budget, confirmed", req: Request{Confirmed: true}, reports: []string{StatusCompacted, StatusWithin, StatusRefused}, status: outcome.Refused, written: true},
		{name: "one file, confirmed", req: Request{Files: []string{"topics/tools.md"}, Confirmed: true}, reports: []string{StatusCompacted}, written: true},
		{name: "asked yes", req: Request{Files: []string{"topics/tools.md"}, Confirm: yes}, reports: []string{StatusCompacted}, written: true},
		{name: "asked no", req: Request{Files: []string{"topics/tools.md"}, Confirm: no}, reports: []string{StatusNotConfirmed}, status: outcome.Refused, reason: ReasonNotConfirmed},
		{name: "no way to ask", req: Request{Files: []string{"topics/tools.md"}}, reports: []string{StatusNotConfirmed}, status: outcome.Refused, reason: ReasonNeedsConfirm},
		{name: "dry run", req: Request{Files: []string{"topics/tools.md"}, DryRun: true}, reports: []string{StatusCompacted}},
		{name: "plan", req: Request{Files: []string{"topics/tools.md"}, Plan: true}, reports: []string{StatusPlanned}},
		{name: "named within budget", req: Request{Files: []string{"topics/small.md"}, Confirmed: true}, reports: []string{StatusNothing}},
		{name: "no entries", req: Request{Files: []string{"topics/prose.md"}, Confirmed: true}, reports: []string{StatusRefused}, status: outcome.Refused, reason: ReasonNoEntries},
		{name: "summary without bullets", req: Request{Files: []string{"topics/tools.md"}, Summary: noBullets, Confirmed: true}, reports: []string{StatusAborted}, status: outcome.Defects},
		{name: "files and all", req: Request{Files: []string{"topics/tools.md"}, All: true}, status: outcome.Usage, reason: ReasonBadRequest},
		{name: "plan and summary", req: Request{Files: []string{"topics/tools.md"}, Plan: true, Summary: noBullets}, status: outcome.Usage, reason: ReasonBadRequest},
		{name: "plan and summarizer: shown, not run", req: Request{Files: []string{"topics/tools.md"}, Plan: true, Command: "exit 7"}, reports: []string{StatusPlanned}},
		{name: "model flags without a model", req: Request{Files: []string{"topics/tools.md"}, Summarizing: Summarizing{Model: "m"}}, status: outcome.Usage, reason: ReasonBadRequest},
		{name: "summary and summarizer", req: Request{Files: []string{"topics/tools.md"}, Summary: noBullets, Command: "cat"}, status: outcome.Usage, reason: ReasonBadRequest},
		{name: "summary and a shell command as the summarizer", req: Request{Files: []string{"topics/tools.md"}, Summary: noBullets, Summarizing: Summarizing{Summarizer: "cat"}}, status: outcome.Usage, reason: ReasonBadRequest},
		{name: "summary and a named summarizer", req: Request{Files: []string{"topics/tools.md"}, Summary: noBullets, Summarizing: Summarizing{Summarizer: "claude"}}, status: outcome.Usage, reason: ReasonBadRequest},
		{name: "plan with a shell command as the summarizer: shown, not run", req: Request{Files: []string{"topics/tools.md"}, Plan: true, Summarizing: Summarizing{Summarizer: "exit 7"}}, reports: []string{StatusPlanned}},
		{name: "summary of two files", req: Request{Files: []string{"topics/tools.md", "topics/small.md"}, Summary: noBullets}, status: outcome.Usage, reason: ReasonBadRequest},
		{name: "unreadable summary file", req: Request{Files: []string{"topics/tools.md"}, SummaryFile: "no-such-summary.md"}, status: outcome.Usage, reason: ReasonBadSummary},
		{name: "not budgeted", req: Request{Files: []string{"elsewhere.md"}}, status: outcome.Refused, reason: budget.ReasonNotInPolicy},
		{name: "under compaction/", req: Request{Files: []string{budget.PolicyRel}}, status: outcome.Refused, reason: budget.ReasonExcluded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := runRoot(t)
			before, _ := os.ReadFile(filepath.Join(root, "topics", "tools.md"))
			req := tt.req
			req.Root, req.Today, req.Now, req.Timeout = root, today, now, summarize.DefaultTimeout
			for i, f := range req.Files {
				req.Files[i] = filepath.Join(root, f)
			}
			var seen []string
			req.OnFile = func(r *Report) { seen = append(seen, r.Status) }
			res, err := Run(context.Background(), req)
			if tt.reports == nil {
				if outcome.StatusOf(err) != tt.status || outcome.ReasonOf(err) != tt.reason {
					t.Fatalf("err %v (%q), want status %v reason %q", err, outcome.ReasonOf(err), tt.status, tt.reason)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range res.Files {
				got = append(got, r.Status)
			}
			if !slices.Equal(got, tt.reports) || !slices.Equal(seen, tt.reports) {
				t.Errorf("reports %v (seen %v), want %v", got, seen, tt.reports)
			}
			if res.Outcome != tt.status {
				t.Errorf("outcome %v, want %v", res.Outcome, tt.status)
			}
			if tt.reason != "" && res.Files[0].Reason != tt.reason {
				t.Errorf("reason %q, want %q", res.Files[0].Reason, tt.reason)
			}
			after, _ := os.ReadFile(filepath.Join(root, "topics", "tools.md"))
			if written := string(after) != string(before); written != tt.written {
				t.Errorf("rewritten: %v, want %v", written, tt.written)
			}
			if tt.written != snapshotExists(root) {
				t.Errorf("a snapshot exists: %v, want %v", !tt.written, tt.written)
			}
		})
	}
}

func snapshotExists(root string) bool {
	ents, _ := os.ReadDir(filepath.Join(root, filepath.FromSlash(budget.SnapshotsRel)))
	return len(ents) > 0
}
