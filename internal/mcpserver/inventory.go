package mcpserver

import (
	"context"

	"github.com/memcompact/memcompact/internal/jsonout"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/sweep"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// RecordsInput names a store's index and its record files, as the sweep
// verbs take them.
type RecordsInput struct {
	Index   string `json:"index" jsonschema:"the store's index file (MEMORY.md)"`
	Ledger  string `json:"ledger,omitempty" jsonschema:"LEDGER.md; default: beside the index"`
	Slate   string `json:"slate,omitempty" jsonschema:"SLATE.md; default: beside the index"`
	Archive string `json:"archive,omitempty" jsonschema:"ARCHIVE.md; default: beside the index"`
	AsOf    string `json:"as_of,omitempty" jsonschema:"the date to reason from, yyyy-MM-dd; default today"`
}

func init() {
	tools = append(tools, func(s *mcp.Server, h *Host) {
		addTool(s, &mcp.Tool{
			Name: "inventory",
			Description: "Enumerate a store's corpus from disk for a sweep: every linked subject and every orphan entry file " +
				"(except those whose exit is in force in LEDGER.md), with SLATE.md folded in, in sweep order (incomplete dispositions, " +
				"critical, unassessed, expired deferrals, the rest). Result: the enumeration artifact, as 'memcompact inventory' prints it; " +
				"pass it to the partition tool after the sweep. Writes nothing.",
			Annotations: readOnly("Inventory a memory store"),
		}, []any{sweep.Artifact{}, sweep.UsageError{}, jsonout.Error{}}, func(ctx context.Context, in RecordsInput) reply {
			res, err := sweep.RunInventory(ctx, sweep.InventoryRequest{Records: h.records(in.Index, in.Ledger, in.Slate, in.Archive, in.AsOf)})
			if err != nil {
				return sweepFailure(err, "")
			}
			return reply{doc: res.Artifact, status: outcome.Clean, messages: warnings(res.Warnings)}
		})
	})
}
