package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memcompact/memcompact/internal/loadcut"
)

// LoadInput is the input of the load tool.
type LoadInput struct {
	Index string `json:"index,omitempty" jsonschema:"the memory index (MEMORY.md); default: the current project's Claude Code store"`
	// Pointers, so that an explicit 0 or a negative limit reaches the CLI
	// and is refused there, rather than silently meaning "default".
	Lines *int `json:"lines,omitempty" jsonschema:"the line limit, at least 1; default 200 (Claude Code's)"`
	Units *int `json:"units,omitempty" jsonschema:"the size limit in UTF-16 code units, at least 1; default 25000 (Claude Code's)"`
}

func init() {
	tools = append(tools, func(s *mcp.Server, h *Host) {
		addTool(s, &mcp.Tool{
			Name: "load",
			Description: "What Claude Code loads of a memory index at session start: lines and UTF-16 units loaded of the total, " +
				"which limit cuts first, and every linked subject past the cut (line, target, link text), nearest the cut first. " +
				"Result: the JSON of 'memcompact load --json'. Exit 0 everything loads, 1 something is cut.",
			Annotations: readOnly("What a session loads"),
		}, []any{loadcut.Report{}, loadcut.ErrorReport{}}, func(ctx context.Context, in LoadInput) reply {
			req := loadcut.Request{Index: in.Index, Lines: loadcut.DefaultLines, Units: loadcut.DefaultUnits, Where: h.where()}
			if in.Lines != nil {
				req.Lines = *in.Lines
			}
			if in.Units != nil {
				req.Units = *in.Units
			}
			o, err := loadcut.Run(ctx, req)
			if err != nil {
				return failure(loadcut.ErrorJSON(err), err)
			}
			return reply{doc: o.JSON(), status: o.Status()}
		})
	})
}
