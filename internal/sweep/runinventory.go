package sweep

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/textfile"
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
// store is written; the artifact is, atomically, when Out is set.
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
	inv, err := BuildInventory(p, asOf)
	if err != nil {
		return nil, refused(err, "nothing was enumerated; make the file readable and run the inventory again")
	}
	if strings.TrimSpace(req.Out) != "" {
		if err := writeArtifact(req.Out, JSON(inv.Artifact)); err != nil {
			return nil, &outcome.Error{Status: outcome.Refused, Reason: ReasonUnwritable, Err: err,
				Msg: fmt.Sprintf("%s: the artifact could not be written: %v", req.Out, err)}
		}
	}
	return &InventoryResult{Artifact: inv.Artifact, Warnings: inv.Warnings}, nil
}

// writeArtifact writes the artifact atomically, creating parent folders
// and replacing an earlier artifact.
func writeArtifact(path string, data []byte) error {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	want := ""
	old, err := textfile.Read(path)
	switch {
	case err == nil:
		want = old.Digest
	case errors.Is(err, fs.ErrNotExist):
	default:
		return err
	}
	return atomicfile.Replace(path, data, want)
}
