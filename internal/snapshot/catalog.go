package snapshot

import (
	"context"
	"path/filepath"

	"github.com/memcompact/memcompact/internal/budget"
)

// CatalogRequest asks for the snapshots of a memory root.
type CatalogRequest struct {
	Root string // the memory root; "" means the nearest one upward
	// File, when given, narrows the list to the snapshots of that file (by
	// base name: main/main-memory.md has main-memory-YYYY-MM-DD….md).
	File string
	// Show, when given, names one snapshot (its name or its path) whose
	// content is printed whole instead of the list: a snapshot stored as
	// the changes from an earlier one is rebuilt and checked first.
	Show string
}

// CatalogResult lists snapshots, oldest first. Its JSON is the snapshots
// verb's --json output.
type CatalogResult struct {
	SchemaVersion int    `json:"schema_version"`
	Root          string `json:"root"`
	File          string `json:"file,omitempty"` // root-relative, when asked for
	Snapshots     []Info `json:"snapshots"`      // Path is root-relative
	// Shown and Content are the snapshot Show asked for, whole.
	Shown   string `json:"shown,omitempty"`
	Content string `json:"content,omitempty"`
}

// Catalog lists compaction/snapshots/ (the snapshots verb).
func Catalog(_ context.Context, req CatalogRequest) (*CatalogResult, error) {
	root, err := budget.ResolveRoot(req.Root)
	if err != nil {
		return nil, err
	}
	res := &CatalogResult{SchemaVersion: 1, Root: root, Snapshots: []Info{}}
	if req.Show != "" {
		snapDir := filepath.Join(root, filepath.FromSlash(budget.SnapshotsRel))
		rel, f, err := readSnapshot(root, snapDir, req.Show)
		if err != nil {
			return nil, err
		}
		res.Shown, res.Content = rel, string(f.Raw)
		return res, nil
	}
	base := ""
	if req.File != "" {
		rel, err := budget.RelIn(root, req.File)
		if err != nil {
			return nil, err
		}
		res.File, base = rel, Base(rel)
	}
	list, err := List(filepath.Join(root, filepath.FromSlash(budget.SnapshotsRel)), base)
	if err != nil {
		return nil, budget.IOFailure(err)
	}
	for i := range list {
		list[i].Path = budget.SnapshotsRel + "/" + list[i].Name
	}
	if list != nil {
		res.Snapshots = list
	}
	return res, nil
}
