package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memcompact/memcompact/internal/check"
)

// CheckInput is the input of the check tool.
type CheckInput struct {
	Index     string `json:"index,omitempty" jsonschema:"the memory index (MEMORY.md) to check; default: the current project's Claude Code store"`
	Reference string `json:"reference,omitempty" jsonschema:"reference copy of the policy to compare against; default: MEMCOMPACT_REFERENCE, the installed agent-orchestra skill, else the built-in copy"`
}

func init() {
	tools = append(tools, func(s *mcp.Server, h *Host) {
		addTool(s, &mcp.Tool{
			Name: "check",
			Description: "Check a memory index on four axes: the policy it carries, its size against its budget, " +
				"subjects without a recall hook (R1) and unattributed shared notes (R2). Result: the JSON of 'memcompact check --json'. " +
				"Exit 0 clean, 1 defects, 2 refused (structure not recognized; try doctor), 3 usage error.",
			Annotations: readOnly("Check a memory index"),
		}, []any{check.ReportJSON{}, check.RefusedJSON{}, check.UsageJSON{}}, func(ctx context.Context, in CheckInput) reply {
			rep, err := check.Run(ctx, check.Request{Index: in.Index, Reference: in.Reference, Today: h.Today(), Where: h.where()})
			r := reply{doc: check.JSONValue(rep), status: outcomeOf(rep.ExitCode())}
			if err != nil {
				r.messages = failure(nil, err).messages[1:] // check prints its reason on stdout; only the hints go to stderr
			}
			return r
		})
	})
}
