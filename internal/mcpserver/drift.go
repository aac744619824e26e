package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memcompact/memcompact/internal/drift"
)

// DriftInput is the input of the drift tool.
type DriftInput struct {
	Store string `json:"store,omitempty" jsonschema:"the store directory or its index file; default: the current project's Claude Code store"`
}

func init() {
	tools = append(tools, func(s *mcp.Server, h *Host) {
		addTool(s, &mcp.Tool{
			Name: "drift",
			Description: "Where a store and its index disagree: orphan entry files no pointer names (minus those whose exit is in force " +
				"in LEDGER.md) and dangling pointers to files that do not exist. Result: the JSON of 'memcompact drift --json'. Exit 0 clean, 1 drift.",
			Annotations: readOnly("Orphans and dangling pointers"),
		}, []any{drift.JSONReport{}, drift.JSONError{}}, func(ctx context.Context, in DriftInput) reply {
			res, err := drift.Run(ctx, drift.Request{Store: in.Store, Today: h.Today(), Where: h.where()})
			if err != nil {
				return failure(drift.ErrorJSON(err), err)
			}
			return reply{doc: res.JSON(), status: res.Status()}
		})
	})
}
