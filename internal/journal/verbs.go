package journal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/memcompact/memcompact/internal/jsonout"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/secrets"
	"github.com/memcompact/memcompact/internal/store"
)

// The verbs' entry points: RunRecord (journal), RunPrune (journal prune),
// RunHistory (history) and RunUndo (undo). Each takes the store as the
// user named it (a folder or its MEMORY.md, or nothing for the current
// project's store, found through Where) and finds memcompact's data
// directory itself, so the CLI and any other face resolve both the same
// way.

// Reasons finding a verb's store or journal fails, besides
// store.ReasonNoIndex (no store named, and the current project has none).
const (
	ReasonNoStore   outcome.Reason = "no-store"    // the store named does not exist
	ReasonNoDataDir outcome.Reason = "no-data-dir" // no data directory: no HOME, no MEMCOMPACT_DATA_DIR
	// ReasonUnwritable: the journal could not be written (a snapshot
	// failed after the store and the data directory were found).
	ReasonUnwritable outcome.Reason = "journal-unwritable"
	// ReasonUnreadable: prune found a manifest or a pack it cannot read
	// (a disk error, or a newer memcompact's format) that may name or
	// hold what it would remove, so it removed nothing.
	ReasonUnreadable outcome.Reason = "journal-unreadable"
)

// resolveOpen is resolve, then the journal of the store it found: what
// the verbs that read or prune a journal begin with.
func resolveOpen(verb, storeArg, dataDir string, where store.Where) (j *Journal, dir, data string, err error) {
	if dir, data, err = resolve(verb, storeArg, dataDir, where); err != nil {
		return nil, "", "", err
	}
	j, err = open(data, dir)
	return j, dir, data, err
}

// resolve returns the store folder (storeArg is a folder or its index; ""
// for the current project's store) and the data directory (dataDir, else
// the one DataDir finds through where).
func resolve(verb, storeArg, dataDir string, where store.Where) (string, string, error) {
	dir, err := storeDir(verb, storeArg, where)
	if err != nil {
		return "", "", err
	}
	data := dataDir
	if data == "" {
		getenv := where.Getenv
		if getenv == nil {
			getenv = func(string) string { return "" }
		}
		if data, err = DataDir(getenv, where.Home); err != nil {
			return "", "", &outcome.Error{Status: outcome.Usage, Reason: ReasonNoDataDir, Msg: err.Error(), Err: err}
		}
	}
	if storeArg != "" && !isStore(dir, data) {
		return "", "", &outcome.Error{Status: outcome.Usage, Reason: ReasonNoStore,
			Msg:   fmt.Sprintf("%s is not a memory store: its folder %s holds no MEMORY.md, and memcompact has no journal of it", storeArg, dir),
			Hints: []string{"name a store's folder or its MEMORY.md ('memcompact doctor --all' lists them)"}}
	}
	return dir, data, nil
}

// isStore reports whether dir is a memory store the journal verbs may
// take: it holds MEMORY.md, or it is one the journal already knows (its
// index may be the very file a consolidation deleted). Any other folder
// is refused, so that a path typed by mistake (a device, /etc) is never
// copied into the journal.
func isStore(dir, data string) bool {
	if fi, err := os.Stat(filepath.Join(dir, "MEMORY.md")); err == nil && fi.Mode().IsRegular() {
		return true
	}
	j, err := open(data, dir)
	if err != nil {
		return true // open's own refusal says why, with its cause
	}
	fi, err := os.Stat(j.Dir)
	return err == nil && fi.IsDir()
}

func storeDir(verb, storeArg string, where store.Where) (string, error) {
	if storeArg != "" {
		fi, err := os.Stat(storeArg)
		if err != nil {
			return "", outcome.Usagef(ReasonNoStore, "%s: no such store or index file", storeArg)
		}
		switch {
		case fi.IsDir():
			return storeArg, nil
		case !fi.Mode().IsRegular():
			return "", outcome.Usagef(ReasonNoStore, "%s is neither a store's folder nor its MEMORY.md", storeArg)
		}
		return filepath.Dir(storeArg), nil
	}
	if where.Cwd == "" {
		return "", outcome.Usagef(store.ReasonNoIndex, "no store given, and the working directory is unknown")
	}
	index, err := where.DefaultIndex(verb)
	if err != nil {
		return "", err
	}
	return filepath.Dir(index), nil
}

// containsSecret is the journal's secret test: gitleaks' rules and ours.
func containsSecret(b []byte) bool { return secrets.Contains(string(b)) }

// RecordRequest asks the journal verb to record the store's state now.
type RecordRequest struct {
	Store   string      // the store folder or its MEMORY.md; "" for the current project's
	DataDir string      // memcompact's data directory; "" for DataDir's
	Where   store.Where // where the current project's store and the data directory are found
	// IncludeSecrets keeps the bytes of files that match a secret rule too.
	IncludeSecrets bool
	Now            func() time.Time // nil: time.Now
}

// RunRecord is the journal verb: a snapshot of the store, caused
// "manual"; nothing is written when the store is unchanged since the last
// one. A file that matches a secret rule is listed without its bytes
// unless IncludeSecrets.
func RunRecord(ctx context.Context, req RecordRequest) (*SnapshotResult, error) {
	if req.Where.Getenv != nil && req.Store != "" {
		if session := req.Where.Getenv(BackgroundEnv); session != "" {
			// A session start's detached child finishing its snapshot.
			return RunBackground(ctx, BackgroundRequest{Store: req.Store, DataDir: req.DataDir, Where: req.Where, Session: session, Now: req.Now})
		}
	}
	dir, data, err := resolve("journal", req.Store, req.DataDir, req.Where)
	if err != nil {
		return nil, err
	}
	res, err := Snapshot(ctx, SnapshotRequest{Store: dir, DataDir: data, Cause: "manual",
		IncludeSecrets: req.IncludeSecrets, Secret: containsSecret, Now: req.Now})
	if err != nil {
		var oe *outcome.Error
		if errors.As(err, &oe) {
			return nil, err
		}
		return nil, &outcome.Error{Status: outcome.Refused, Reason: ReasonUnwritable, Err: err}
	}
	res.Store = dir
	return res, nil
}

// RecordJSON is the journal verb's --json document.
type RecordJSON struct {
	SchemaVersion int    `json:"schema_version"`
	Journal       string `json:"journal"`
	Snapshot      string `json:"snapshot"`
	Unchanged     bool   `json:"unchanged"`
	Files         int    `json:"files"`
	Read          int    `json:"files_read"`
	Withheld      []File `json:"withheld"`
}

// JSON is the result as the journal verb's --json document.
func (r *SnapshotResult) JSON() RecordJSON {
	return RecordJSON{1, r.Journal, r.Manifest.ID, r.Unchanged, len(r.Manifest.Files), r.Read, jsonout.NonNil(r.Withheld)}
}

// PruneJSON is journal prune's --json document: the result's Go field
// names are its keys.
type PruneJSON struct {
	SchemaVersion int  `json:"schema_version"`
	DryRun        bool `json:"dry_run"`
	*PruneResult
}

// JSON is the result as journal prune's --json document.
func (r *PruneResult) JSON() PruneJSON { return PruneJSON{1, r.DryRun, r} }

// HistoryJSON is history's --json document.
type HistoryJSON struct {
	SchemaVersion int `json:"schema_version"`
	*HistoryResult
}

// JSON is the result as history's --json document, every list present.
func (r *HistoryResult) JSON() HistoryJSON {
	c := *r
	c.Steps, c.Warnings, c.Unread = jsonout.NonNil(c.Steps), jsonout.NonNil(c.Warnings), jsonout.NonNil(c.Unread)
	c.Unprotected, c.UnreadPacks = jsonout.NonNil(c.Unprotected), jsonout.NonNil(c.UnreadPacks)
	return HistoryJSON{1, &c}
}

// Status is history's verdict: Defects when a step warns.
func (r *HistoryResult) Status() outcome.Status {
	if len(r.Warnings) > 0 {
		return outcome.Defects
	}
	return outcome.Clean
}

// UndoJSON is undo's --json document.
type UndoJSON struct {
	SchemaVersion int `json:"schema_version"`
	*UndoResult
}

// JSON is the result as undo's --json document.
func (r *UndoResult) JSON() UndoJSON { return UndoJSON{1, r} }
