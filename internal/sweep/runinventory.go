package sweep

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/memcompact/memcompact/internal/outcome"
)

// InventoryRequest is one enumeration of a store.
type InventoryRequest struct {
	Records
	Out string // also write the artifact here (parent folders are created); "" for none
}

// InventoryResult is the enumeration artifact, with notes on the record
// files.
type InventoryResult struct {
	Artifact *Artifact
	Warnings []Warning
}

// RunInventory enumerates the store's corpus from disk. Nothing in the
// store is written; the artifact is, atomically and under a lock, when Out
// is set.
func RunInventory(ctx context.Context, req InventoryRequest) (*InventoryResult, error) {
	asOf, err := req.asOf()
	if err != nil {
		return nil, err
	}
	switch {
	case strings.TrimSpace(req.Index) == "":
		return nil, usage("-IndexPath is required; it names the store's index file")
	case !IsFile(req.Index):
		return nil, usage("no index file at '%s'", req.Index)
	}
	p, err := ResolvePaths(req.Index, req.Ledger, req.Slate, req.Archive)
	if err != nil {
		return nil, refused(err)
	}
	var inv *Inventory
	enumerate := func() ([]byte, error) {
		if inv, err = BuildInventory(p, asOf); err != nil {
			return nil, refused(err, "nothing was enumerated; make the file readable and run the inventory again")
		}
		return JSON(inv.Artifact), nil
	}
	if strings.TrimSpace(req.Out) == "" {
		_, err = enumerate()
	} else {
		// Enumerated under the lock the artifact is written under (see
		// WriteOutput), so no sweep rewrites the store in between.
		_, err = WriteOutput(ctx, p.Dir, req.Out, nil, enumerate)
		if oe := (*outcome.Error)(nil); err != nil && !errors.As(err, &oe) {
			err = &outcome.Error{Status: outcome.Refused, Reason: ReasonUnwritable, Err: err,
				Msg: fmt.Sprintf("%s: the artifact could not be written: %v", req.Out, err)}
		}
	}
	if err != nil {
		return nil, err
	}
	return &InventoryResult{Artifact: inv.Artifact, Warnings: inv.Warnings}, nil
}
