package mcpserver

import (
	"context"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/compact"
	"github.com/memcompact/memcompact/internal/jsonout"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/summarize"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// CompactPlanInput is the input of compact_plan.
type CompactPlanInput struct {
	File         string `json:"file" jsonschema:"the budgeted memory file to compact (relative to the working directory, or absolute)"`
	Root         string `json:"root,omitempty" jsonschema:"the memory root holding compaction/; default: the nearest one upward"`
	EntryHeading string `json:"entry_heading,omitempty" jsonschema:"what starts an entry: a heading level such as ## or a regular expression"`
}

// CompactApplyInput is the input of compact_apply.
type CompactApplyInput struct {
	CompactPlanInput
	Summary string `json:"summary" jsonschema:"your distillation of the oldest tier from compact_plan: one bullet per fact, decision or preference, keeping every listed fact"`
	Confirm bool   `json:"confirm,omitempty" jsonschema:"must be true to write; otherwise the tool only reports what it would do (a dry run)"`
	// Fallback is compact's --fallback: the summarizer that writes the
	// block when the meaning check refuses the agent's summary.
	Fallback Fallback `json:"fallback,omitempty"`
}

// Fallback is the summarizer to fall back to when a summary is refused
// for what it says: only the built-in one (or none, when empty).
type Fallback string

// FallbackBuiltin is the built-in summarizer.
const FallbackBuiltin Fallback = "builtin"

func init() {
	tools = append(tools, func(s *mcp.Server, h *Host) {
		addTool(s, &mcp.Tool{
			Name: "compact_plan",
			Description: "Step 1 of compacting a memory file with your own summary: returns its oldest tier (the entries to distill) and the facts " +
				"that must survive (code spans, paths, URLs, commands, versions, dates, numbers, settings), with 'prompt': the rules every " +
				"summarizer follows. Write the bullets by those rules, then call compact_apply. Result: the JSON of " +
				"'memcompact compact --plan --json'. Writes nothing.",
			Annotations: readOnly("Plan a compaction"),
		}, compactOutputs, func(ctx context.Context, in CompactPlanInput) reply {
			req := h.compactRequest(in)
			req.Plan = true
			return compactReply(compact.Run(ctx, req))
		})
		addTool(s, &mcp.Tool{
			Name: "compact_apply",
			Description: "Step 2: compact the file with your summary of its oldest tier. The file is snapshotted first, the newest tier is kept " +
				"byte for byte, and the rewrite is verified (within budget, every preference, correction, decision and rule kept, no secret) " +
				"or aborted with what would be lost ('lost_must_keep': add those to your bullets and call again) or put under the wrong person or " +
				"section ('misplaced': move each under its own) or not said as the entries say it ('unfaithful': a flipped negation, an altered number, " +
				"an invented statement, a priority fact neither kept nor declared in a 'Dropped: …' bullet); fallback: \"builtin\" lets the built-in " +
				"summarizer write the block instead of such a refused summary; facts left out stay in the " +
				"snapshot the block names ('snapshot_only_facts'). " +
				"Writes only with confirm: true; without it, returns the dry run. Result: the JSON of 'memcompact compact --summary FILE --json'.",
			Annotations: writes("Apply a compaction"),
		}, compactOutputs, func(ctx context.Context, in CompactApplyInput) reply {
			if strings.TrimSpace(in.Summary) == "" {
				return genericFailure(usageError("summary is empty: write one bullet per fact of the oldest tier (see compact_plan)"))
			}
			req := h.compactRequest(in.CompactPlanInput)
			req.Summary = &compact.Summary{Name: "agent", Text: in.Summary}
			req.Fallback = string(in.Fallback)
			// The agent's explicit confirm is the answer to the first
			// compaction's question, which has no terminal to ask on.
			req.Confirmed, req.DryRun = in.Confirm, !in.Confirm
			return compactReply(compact.Run(ctx, req))
		})
	})
}

// compactOutputs are the documents the compaction tools may return.
var compactOutputs = []any{compact.Result{}, jsonout.RootError{}, jsonout.Error{}}

// compactRequest is the compaction of one file, as the compact verb makes
// it from its flags.
func (h *Host) compactRequest(in CompactPlanInput) compact.Request {
	now := time.Now()
	if h.Now != nil {
		now = h.Now()
	}
	return compact.Request{Root: in.Root, Files: []string{in.File}, EntryHeading: in.EntryHeading,
		Timeout: summarize.DefaultTimeout, Today: h.Today(), Now: now}
}

// compactReply shapes compact's outcome as the verb does with --json.
func compactReply(res *compact.Result, err error) reply {
	if err != nil {
		return rootFailure(err)
	}
	r := reply{doc: res, status: res.Outcome}
	for _, f := range res.Files {
		if f.Status == compact.StatusRefused || f.Status == compact.StatusNotConfirmed {
			r.messages = append(r.messages, outcome.Line(outcome.KindError, f.Message))
		}
	}
	return r
}
