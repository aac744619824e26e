package journal

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/filecache"
	"github.com/memcompact/memcompact/internal/textfile"
)

// HookRequest is what the Claude Code hooks give the journal.
type HookRequest struct {
	Store   string // the store folder
	DataDir string
	Session string
	Secret  func([]byte) bool
	Now     func() time.Time
	// Stats is the run's stat of each file, shared with the hook's other
	// parts; nil: stat here.
	Stats *filecache.Stats
	// Reads is the run's read of each file, shared likewise; nil: read
	// here.
	Reads *textfile.Reads
	// Retention is what a session start prunes to when the journal passes
	// its cap (zero: the default, 256 MiB).
	Retention Retention
	// Background lets a session start whose snapshot cannot finish
	// within its context's deadline finish it in a detached child of
	// this executable (background.go); otherwise the store is journaled
	// in parts, one at each session start.
	Background bool
}

// SessionStart records the store as a session begins and what the session
// is shown of the index, and returns the lines for the agent, most urgent
// first: the store lost entries since the previous session; files are
// kept out of the journal (no undo can bring them back). Errors are for
// the caller to report on stderr; the hook never fails on them.
func SessionStart(ctx context.Context, req HookRequest) ([]string, error) {
	j, err := open(req.DataDir, req.Store)
	if err != nil {
		return nil, err
	}
	notes, background, err := j.sessionStart(ctx, req)
	if err != nil || background {
		// A background snapshot holds the lock shared for longer than
		// the hook has: prune (which holds it alone) waits for a session
		// start after it.
		return notes, err
	}
	// Past its cap, the journal is pruned in what is left of the hook's
	// budget (a prune cut short removes what it got to; the next session
	// start goes on).
	now := time.Now
	if req.Now != nil {
		now = req.Now
	}
	if _, perr := j.maybePrune(ctx, req.Retention, now); perr != nil && ctx.Err() == nil {
		return notes, fmt.Errorf("the journal passed its cap and could not be pruned: %w", perr)
	}
	return notes, nil
}

// A session start that may finish in the background keeps back a third
// of its time, at least 250 ms, for committing its part, starting the
// background run and its notes: at load 15 on 100,000 files a part's
// commit (a pack, a manifest, their fsyncs on a busy disk) ran 250 ms past
// the snapshot's deadline with a sixth kept back, and 1 s with a sixth
// while another process wrote the disk.
const (
	backgroundReserveMin   = 250 * time.Millisecond
	backgroundReserveShare = 3
)

// sessionStart is SessionStart's snapshot and notes, the journal's lock
// held shared; background says a background snapshot is at work.
func (j *Journal) sessionStart(ctx context.Context, req HookRequest) (notes []string, background bool, err error) {
	release, err := j.lock(ctx, true)
	if err != nil {
		return nil, false, err
	}
	defer release()
	// The session's view of the index is staged while the snapshot's
	// objects are synced and named with its manifest once they are
	// durable (the durable writes wait for the disk together), or, when
	// the snapshot writes nothing, recorded after it.
	saw := false
	stage := func() *stagedView {
		saw = true
		f, err := req.Reads.Read(filepath.Join(req.Store, IndexName))
		if err != nil {
			return nil
		}
		v, _ := j.stageView(req.Session, f.Raw, f.Digest)
		return v
	}
	// What a background snapshot started by an earlier session start
	// did: while it is at work, this session start records nothing more
	// (it would read what the background run reads); once it has ended,
	// the note says how, and this session start goes on.
	var after []string
	if st := j.readBackground(); st != nil {
		if st.alive(wallClock()) {
			_ = stage().commit()
			return []string{backgroundNote(st, wallClock())}, true, nil
		}
		after = append(after, backgroundNote(st, wallClock()))
		os.Remove(j.bgPath())
	}
	snapCtx := ctx
	if dl, ok := ctx.Deadline(); ok && req.Background {
		// What the snapshot cannot finish goes to the background: the
		// hook keeps back part of its time for starting that run and
		// for its notes, so it returns within its budget even when the
		// part's commit waits long for the disk.
		reserve := max(backgroundReserveMin, time.Until(dl)/backgroundReserveShare)
		var cancel context.CancelFunc
		snapCtx, cancel = context.WithDeadline(ctx, dl.Add(-reserve))
		defer cancel()
	}
	res, err := j.snapshot(snapCtx, SnapshotRequest{Store: req.Store, DataDir: req.DataDir, Cause: "session-start", Session: req.Session, Secret: req.Secret, Now: req.Now, Stats: req.Stats, Reads: req.Reads, besideManifest: stage})
	var stopped *stoppedError
	if err != nil && req.Background && errors.As(err, &stopped) {
		// Out of time before any part could be committed: the whole
		// snapshot is the background run's.
		if berr := j.startBackground(req, stopped.left, stopped.total, wallClock()); berr == nil {
			_ = stage().commit()
			note := inBackgroundNote(-1, stopped.total, stopped.left)
			if prev, _ := j.latest(); prev != nil && !prev.Partial {
				// A store journaled before: only what changed since its
				// newest snapshot waits for the background run.
				note = fmt.Sprintf("the journal is recording this store's current state in the background (its %d files could not be walked and read within the hook's time); every snapshot up to %s can be undone now, the changes since then once it finishes", len(prev.Files), prev.ID)
			}
			return append([]string{note}, after...), true, nil
		}
	}
	if err != nil {
		return after, false, err
	}
	if !saw {
		// Nothing was written (an unchanged store): the newest snapshot,
		// durable, names the index the session sees, so its view names
		// an object stored already; without this each unchanged session
		// start read back (or, the first time, stored a second, loose
		// copy of) the whole index.
		j.markStored(res.Manifest)
		_ = stage().commit()
	}
	if res.Partial {
		left := res.Total - len(res.Manifest.Files)
		if req.Background {
			if berr := j.startBackground(req, left, res.Total, wallClock()); berr == nil {
				return append([]string{inBackgroundNote(len(res.Manifest.Files), res.Total, left)}, after...), true, nil
			}
		}
		return append([]string{fmt.Sprintf("the journal has recorded %d of this store's %d files so far: a store this large is journaled in parts, one at each session start, within the hook's time; until it is whole, a file not yet recorded cannot be undone", len(res.Manifest.Files), res.Total)}, after...), false, nil
	}
	cur := res.Manifest
	if res.Unchanged {
		// Nothing was written: the store is as the newest snapshot has it,
		// and this session starts from that state, just after it.
		v := *cur
		v.ID, v.Cause, v.Session = cur.ID+"~", "session-start", req.Session
		cur = &v
	}
	st, err := j.sinceLastSession(cur)
	if err == nil && st != nil {
		if n := deletionNote(st, j.byUndo(st)); n != "" {
			notes = append(notes, n)
		}
	}
	var kept []File
	for _, f := range res.Withheld {
		if f.Withheld != "vanished" {
			kept = append(kept, f)
		}
	}
	if n := UnprotectedNote(kept); n != "" {
		notes = append(notes, n)
	}
	return append(notes, after...), false, err
}

// inBackgroundNote is the note of a session start that left left of the
// store's total files to a background snapshot, having recorded done
// (-1: nothing committed; total 0 or left -1: not counted yet).
func inBackgroundNote(done, total, left int) string {
	what := "this store's files"
	if left >= 0 {
		what = fmt.Sprintf("%d files", left)
	}
	so := "no file of it can be undone"
	if done > 0 {
		so = "a file not yet recorded cannot be undone"
		return fmt.Sprintf("the journal has recorded %d of this store's %d files so far and is journaling %s in the background (a store this large cannot be read within the hook's time); until that finishes, %s", done, total, what, so)
	}
	return fmt.Sprintf("the journal is journaling %s in the background (a store this large cannot be read within the hook's time); until that finishes, %s", what, so)
}

// deletionNote is the line that reports a step's mass removal or
// unrecorded index drop, with the commands that reverse it: the entries
// alone, or the whole store as it was (every other change of the step
// too: truncations, reworded hooks, merges); "" when the step has
// neither. byUndo says the removal was an undo's (one undoing an earlier
// undo), not another writer's.
func deletionNote(st *Step, byUndo bool) string {
	var removed []string
	for _, c := range st.Changes {
		if c.Kind == "removed" && isEntry(c.Path) {
			removed = append(removed, shown(c.Path))
		}
	}
	for _, w := range st.Warnings {
		if w.Kind != "mass-removal" && w.Kind != "unrecorded-index-drop" {
			continue
		}
		what := fmt.Sprintf("%d pointer(s) left MEMORY.md with no exit recorded", len(st.Dropped))
		if len(removed) > 0 {
			what = fmt.Sprintf("%d entr%s deleted (%s)", len(removed), map[bool]string{true: "y was", false: "ies were"}[len(removed) == 1], strings.Join(most(removed, 5), ", "))
		}
		who := "by something other than this session"
		if byUndo {
			who = "by 'memcompact undo' (an undo run since, such as one undoing an earlier undo)"
		}
		all := ""
		if others := otherChanges(st, len(removed)); others != "" {
			all = fmt.Sprintf("; to put the whole store back as it was, also undoing %s: %s --yes", others, w.UndoAll)
		}
		return fmt.Sprintf("since the last session %s, %s. If that was not intended, tell the user; to bring back the deleted entries and their pointers: %s --yes%s", what, who, w.Undo, all)
	}
	return ""
}

// otherChanges says what else st changed besides the removed entries it
// names: files changed, added or renamed (the index among them) and
// hooks reworded or stripped; "" when nothing.
func otherChanges(st *Step, removed int) string {
	var parts []string
	if n := len(st.Changes) - removed; n > 0 {
		parts = append(parts, fmt.Sprintf("%d other file change(s)", n))
	}
	if n := len(st.Reworded); n > 0 {
		parts = append(parts, fmt.Sprintf("%d reworded or stripped hook(s) in MEMORY.md", n))
	}
	return strings.Join(parts, " and ")
}

// byUndo reports whether every entry st removed was removed by an undo:
// in a step, between st's snapshots, that begins at a pre-undo snapshot
// (the state an undo saved before it wrote).
func (j *Journal) byUndo(st *Step) bool {
	ms, _, err := j.manifests()
	if err != nil {
		return false
	}
	var span []*Manifest
	for _, m := range ms {
		if m.ID >= st.From && m.ID <= strings.TrimSuffix(st.To, "~") {
			span = append(span, m)
		}
	}
	undone := map[string]bool{}
	some := false
	for i := 0; i+1 < len(span); i++ {
		if span[i].Cause != "pre-undo" {
			continue
		}
		for _, c := range fileChanges(span[i], span[i+1], "") {
			if c.Kind == "removed" {
				undone[c.Path] = true
			}
		}
	}
	for _, c := range st.Changes {
		if c.Kind == "removed" && isEntry(c.Path) {
			some = true
			if !undone[c.Path] {
				return false
			}
		}
	}
	return some
}

// BeforeWrite runs before an agent writes a memory file: for the index, it
// returns the lines the write would remove that another writer added since
// this session last saw the index (non-empty: the write is based on a
// stale copy); then it records the store's state, so the write has a
// before-state to undo to.
func BeforeWrite(ctx context.Context, req HookRequest, w *IndexWrite) (clobbered []string, err error) {
	if _, err := os.Stat(req.Store); errors.Is(err, fs.ErrNotExist) {
		// The store's first write (Claude Code makes its folder with
		// it): there is nothing yet to record, and nothing to clobber.
		return nil, nil
	}
	j, err := open(req.DataDir, req.Store)
	if err != nil {
		return nil, err
	}
	if w != nil {
		clobbered = j.clobbered(req.Session, w.Current, w.Proposed)
	}
	_, err = Snapshot(ctx, SnapshotRequest{Store: req.Store, DataDir: req.DataDir, Cause: "pre-write", Session: req.Session, Secret: req.Secret, Now: req.Now, Stats: req.Stats})
	return clobbered, err
}

// IndexWrite is a write of the index: the file's bytes before it and the
// bytes it would leave, each held in a string (read as text, without a
// copy, when the bytes are valid text).
type IndexWrite struct{ Current, Proposed string }

// AfterAllow records that the session wrote the index as proposed (w; nil
// for a write of another file), so its own writes are never mistaken for
// another writer's.
func AfterAllow(ctx context.Context, req HookRequest, w *IndexWrite) error {
	if w == nil {
		return nil
	}
	return seeIndexLocked(ctx, req, []byte(w.Proposed))
}

// seeIndexLocked records that the session knows the index as text, the
// journal's lock held shared (waiting for a prune until ctx ends: the
// hook's own budget for the journal).
func seeIndexLocked(ctx context.Context, req HookRequest, text []byte) error {
	if req.Session == "" {
		return nil
	}
	j, err := open(req.DataDir, req.Store)
	if err != nil {
		return err
	}
	release, err := j.lock(ctx, true)
	if err != nil {
		return err
	}
	defer release()
	return j.seeIndex(req.Session, text)
}

// SawIndex records that the session has just read the index whole (raw,
// its bytes on disk), so a write it bases on that read is judged against
// it: a session denied for a stale copy re-reads the index, as the denial
// tells it to, and its next write must not be denied again for lines it
// has now seen.
func SawIndex(ctx context.Context, req HookRequest, raw []byte) error {
	return seeIndexLocked(ctx, req, raw)
}

// ClobberReason is the text the agent reads when its write is denied for
// being based on a stale copy of the index.
func ClobberReason(lines []string) string {
	return fmt.Sprintf("MEMORY.md changed since this session last read it (another session or a background consolidation wrote it), and this write would remove %d line(s) that change added: %s. Re-read MEMORY.md, merge your change into its current text, and write again.",
		len(lines), strings.Join(most(quoteAll(lines), 5), "; "))
}

func quoteAll(ls []string) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = fmt.Sprintf("%q", l)
	}
	return out
}
