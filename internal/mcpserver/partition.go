package mcpserver

import (
	"context"
	"encoding/json"

	"github.com/memcompact/memcompact/internal/jsonout"
	"github.com/memcompact/memcompact/internal/sweep"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// PartitionInput is the input of the partition tool.
type PartitionInput struct {
	RecordsInput
	Inventory string `json:"inventory,omitempty" jsonschema:"the enumeration artifact file written by 'memcompact inventory --out' before the sweep"`
	Artifact  any    `json:"artifact,omitempty" jsonschema:"the enumeration artifact itself, as the inventory tool returned it under result (instead of inventory)"`
	Lenient   bool   `json:"lenient,omitempty" jsonschema:"skip the decision-grain check (--strict), reproducing the reference's plain partition"`
}

func init() {
	tools = append(tools, func(s *mcp.Server, h *Host) {
		addTool(s, &mcp.Tool{
			Name: "partition",
			Description: "After a sweep, account for every subject the pre-sweep inventory enumerated against the index, archive and ledger " +
				"as they now stand: accounted, unaccounted or unverifiable, decided on life keys. Runs --strict (the decision-grain check: " +
				"exits whose pointer is still in the index, kept entries missing from it, demotions no archive line carries) unless lenient. " +
				"Give inventory (a file) or artifact (the inventory tool's result). Result: the JSON of 'memcompact partition --json'; " +
				"exit 0 accounted, 1 unaccounted or strays, 2 unverifiable.",
			Annotations: readOnly("Partition check"),
		}, []any{sweep.PartitionReport{}, sweep.UsageError{}, jsonout.Error{}}, func(ctx context.Context, in PartitionInput) reply {
			req := sweep.PartitionRequest{Records: h.records(in.Index, in.Ledger, in.Slate, in.Archive, in.AsOf), Inventory: in.Inventory, Strict: !in.Lenient}
			if in.Artifact != nil {
				if in.Inventory != "" {
					return genericFailure(usageError("give inventory or artifact, not both"))
				}
				data, err := json.Marshal(in.Artifact)
				if err != nil {
					return genericFailure(err)
				}
				req.Artifact = data
			}
			res, err := sweep.RunPartitionCheck(ctx, req)
			if err != nil {
				return sweepFailure(err, "partition takes the index and the inventory taken before the sweep: the inventory tool's result as artifact, or its file (memcompact inventory --out FILE) as inventory")
			}
			return reply{doc: res.Report, status: res.Status(), messages: warnings(res.Warnings)}
		})
	})
}
