package mcpserver

import (
	"context"
	"os"
	"strings"

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
}

func (in CompactPlanInput) flags(args []string) []string {
	args = opt(args, "root", in.Root)
	return opt(args, "entry-heading", in.EntryHeading)
}

func init() {
	tools = append(tools, func(s *mcp.Server, h *Host) {
		addTool(s, &mcp.Tool{
			Name: "compact_plan",
			Description: "Step 1 of compacting a memory file with your own summary: returns its oldest tier (the entries to distill) and the facts " +
				"that must survive (code spans, paths, URLs, commands, versions, dates, numbers, settings). Write one bullet per fact, " +
				"decision or preference, then call compact_apply. Result: the JSON of 'memcompact compact --plan --json'. Writes nothing.",
			Annotations: readOnly("Plan a compaction"),
		}, compactOutputs, func(ctx context.Context, in CompactPlanInput) reply {
			args := in.flags([]string{"compact", "--plan", "--json"})
			return h.inProcess(ctx, positional(args, in.File))
		})
		addTool(s, &mcp.Tool{
			Name: "compact_apply",
			Description: "Step 2: compact the file with your summary of its oldest tier. The file is snapshotted first, the newest tier is kept " +
				"byte for byte, and the rewrite is verified (within budget, every fact kept, no secret) or aborted with what would be lost. " +
				"Writes only with confirm: true; without it, returns the dry run. Result: the JSON of 'memcompact compact --summary FILE --json'.",
			Annotations: writes("Apply a compaction"),
		}, compactOutputs, func(ctx context.Context, in CompactApplyInput) reply {
			if strings.TrimSpace(in.Summary) == "" {
				return genericFailure(usageError("summary is empty: write one bullet per fact of the oldest tier (see compact_plan)"))
			}
			summary, err := tempFile("memcompact-summary-*.md", []byte(in.Summary))
			if err != nil {
				return genericFailure(err)
			}
			defer os.Remove(summary)
			args := in.flags([]string{"compact", "--json", "--summary", summary})
			if in.Confirm {
				// The agent's explicit confirm is the answer to the first
				// compaction's question, which has no terminal to ask on.
				args = append(args, "--yes")
			} else {
				args = append(args, "--dry-run")
			}
			return h.inProcess(ctx, positional(args, in.File))
		})
	})
}

// compactOutputs are the documents the compaction tools may return. Their
// Go types live with the compaction verbs in the CLI until those move to
// an engine, so the schema says only "an object".
var compactOutputs = []any{map[string]any{}}

// tempFile writes data to a new temporary file named by pattern (as
// os.CreateTemp takes it) and returns its name, for a tool whose verb reads
// a file the agent gave as a value. The caller removes it.
func tempFile(pattern string, data []byte) (string, error) {
	f, err := os.CreateTemp("", pattern)
	if err != nil {
		return "", err
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(f.Name())
		return "", werr
	}
	return f.Name(), nil
}
