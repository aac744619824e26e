package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DoctorInput is the input of the doctor tool.
type DoctorInput struct {
	Index string `json:"index,omitempty" jsonschema:"the memory index (MEMORY.md) or its store directory; default: the current project's Claude Code store"`
	All   bool   `json:"all,omitempty" jsonschema:"diagnose every store under <config dir>/projects/*/memory/ instead"`
}

func init() {
	tools = append(tools, func(s *mcp.Server, run Runner) {
		mcp.AddTool(s, &mcp.Tool{
			Name: "doctor",
			Description: "One report on a memory store: load cut, recall hooks (R1), shared notes (R2), drift, secrets, budgets and the strict check, " +
				"each finding with the command that explains or fixes it. Works on stores the strict check refuses. " +
				"Result: the JSON of 'memcompact doctor --json'. Exit 0 healthy, 1 problems.",
			Annotations: readOnly("Diagnose a memory store"),
		}, func(ctx context.Context, _ *mcp.CallToolRequest, in DoctorInput) (*mcp.CallToolResult, any, error) {
			args := optBool([]string{"doctor", "--json"}, "all", in.All)
			return call(ctx, run, positional(args, in.Index), nil)
		})
	})
}
