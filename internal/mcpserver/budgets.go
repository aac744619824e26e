package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/jsonout"
	"github.com/memcompact/memcompact/internal/outcome"
)

// BudgetsInput is the input of the budgets tool.
type BudgetsInput struct {
	Root string `json:"root,omitempty" jsonschema:"the memory root holding compaction/compaction-policy.md; default: the nearest one from the working directory upward"`
}

func init() {
	tools = append(tools, func(s *mcp.Server, h *Host) {
		addTool(s, &mcp.Tool{
			Name: "budgets",
			Description: "Measure every file the compaction policy budgets against its budget (lines or chars). " +
				"Result: the JSON of 'memcompact budgets --json'. Exit 0 all within budget, 1 any over, 2 policy missing or malformed.",
			Annotations: readOnly("Check file budgets"),
		}, []any{budget.Result{}, jsonout.RootError{}, jsonout.Error{}}, func(ctx context.Context, in BudgetsInput) reply {
			res, err := budget.Run(ctx, budget.Request{Root: in.Root})
			if err != nil {
				return rootFailure(err)
			}
			return reply{doc: res, status: res.Outcome}
		})
	})
}

// rootFailure is the reply of a memory-root engine's error: the root
// verbs' error object, and the error (with its file) and its hints as the
// CLI says them.
func rootFailure(err error) reply {
	r := failure(jsonout.RootErrorOf(outcome.StatusOf(err), err.Error()), err)
	r.messages[0] = outcome.Line(outcome.KindError, err.Error())
	return r
}
