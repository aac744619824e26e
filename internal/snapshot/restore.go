package snapshot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/lockfile"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/textfile"
)

// Reasons of Restore's refusals (besides the budget package's, for the
// root and the policy).
const (
	ReasonNoSnapshot   outcome.Reason = "no-snapshot"        // not a snapshot in compaction/snapshots/, or no such file
	ReasonBadName      outcome.Reason = "bad-snapshot-name"  // not named BASE-YYYY-MM-DD[-HHMMSS][-vN].md
	ReasonNoTarget     outcome.Reason = "no-target"          // no budgeted file has the snapshot's base name
	ReasonAmbiguous    outcome.Reason = "ambiguous-target"   // several budgeted files have it
	ReasonNeedsConfirm outcome.Reason = "needs-confirmation" // neither confirmed nor a way to ask
	ReasonNotConfirmed outcome.Reason = "not-confirmed"      // asked, and the answer was no
	ReasonDamaged      outcome.Reason = "damaged-snapshot"   // empty, or not the text a snapshot holds
)

// RestoreRequest asks to put a memory file back as a snapshot has it.
type RestoreRequest struct {
	Root string // the memory root; "" means the nearest one upward
	// Snapshot is a path, or just a snapshot's name in
	// compaction/snapshots/.
	Snapshot string
	// To is the file to restore; "" means the budgeted file whose base
	// name the snapshot carries.
	To string
	// Confirmed replaces without asking. Otherwise Confirm, when set, is
	// asked (once the restore is decided and before anything is written)
	// and must answer true; with neither, the restore is refused.
	Confirmed bool
	Confirm   func(*RestoreResult) bool
	// Today and Now name the safety snapshot of the file replaced.
	Today, Now time.Time
}

// RestoreResult is a restore's outcome. Its JSON is restore's --json
// output.
type RestoreResult struct {
	SchemaVersion  int    `json:"schema_version"`
	Status         string `json:"status"` // "restored" or "unchanged"
	File           string `json:"file"`
	Snapshot       string `json:"snapshot"`
	Taken          string `json:"taken"`
	Lines          int    `json:"lines"`
	Bytes          int    `json:"bytes"`
	SafetySnapshot string `json:"safety_snapshot,omitempty"`

	// The file as it was before the restore: Exists false when there was
	// none, else its lines and bytes.
	Exists       bool `json:"-"`
	CurrentLines int  `json:"-"`
	CurrentBytes int  `json:"-"`
}

// The statuses of a RestoreResult.
const (
	StatusRestored  = "restored"
	StatusUnchanged = "unchanged"
)

// Restore replaces a memory file with a snapshot, first snapshotting the
// file itself under the usual naming rule, so a restore is undone by
// restoring that snapshot. A file already identical to the snapshot is left
// alone.
//
// A refusal once the snapshot and the file are known (not confirmed, a
// failed write) comes with the result describing both, so a caller can show
// what was not done.
func Restore(ctx context.Context, req RestoreRequest) (*RestoreResult, error) {
	root, err := budget.ResolveRoot(req.Root)
	if err != nil {
		return nil, err
	}
	snapDir := filepath.Join(root, filepath.FromSlash(budget.SnapshotsRel))
	snapRel, snap, err := readSnapshot(root, snapDir, req.Snapshot)
	if err != nil {
		return nil, err
	}
	base, taken, hasTime, _, ok := ParseName(filepath.Base(snapRel))
	if !ok {
		return nil, outcome.Refuse(ReasonBadName, "%s is not named like a snapshot (BASE-YYYY-MM-DD[-HHMMSS][-vN].md)", snapRel)
	}
	rel, err := restoreTarget(root, snapRel, base, req.To)
	if err != nil {
		return nil, err
	}
	abs := filepath.Join(root, filepath.FromSlash(rel))
	res := &RestoreResult{SchemaVersion: 1, File: rel, Snapshot: snapRel, Taken: taken.Format("2006-01-02"),
		Lines: len(textfile.Lines(snap.Text)), Bytes: len(snap.Raw)}
	if hasTime {
		res.Taken = taken.Format("2006-01-02 15:04:05")
	}
	atomicfile.RemoveStale(filepath.Dir(abs))
	cur, err := textfile.Read(abs)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, budget.IOFailure(err)
	}
	if cur != nil {
		res.Exists, res.CurrentLines, res.CurrentBytes = true, len(textfile.Lines(cur.Text)), len(cur.Raw)
		if bytes.Equal(cur.Raw, snap.Raw) {
			res.Status = StatusUnchanged
			return res, nil
		}
	}
	switch {
	case req.Confirmed:
	case req.Confirm == nil:
		return res, outcome.Refuse(ReasonNeedsConfirm, "restoring %s needs confirmation; nothing was written", rel)
	case !req.Confirm(res):
		return res, outcome.Refuse(ReasonNotConfirmed, "not confirmed; nothing was changed")
	}
	// From here to the replace, no other memcompact run writes this root.
	// (Taken after the confirmation, which may wait on a person; a change
	// made meanwhile is caught by the replace's digest check.)
	release, err := lockfile.Lock(ctx, root)
	if err != nil {
		return res, err
	}
	defer release()
	for _, p := range []string{abs, snapDir} {
		if err := atomicfile.Within(root, p); err != nil {
			return res, outcome.Refuse(budget.ReasonOutsideRoot, "%v; nothing was restored", err)
		}
	}
	wantDigest := ""
	if cur != nil {
		safety, err := Next(snapDir, rel, req.Today, req.Now)
		if err != nil {
			return res, budget.IOFailure(err)
		}
		if safety, err = TakeStored(snapDir, rel, safety, cur.Raw, req.Today, req.Now); err != nil {
			e := budget.IOFailure(err)
			e.Msg = fmt.Sprintf("safety snapshot of %s: %v; nothing was restored", rel, err)
			return res, e
		}
		res.SafetySnapshot = budget.SnapshotsRel + "/" + filepath.Base(safety)
		wantDigest = cur.Digest
	}
	if err := atomicfile.Replace(abs, snap.Raw, wantDigest); err != nil {
		// A refused restore leaves no safety snapshot: nothing changed.
		if res.SafetySnapshot != "" {
			os.Remove(filepath.Join(snapDir, filepath.Base(res.SafetySnapshot)))
			res.SafetySnapshot = ""
		}
		e := budget.IOFailure(err)
		e.Msg = fmt.Sprintf("%s: %v; the file was not changed", rel, err)
		return res, e
	}
	res.Status = StatusRestored
	return res, nil
}

// readSnapshot finds and reads the snapshot arg names: a path, or a name in
// the snapshots folder. It must lie directly in that folder.
func readSnapshot(root, snapDir, arg string) (string, *textfile.File, error) {
	path := arg
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) && !strings.ContainsAny(path, `/\`) {
		path = filepath.Join(snapDir, path)
	}
	rel, err := budget.Rel(root, path)
	prefix := budget.SnapshotsRel + "/"
	if err != nil || !strings.HasPrefix(rel, prefix) || strings.Contains(strings.TrimPrefix(rel, prefix), "/") {
		return "", nil, outcome.Refuse(ReasonNoSnapshot, "%s is not a snapshot in %s", arg, budget.SnapshotsRel)
	}
	if _, err := textfile.Read(path); errors.Is(err, fs.ErrNotExist) {
		return "", nil, outcome.Refuse(ReasonNoSnapshot, "no snapshot %s in %s", filepath.Base(path), budget.SnapshotsRel)
	} else if err != nil {
		return "", nil, &outcome.Error{Status: outcome.Refused, Reason: ReasonNoSnapshot, Msg: err.Error(), Err: err}
	}
	// A snapshot stored as the changes from an earlier one is rebuilt and
	// checked against its digest; one that does not rebuild is damaged.
	raw, err := Read(path)
	if err != nil {
		return "", nil, &outcome.Error{Status: outcome.Refused, Reason: ReasonDamaged, File: rel,
			Msg: fmt.Sprintf("%v; nothing was restored", err), Err: err}
	}
	snap := textfile.FromBytes(path, raw)
	// memcompact never writes an empty snapshot (an empty file is never
	// compacted), so an empty one is debris of a crash or a foreign tool:
	// restoring it would empty the file.
	if len(bytes.TrimSpace(snap.Raw)) == 0 {
		return "", nil, &outcome.Error{Status: outcome.Refused, Reason: ReasonDamaged, File: rel,
			Msg: fmt.Sprintf("the snapshot is empty (%d bytes), so it cannot be what the file held; nothing was restored", len(snap.Raw))}
	}
	return rel, snap, nil
}

// restoreTarget is the root-relative file a snapshot restores: to when
// given, else the one budgeted file whose base name the snapshot carries.
func restoreTarget(root, snapRel, base, to string) (string, error) {
	if to != "" {
		rel, err := budget.RelIn(root, to)
		if err != nil {
			return "", err
		}
		if budget.Excluded(rel) {
			return "", &outcome.Error{Status: outcome.Refused, Reason: budget.ReasonExcluded, File: rel, Msg: "files under compaction/ are never restored over"}
		}
		return rel, nil
	}
	p, _, err := budget.OpenPolicy(root)
	if err != nil {
		return "", err
	}
	files, _ := p.Files(root)
	var match []string
	for _, f := range files {
		if Base(f.Rel) == base {
			match = append(match, f.Rel)
		}
	}
	switch len(match) {
	case 0:
		return "", outcome.Refuse(ReasonNoTarget, "no budgeted file is named %s.md; which file does %s restore?", base, snapRel)
	case 1:
		return match[0], nil
	}
	return "", outcome.Refuse(ReasonAmbiguous, "%s could restore any of %s", snapRel, strings.Join(match, ", "))
}
