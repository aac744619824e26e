package mcpserver

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memcompact/memcompact/internal/jsonout"
	"github.com/memcompact/memcompact/internal/lockfile"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/sweepact"
)

// SweepPlanInput is the input of sweep_plan.
type SweepPlanInput struct {
	Index       string `json:"index" jsonschema:"the memory index (MEMORY.md) to plan a sweep of"`
	TargetUnits int    `json:"target_units,omitempty" jsonschema:"aim the index at this many UTF-16 units; default: Claude Code's load cut, or the store's budget when smaller"`
	Record      bool   `json:"record,omitempty" jsonschema:"also append a 'proposed' ledger record per proposed move (any session may propose; nothing is removed)"`
}

// SweepApplyInput is the input of sweep_apply.
type SweepApplyInput struct {
	Index             string              `json:"index" jsonschema:"the memory index whose plan (made by sweep_plan) is applied"`
	Decisions         []sweepact.Decision `json:"decisions,omitempty" jsonschema:"the owner's answers, as they gave them in conversation: per subject accepted or rejected, optionally a changed disposition"`
	Confirm           bool                `json:"confirm,omitempty" jsonschema:"the owner's yes: must be true to write; otherwise the tool gates every act and reports what it would do (a dry run)"`
	AdmissionLandedOn string              `json:"admission_landed_on,omitempty" jsonschema:"yyyy-MM-dd the store's admission rule landed (only for remove-fails-admission)"`
}

func init() {
	tools = append(tools, func(s *mcp.Server, h *Host) {
		addTool(s, &mcp.Tool{
			Name: "sweep_plan",
			Description: "Step 1 of a sweep of a memory store whose index no longer loads whole: a proposed disposition for every subject " +
				"(remove dangling, dedupe, demote finished, promote standing rules, keep the rest, then the fewest safe demotions that " +
				"reach Claude Code's load cut or the budget), each with evidence and reason, and the outcome in lines, units and subjects " +
				"loading. Present it to the owner and ask; then call sweep_apply with their decisions. Writes the plan file " +
				"(.memcompact/sweep-plan.json in the store) and, with record, proposed ledger records; never the memory itself. " +
				"Result: the JSON of 'memcompact sweep plan --json'.",
			Annotations: planning("Plan a sweep"),
		}, []any{sweepact.Plan{}, jsonout.Error{}}, func(ctx context.Context, in SweepPlanInput) reply {
			if strings.TrimSpace(in.Index) == "" {
				return genericFailure(usageError("index is required: the MEMORY.md to plan a sweep of"))
			}
			res, err := sweepact.RunPlanFile(ctx, sweepact.PlanFileRequest{
				PlanRequest: sweepact.PlanRequest{Index: in.Index, AsOf: records.DateOf(h.Today()), TargetUnits: in.TargetUnits},
				Record:      in.Record, LockWait: lockfile.DefaultWait})
			if res == nil {
				return genericFailure(err)
			}
			if err != nil {
				return failure(res.Plan, err)
			}
			r := reply{doc: res.Plan, messages: []string{outcome.Line(outcome.KindHint,
				"present the plan to the owner, then call sweep_apply with their decisions (the plan is written to "+res.Path+")")}}
			if in.Record {
				r.messages = append(r.messages, outcome.Line(outcome.KindHint, "proposals recorded in the ledger: "+strconv.Itoa(res.Recorded)))
			}
			return r
		})
		addTool(s, &mcp.Tool{
			Name: "sweep_apply",
			Description: "Step 2: apply the store's sweep plan with the owner's decisions. Every act passes its gate (exit, deferral, admission, " +
				"reconcile) and its 'executed' ledger record is appended before it; demoted pointers move to ARCHIVE.md, removed bodies to " +
				"archive/, nothing is deleted; it ends with the partition check. Writes only with confirm: true (the owner's yes, given in " +
				"conversation); without it, a dry run that gates every act. Refused when the index changed since the plan. " +
				"Result: the JSON of 'memcompact sweep apply --json'; exit 0 accounted, 1 not accounted, 2 refused.",
			Annotations: writes("Apply a sweep"),
		}, []any{sweepact.ApplyResult{}, jsonout.Error{}}, func(ctx context.Context, in SweepApplyInput) reply {
			if strings.TrimSpace(in.Index) == "" {
				return genericFailure(usageError("index is required: the MEMORY.md whose plan is applied"))
			}
			req := sweepact.ApplyRequest{PlanPath: filepath.Join(filepath.Dir(in.Index), sweepact.DefaultPlanRel),
				Decisions: in.Decisions, Yes: true, DryRun: !in.Confirm, AsOf: records.DateOf(h.Today()), Home: h.Home}
			if in.AdmissionLandedOn != "" {
				d, ok := records.ParseDate(in.AdmissionLandedOn)
				if !ok {
					return genericFailure(usageError("admission_landed_on must be a yyyy-MM-dd date"))
				}
				req.AdmissionLandedOn = d
			}
			res, err := sweepact.RunApply(ctx, req)
			if err != nil {
				if res == nil {
					return genericFailure(err)
				}
				return failure(res, err)
			}
			r := reply{doc: res}
			if in.Confirm {
				r.status = outcomeOf(res.ExitCode())
			} else {
				r.messages = []string{outcome.Line(outcome.KindHint, "dry run: nothing written; call again with confirm: true once the owner has said yes")}
			}
			return r
		})
	})
}

// planning is the annotation of a tool that writes only its own working
// file, never memory.
func planning(title string) *mcp.ToolAnnotations {
	f := false
	return &mcp.ToolAnnotations{Title: title, DestructiveHint: &f, OpenWorldHint: &f}
}
