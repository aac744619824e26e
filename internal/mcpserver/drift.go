package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DriftInput is the input of the drift tool.
type DriftInput struct {
	Store string `json:"store,omitempty" jsonschema:"the store directory or its index file; default: the current project's Claude Code store"`
}

func init() {
	tools = append(tools, func(s *mcp.Server, run Runner) {
		mcp.AddTool(s, &mcp.Tool{
			Name: "drift",
			Description: "Where a store and its index disagree: orphan entry files no pointer names (minus those whose exit is in force " +
				"in LEDGER.md) and dangling pointers to files that do not exist. Result: the JSON of 'memcompact drift --json'. Exit 0 clean, 1 drift.",
			Annotations: readOnly("Orphans and dangling pointers"),
		}, func(ctx context.Context, _ *mcp.CallToolRequest, in DriftInput) (*mcp.CallToolResult, any, error) {
			return call(ctx, run, positional([]string{"drift", "--json"}, in.Store), nil)
		})
	})
}
