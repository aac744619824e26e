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
	"github.com/memcompact/memcompact/internal/lockfile"
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
	out := strings.TrimSpace(req.Out) != ""
	if out {
		// The artifact is written as every writer writes: under the lock
		// of the folder it belongs to (the store's, so no sweep rewrites
		// the store between the enumeration and the write), never through
		// a symlink leading out of the store, atomically behind the digest
		// of the artifact it replaces.
		lockDir, err := artifactLockDir(p.Dir, req.Out)
		if err != nil {
			return nil, unwritable(req.Out, err)
		}
		release, err := lockfile.Lock(ctx, lockDir)
		if err != nil {
			if oe := (*outcome.Error)(nil); errors.As(err, &oe) {
				return nil, err // names the holder
			}
			return nil, unwritable(req.Out, err)
		}
		defer release()
	}
	inv, err := BuildInventory(p, asOf)
	if err != nil {
		return nil, refused(err, "nothing was enumerated; make the file readable and run the inventory again")
	}
	if out {
		if err := writeArtifact(p.Dir, req.Out, JSON(inv.Artifact)); err != nil {
			return nil, unwritable(req.Out, err)
		}
	}
	return &InventoryResult{Artifact: inv.Artifact, Warnings: inv.Warnings}, nil
}

// unwritable is the refusal of an artifact that was not written.
func unwritable(path string, err error) error {
	return &outcome.Error{Status: outcome.Refused, Reason: ReasonUnwritable, Err: err,
		Msg: fmt.Sprintf("%s: the artifact could not be written: %v", path, err)}
}

// inStore reports whether path, as named (before any symlink is
// followed), lies inside the store folder dir.
func inStore(dir, path string) (bool, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false, err
	}
	rel, err := filepath.Rel(dir, abs)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)), nil
}

// artifactLockDir is the folder whose lock guards an artifact written to
// path: the store's when the artifact lies inside it (the lock every
// writer of the store takes), else the artifact's own folder, so a store
// that cannot be written to can still be enumerated to elsewhere. A folder
// still to be created is not created for the lock (a refused enumeration
// leaves none): its nearest existing parent is locked instead.
func artifactLockDir(dir, path string) (string, error) {
	in, err := inStore(dir, path)
	if err != nil || in {
		return dir, err
	}
	d, err := filepath.Abs(filepath.Dir(path))
	for err == nil {
		if _, serr := os.Lstat(d); serr == nil || filepath.Dir(d) == d {
			return d, nil
		}
		d = filepath.Dir(d)
	}
	return "", err
}

// writeArtifact writes the artifact atomically, creating parent folders
// and replacing an earlier artifact only if it still holds the bytes read
// just before. A path inside the store must stay there once symlinks are
// followed; a path outside it is where the owner said.
func writeArtifact(storeDir, path string, data []byte) error {
	if in, err := inStore(storeDir, path); err != nil {
		return err
	} else if in {
		if err := atomicfile.Within(storeDir, path); err != nil {
			return err
		}
	}
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
