package sweepact

import (
	"errors"
	"io/fs"
	"os"

	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/sweep"
)

// Reasons of a request whose paths name no file (usage errors, exit 3, as
// for every verb given a path that names nothing).
const (
	ReasonNoIndex outcome.Reason = "sweep-no-index" // the index named is not a file
	ReasonNoPlan  outcome.Reason = "sweep-no-plan"  // the plan file named is not there
	ReasonBadArg  outcome.Reason = "sweep-bad-arg"  // a value of the request is out of range
)

// storePaths resolves a store from its index, which must be a file. It is
// checked before anything is locked: taking the store's lock creates its
// folder, and a refusal leaves every byte, and every folder, as it was.
func storePaths(index string) (sweep.Paths, error) {
	p, err := sweep.ResolvePaths(index, "", "", "")
	if err != nil {
		return p, err
	}
	return p, isIndexFile(p.Index)
}

// isIndexFile is nil when path is a regular file (through symbolic links),
// else the usage error or refusal that says why it is not.
func isIndexFile(path string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &outcome.Error{Status: outcome.Usage, Reason: ReasonNoIndex, Msg: "index not found at '" + path + "'",
			Hints: []string{"name the store's MEMORY.md ('memcompact doctor --all' lists every store)"}}
	case err != nil:
		return refusef(ReasonUnreadable, path, "the index could not be read: %v", cause(err))
	case !fi.Mode().IsRegular():
		return &outcome.Error{Status: outcome.Usage, Reason: ReasonNoIndex, Msg: "'" + path + "' is not a file; name the store's MEMORY.md"}
	}
	return nil
}

// cause is err without the path an *fs.PathError repeats: the refusal
// names the file once, in front.
func cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
