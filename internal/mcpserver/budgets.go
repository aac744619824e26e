package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BudgetsInput is the input of the budgets tool.
type BudgetsInput struct {
	Root string `json:"root,omitempty" jsonschema:"the memory root holding compaction/compaction-policy.md; default: the nearest one from the working directory upward"`
}

func init() {
	tools = append(tools, func(s *mcp.Server, run Runner) {
		mcp.AddTool(s, &mcp.Tool{
			Name: "budgets",
			Description: "Measure every file the compaction policy budgets against its budget (lines or chars). " +
				"Result: the JSON of 'memcompact budgets --json'. Exit 0 all within budget, 1 any over, 2 policy missing or malformed.",
			Annotations: readOnly("Check file budgets"),
		}, func(ctx context.Context, _ *mcp.CallToolRequest, in BudgetsInput) (*mcp.CallToolResult, any, error) {
			args := []string{"budgets", "--json"}
			args = opt(args, "root", in.Root)
			return call(ctx, run, args, nil)
		})
	})
}
