package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memcompact/memcompact/internal/doctor"
	"github.com/memcompact/memcompact/internal/jsonout"
)

// DoctorInput is the input of the doctor tool.
type DoctorInput struct {
	Index string `json:"index,omitempty" jsonschema:"the memory index (MEMORY.md) or its store directory; default: the current project's Claude Code store"`
	All   bool   `json:"all,omitempty" jsonschema:"diagnose every store under <config dir>/projects/*/memory/ instead"`
}

func init() {
	tools = append(tools, func(s *mcp.Server, h *Host) {
		addTool(s, &mcp.Tool{
			Name: "doctor",
			Description: "One report on a memory store: load cut, recall hooks (R1), shared notes (R2), drift, secrets, budgets and the strict check, " +
				"each finding with the command that explains or fixes it. Works on stores the strict check refuses. " +
				"Result: the JSON of 'memcompact doctor --json'. Exit 0 healthy, 1 problems.",
			Annotations: readOnly("Diagnose a memory store"),
		}, []any{doctor.Report{}, doctor.All{}, jsonout.Error{}}, func(ctx context.Context, in DoctorInput) reply {
			req := doctor.Request{All: in.All, Index: in.Index, Today: h.Today(), Where: h.where()}
			if req.All && req.Index != "" {
				return genericFailure(usageError("doctor takes one INDEX, or --all"))
			}
			res, err := doctor.Run(ctx, req)
			if err != nil {
				return genericFailure(err)
			}
			return reply{doc: res.JSON(), status: res.Status()}
		})
	})
}
