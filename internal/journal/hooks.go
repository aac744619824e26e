package journal

import (
	"context"
	"fmt"
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
	notes, err := j.sessionStart(ctx, req)
	if err != nil {
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

// sessionStart is SessionStart's snapshot and notes, the journal's lock
// held shared.
func (j *Journal) sessionStart(ctx context.Context, req HookRequest) ([]string, error) {
	release, err := j.lock(ctx, true)
	if err != nil {
		return nil, err
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
	res, err := j.snapshot(ctx, SnapshotRequest{Store: req.Store, DataDir: req.DataDir, Cause: "session-start", Session: req.Session, Secret: req.Secret, Now: req.Now, Stats: req.Stats, Reads: req.Reads, besideManifest: stage})
	if err != nil {
		return nil, err
	}
	if !saw {
		if res.Unchanged {
			// The newest snapshot names the index, so its object is
			// durable (a manifest names only durable objects): the view
			// needs no second read, check and sync of it.
			if f := res.Manifest.File(IndexName); f != nil && f.Digest != "" && f.Withheld == "" {
				j.noteStored(f.Digest)
			}
		}
		_ = stage().commit()
	}
	var notes []string
	if res.Partial {
		return []string{fmt.Sprintf("the journal has recorded %d of this store's %d files so far: a store this large is journaled in parts, one at each session start, within the hook's time; until it is whole, a file not yet recorded cannot be undone", len(res.Manifest.Files), res.Total)}, nil
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
	return notes, err
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
func BeforeWrite(ctx context.Context, req HookRequest, path string, current, proposed []byte) (clobbered []string, err error) {
	j, err := open(req.DataDir, req.Store)
	if err != nil {
		return nil, err
	}
	if filepath.Base(path) == IndexName && proposed != nil {
		clobbered = j.clobbered(req.Session, current, proposed)
	}
	_, err = Snapshot(ctx, SnapshotRequest{Store: req.Store, DataDir: req.DataDir, Cause: "pre-write", Session: req.Session, Secret: req.Secret, Now: req.Now, Stats: req.Stats})
	return clobbered, err
}

// AfterAllow records that the session wrote the index as proposed, so its
// own writes are never mistaken for another writer's.
func AfterAllow(ctx context.Context, req HookRequest, path string, proposed []byte) error {
	if filepath.Base(path) != IndexName || proposed == nil {
		return nil
	}
	return seeIndexLocked(ctx, req, proposed)
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
