package journal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/crashpoint"
	"github.com/memcompact/memcompact/internal/lockfile"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/store"
	"github.com/memcompact/memcompact/internal/textfile"
)

// Reasons an undo is refused.
const (
	ReasonNoJournal   outcome.Reason = "no-journal"
	ReasonNoSnapshot  outcome.Reason = "no-snapshot"
	ReasonNotInSnap   outcome.Reason = "not-in-snapshot"
	ReasonNothingToDo outcome.Reason = "nothing-to-undo"
	ReasonChanged     outcome.Reason = "changed-underneath"
	ReasonUsage       outcome.Reason = "usage"
	ReasonOutside     outcome.Reason = "outside-store" // a write would leave the store through a symlink
	// ReasonNotRestored: some file asked for cannot be brought back (its
	// bytes were not kept, or the journal's copy cannot be read); the
	// error names each one, and what could be undone was.
	ReasonNotRestored outcome.Reason = "not-restored"
)

// UndoRequest names what to bring back: one removed entry (Entry), one
// file as a snapshot had it (File and At), or the whole store as it was
// at a snapshot (To).
type UndoRequest struct {
	Store   string      // the store folder or its MEMORY.md; "" for the current project's
	DataDir string      // memcompact's data directory; "" for DataDir's
	Where   store.Where // where the current project's store and the data directory are found
	Entry   string      // a removed entry file, by store path or name
	File    string      // a store path, with At
	At      string      // a snapshot ID, prefix, date or time ("" with Entry: the newest that had it)
	To      string      // a snapshot ID, prefix, date or time: the whole store
	// RemovedSince brings back every entry removed since that snapshot,
	// with its pointer lines, and changes nothing else.
	RemovedSince string
	// Confirm is asked with the result so far (its Plan) before anything
	// is written; nil or a false answer writes nothing (a dry run).
	Confirm func(*UndoResult) bool
	// Secret reports whether data holds a secret (the safety snapshot
	// keeps such a file's bytes out of the journal); nil for gitleaks'
	// rules and ours.
	Secret func([]byte) bool
	Now    func() time.Time
}

// Action is one file the undo writes.
type Action struct {
	Kind   string   `json:"kind"` // restore, delete, reindex
	Path   string   `json:"path"`
	Before int64    `json:"size_now"`
	After  int64    `json:"size_then"`
	Lines  []string `json:"pointer_lines,omitempty"` // reindex: the lines put back
	Note   string   `json:"note,omitempty"`

	data    []byte          // what to write (restore, reindex)
	current string          // digest of the bytes now ("" when absent)
	targets map[string]bool // reindex: what the index being built points at
}

// UndoPlan is what an undo will do.
type UndoPlan struct {
	// Mode is what was asked: to (the whole store), removed-since, entry
	// or file; Target the entry or file named.
	Mode     string   `json:"mode"`
	Target   string   `json:"target,omitempty"`
	Snapshot string   `json:"snapshot"` // the state brought back
	Actions  []Action `json:"actions"`
	Skipped  []string `json:"skipped"` // files that cannot be brought back, and why

	old *oldIndex // the snapshot's index, read and parsed once (planPointers)
	// unreadable names a file of the store itself (not of the journal)
	// the plan had to read and could not: the safety snapshot could not
	// keep it, so the undo is refused whole rather than done in part.
	unreadable string
}

// oldIndex is a snapshot's index as planPointers uses it, for every entry
// a plan brings back: one read and one parse, not one per entry.
type oldIndex struct {
	id      string
	ok      bool
	lines   []string
	ptrs    []Pointer
	targets map[int]string
}

// UndoResult is the plan and, when confirmed, what was done.
type UndoResult struct {
	Status string    `json:"status"` // planned, undone
	Plan   *UndoPlan `json:"plan"`
	// Safety is the snapshot of the store taken just before writing, so
	// the undo itself can be undone ('memcompact undo --to SAFETY').
	Safety string `json:"safety_snapshot,omitempty"`
	Store  string `json:"-"` // the store folder, as RunUndo found it
}

// RunUndo is undo: it plans and, when confirmed, performs an undo. The
// present is snapshotted first, every write re-checks the file's digest
// just before its atomic replace, and a file whose present bytes the
// journal could not store (a secret, too large) is never overwritten or
// deleted.
func RunUndo(ctx context.Context, req UndoRequest) (*UndoResult, error) {
	var err error
	if req.Store, req.DataDir, err = resolve("undo", req.Store, req.DataDir, req.Where); err != nil {
		return nil, err
	}
	if req.Secret == nil {
		req.Secret = containsSecret
	}
	j, err := open(req.DataDir, req.Store)
	if err != nil {
		return nil, err
	}
	if !j.exists() {
		return nil, outcome.Refuse(ReasonNoJournal, "the journal of %s is empty: nothing was ever recorded, so there is nothing to undo ('memcompact journal' records it; the hooks do at every session)", j.Store)
	}
	plan, err := j.plan(req)
	if err != nil {
		return nil, err
	}
	// Every path is checked against the store before a plan is shown: a
	// path named outside it is a usage error, one a symlink carries out
	// of it a refusal, and neither is ever planned.
	for _, a := range plan.Actions {
		if err := atomicfile.Within(j.Store, filepath.Join(j.Store, filepath.FromSlash(a.Path))); err != nil {
			return nil, &outcome.Error{Status: outcome.Refused, Reason: ReasonOutside, File: a.Path, Err: err,
				Msg: fmt.Sprintf("%v; nothing was changed", err)}
		}
	}
	switch {
	case req.Entry != "":
		plan.Mode, plan.Target = "entry", req.Entry
	case req.File != "":
		plan.Mode, plan.Target = "file", cleanRel(req.File)
	case req.RemovedSince != "":
		plan.Mode = "removed-since"
	default:
		plan.Mode = "to"
	}
	plan.dropNoOps()
	res := &UndoResult{Status: "planned", Plan: plan, Store: req.Store}
	if len(plan.Actions) == 0 && len(plan.Skipped) > 0 || plan.unreadable != "" {
		return res, notRestored(plan, "nothing was changed")
	}
	if len(plan.Actions) == 0 {
		return res, outcome.Refuse(ReasonNothingToDo, "nothing to undo: the store already matches snapshot %s for what was asked", plan.Snapshot)
	}
	if req.Confirm == nil || !req.Confirm(res) {
		return res, nil
	}
	// The store's lock keeps memcompact's other writers (a compaction, a
	// sweep, another undo) out from the safety snapshot to the last write.
	release, err := lockfile.Lock(ctx, j.Store)
	if err != nil {
		return res, err
	}
	defer release()
	// No write or removal lands outside the store through a symlinked
	// folder (or file) that appeared since the snapshot: refused before
	// anything is written.
	for _, a := range plan.Actions {
		if err := atomicfile.Within(j.Store, filepath.Join(j.Store, filepath.FromSlash(a.Path))); err != nil {
			return res, &outcome.Error{Status: outcome.Refused, Reason: ReasonOutside, File: a.Path, Err: err,
				Msg: fmt.Sprintf("%v; nothing was changed", err)}
		}
	}
	safe, err := Snapshot(ctx, SnapshotRequest{Store: req.Store, DataDir: req.DataDir, Cause: "pre-undo", Secret: req.Secret, Now: req.Now, Reread: true})
	if err != nil {
		return res, fmt.Errorf("cannot snapshot the store before the undo (nothing changed): %w", err)
	}
	res.Safety = safe.Manifest.ID
	crashpoint.At("undo.safety-taken")
	// The writes are one batch: each folder is scanned for debris and
	// synced once, not once per file (each file is still re-read and
	// checked against its digest just before its own atomic replace).
	batch := atomicfile.NewBatch()
	for _, a := range plan.Actions {
		if f := safe.Manifest.File(a.Path); f != nil && f.Withheld != "" {
			_ = batch.Sync()
			return res, outcome.Refuse(ReasonChanged, "%s: its present bytes could not be kept in the journal (%s), so the undo will not overwrite it; nothing more was changed", a.Path, f.Withheld)
		}
		if err := j.apply(batch, a); err != nil {
			_ = batch.Sync()
			return res, err
		}
		crashpoint.At("undo.file-written")
	}
	if err := batch.Sync(); err != nil {
		return res, fmt.Errorf("the undo wrote every file but could not sync the store's folders: %w", err)
	}
	res.Status = "undone"
	if len(plan.Skipped) > 0 {
		res.Status = "partly-undone"
		return res, notRestored(plan, fmt.Sprintf("the other %d file(s) were written", len(plan.Actions)))
	}
	return res, nil
}

// notRestored is the refusal naming every file the plan could not bring
// back, and why; done says what happened to the rest.
func notRestored(p *UndoPlan, done string) error {
	return &outcome.Error{Status: outcome.Refused, Reason: ReasonNotRestored,
		Msg: fmt.Sprintf("%d file(s) not restored: %s; %s", len(p.Skipped), strings.Join(p.Skipped, "; "), done)}
}

// plan works out the actions.
func (j *Journal) plan(req UndoRequest) (*UndoPlan, error) {
	modes := 0
	for _, s := range []string{req.Entry, req.File, req.To, req.RemovedSince} {
		if s != "" {
			modes++
		}
	}
	if modes != 1 {
		return nil, outcome.Usagef(ReasonUsage, "name one of --entry NAME, --file PATH --at SNAPSHOT, --removed-since SNAPSHOT or --to SNAPSHOT")
	}
	for _, named := range []string{req.Entry, req.File} {
		if named != "" && !filepath.IsLocal(filepath.FromSlash(cleanRel(named))) {
			return nil, outcome.Usagef(ReasonOutside, "%s is not a path inside the store %s: name a file as the store has it (e.g. project_auth.md); nothing was changed", named, j.Store)
		}
	}
	switch {
	case req.Entry != "":
		return j.planEntry(req.Entry, req.At)
	case req.File != "":
		if req.At == "" {
			return nil, outcome.Usagef(ReasonUsage, "--file needs --at SNAPSHOT: which state to bring it back to")
		}
		m, err := j.find(req.At)
		if err != nil {
			return nil, err
		}
		p := &UndoPlan{Snapshot: m.ID, Skipped: []string{}}
		j.planFile(p, m, cleanRel(req.File))
		return p, nil
	}
	if req.RemovedSince != "" {
		m, err := j.find(req.RemovedSince)
		if err != nil {
			return nil, err
		}
		return j.planRemovedSince(m)
	}
	m, err := j.find(req.To)
	if err != nil {
		return nil, err
	}
	return j.planStore(m)
}

// planRemovedSince brings back every entry m had that the store no longer
// has under any name (a renamed entry is not removed), with its pointers.
func (j *Journal) planRemovedSince(m *Manifest) (*UndoPlan, error) {
	p := &UndoPlan{Snapshot: m.ID, Skipped: []string{}}
	seen, err := walkStore(context.Background(), j.Store, nil)
	if err != nil {
		return nil, err
	}
	now := map[string]bool{}
	for _, f := range seen {
		now[f.Path] = true
	}
	present := &presentFiles{j: j, seen: seen}
	for _, f := range m.Files {
		if !isEntry(f.Path) {
			continue
		}
		if now[f.Path] { // still here: bring back only a pointer it lost
			j.planPointers(p, m, f.Path)
			continue
		}
		if f.Digest != "" && present.has(f) {
			continue
		}
		j.planFile(p, m, f.Path)
		j.planPointers(p, m, f.Path)
	}
	return p, nil
}

// presentFiles answers whether the store holds a file's bytes under
// another name (a rename, not a removal), reading each store file of a
// size asked about once (a consolidation removes hundreds of entries of
// the same few sizes).
type presentFiles struct {
	j      *Journal
	seen   []File
	bySize map[int64]map[string]bool // digests of the store's files, by size, once read
}

func (pf *presentFiles) has(f File) bool {
	if pf.bySize == nil {
		pf.bySize = map[int64]map[string]bool{}
	}
	ds, ok := pf.bySize[f.Size]
	if !ok {
		ds = map[string]bool{}
		for _, g := range pf.seen {
			if g.Size != f.Size {
				continue
			}
			if raw, err := readStoreFile(filepath.Join(pf.j.Store, filepath.FromSlash(g.Path))); err == nil {
				ds[textfile.Digest(raw)] = true
			}
		}
		pf.bySize[f.Size] = ds
	}
	return ds[f.Digest]
}

// find is lookup, a snapshot not found being a refusal.
func (j *Journal) find(ref string) (*Manifest, error) {
	m, err := j.lookup(ref)
	if err != nil {
		return nil, &outcome.Error{Status: outcome.Refused, Reason: ReasonNoSnapshot, Msg: err.Error()}
	}
	return m, nil
}

// cleanRel turns a user's path into a store path.
func cleanRel(p string) string {
	return strings.TrimPrefix(path.Clean(filepath.ToSlash(p)), "./")
}

// planEntry brings back one entry file and its pointer lines.
func (j *Journal) planEntry(name, at string) (*UndoPlan, error) {
	want := cleanRel(name)
	if !strings.HasSuffix(strings.ToLower(want), ".md") {
		want += ".md"
	}
	var m *Manifest
	if at != "" {
		var err error
		if m, err = j.find(at); err != nil {
			return nil, err
		}
	} else {
		ms, _, err := j.manifests()
		if err != nil {
			return nil, err
		}
		for i := len(ms) - 1; i >= 0 && m == nil; i-- {
			if f := ms[i].File(want); f != nil && f.Withheld == "" {
				m = ms[i]
			}
		}
	}
	if m == nil || m.File(want) == nil {
		return nil, outcome.Refuse(ReasonNotInSnap, "no snapshot holds %s ('memcompact history' shows what the journal saw)", want)
	}
	p := &UndoPlan{Snapshot: m.ID, Skipped: []string{}}
	j.planFile(p, m, want)
	j.planPointers(p, m, want)
	return p, nil
}

// planFile adds the action that makes one file as m has it.
func (j *Journal) planFile(p *UndoPlan, m *Manifest, rel string) {
	abs := filepath.Join(j.Store, filepath.FromSlash(rel))
	now, nowErr := readStoreFile(abs)
	present := nowErr == nil
	cur := ""
	if present {
		cur = textfile.Digest(now)
	}
	f := m.File(rel)
	switch {
	case f == nil && !present:
		return
	case f == nil:
		p.Actions = append(p.Actions, Action{Kind: "delete", Path: rel, Before: int64(len(now)), current: cur})
	case f.Withheld != "":
		p.Skipped = append(p.Skipped, fmt.Sprintf("%s: its bytes were not kept (%s)", rel, f.Withheld))
	case present && cur == f.Digest:
		return
	default:
		data, err := j.object(f.Digest)
		if err != nil {
			p.Skipped = append(p.Skipped, fmt.Sprintf("%s: %v", rel, err))
			return
		}
		p.Actions = append(p.Actions, Action{Kind: "restore", Path: rel, Before: int64(len(now)), After: f.Size, data: data, current: cur})
	}
}

// planStore makes every file as m has it.
func (j *Journal) planStore(m *Manifest) (*UndoPlan, error) {
	p := &UndoPlan{Snapshot: m.ID, Skipped: []string{}}
	seen, err := walkStore(context.Background(), j.Store, nil)
	if err != nil {
		return nil, err
	}
	paths := map[string]bool{}
	for _, f := range m.Files {
		paths[f.Path] = true
		j.planFile(p, m, f.Path)
	}
	for _, f := range seen {
		if !paths[f.Path] {
			j.planFile(p, m, f.Path)
		}
	}
	return p, nil
}

// planPointers puts back the pointer lines m's index had for target, each
// after the nearest line before it that the index still has (else at the
// end), unless the index already points at target.
func (j *Journal) planPointers(p *UndoPlan, m *Manifest, target string) {
	if p.old == nil || p.old.id != m.ID {
		p.old = &oldIndex{id: m.ID}
		if old, ok := j.text(m, IndexName); ok {
			p.old.ok, p.old.lines, p.old.ptrs = true, textfile.Lines(old), pointers(old)
			p.old.targets = targetsByLine(strings.Join(p.old.lines, "\n"))
		}
	}
	if !p.old.ok {
		return
	}
	a := p.reindex(j)
	if a == nil {
		return
	}
	if a.targets == nil {
		a.targets = map[string]bool{}
		for _, ptr := range pointers(string(a.data)) {
			a.targets[ptr.Target] = true
		}
	}
	if a.targets[target] {
		return
	}
	var put []Pointer
	for _, ptr := range p.old.ptrs {
		if ptr.Target == target {
			put = append(put, ptr)
		}
	}
	if len(put) == 0 {
		return
	}
	a.data = []byte(insertLines(textfile.SplitKeep(string(a.data)), p.old.lines, p.old.targets, put))
	a.After = int64(len(a.data))
	a.targets[target] = true
	for _, ptr := range put {
		a.Lines = append(a.Lines, ptr.Text)
	}
}

// dropNoOps removes an index action that changes nothing (every pointer
// it would bring back is already there).
func (p *UndoPlan) dropNoOps() {
	kept := make([]Action, 0, len(p.Actions))
	for _, a := range p.Actions {
		if a.Kind == "reindex" && textfile.Digest(a.data) == a.current {
			continue
		}
		kept = append(kept, a)
	}
	p.Actions = kept
}

// reindex returns the plan's one index action, adding it (with the index's
// present text) on first use. Several entries brought back edit it in turn.
func (p *UndoPlan) reindex(j *Journal) *Action {
	for i := range p.Actions {
		if p.Actions[i].Kind == "reindex" {
			return &p.Actions[i]
		}
	}
	raw, err := readStoreFile(filepath.Join(j.Store, IndexName))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		p.Skipped = append(p.Skipped, fmt.Sprintf("%s: %v", IndexName, err))
		p.unreadable = IndexName
		return nil
	}
	a := Action{Kind: "reindex", Path: IndexName, Before: int64(len(raw)), After: int64(len(raw)), data: raw}
	if err == nil {
		a.current = textfile.Digest(raw)
	}
	p.Actions = append(p.Actions, a)
	return &p.Actions[len(p.Actions)-1]
}

// insertLines inserts each pointer line of the old index after the nearest
// earlier old line that cur still holds — the same text, or a pointer to
// the same target however its hook was reworded — or at the end.
func insertLines(cur []string, oldLines []string, oldTargets map[int]string, put []Pointer) string {
	eol := "\n"
	if len(cur) > 0 && strings.HasSuffix(cur[0], "\r\n") {
		eol = "\r\n"
	}
	if n := len(cur); n > 0 && !strings.HasSuffix(cur[n-1], "\n") && !strings.HasSuffix(cur[n-1], "\r") {
		cur[n-1] += eol
	}
	// A line's target depends on its text alone: each distinct line is
	// parsed once, not once per pointer put back (1,500 pointers put
	// back into a 3,500-line index parsed five million lines).
	memo := map[string]string{}
	for _, ptr := range put {
		at := len(cur)
		for k := ptr.Line - 2; k >= 0; k-- {
			if strings.TrimSpace(oldLines[k]) == "" {
				continue
			}
			if i := anchor(cur, oldLines[k], oldTargets[k+1], memo); i >= 0 {
				at = i + 1
				break
			}
		}
		cur = append(cur[:at], append([]string{ptr.Text + eol}, cur[at:]...)...)
	}
	return strings.Join(cur, "")
}

// targetsByLine maps each pointer line (1-based) to its first target.
func targetsByLine(text string) map[int]string {
	out := map[int]string{}
	for _, p := range pointers(text) {
		if _, ok := out[p.Line]; !ok {
			out[p.Line] = p.Target
		}
	}
	return out
}

// anchor finds the line of cur that is want, or that points at target;
// memo keeps each line's target (by its text) from one call to the next.
func anchor(cur []string, want, target string, memo map[string]string) int {
	for i, l := range cur {
		if strings.TrimRight(l, "\r\n") == want {
			return i
		}
	}
	if target == "" {
		return -1
	}
	for i, l := range cur {
		t, ok := memo[l]
		if !ok {
			t = targetsByLine(strings.TrimRight(l, "\r\n"))[1]
			memo[l] = t
		}
		if t == target {
			return i
		}
	}
	return -1
}

// apply performs one action: the file's digest is re-checked just before
// the atomic replace (or the removal), so an edit made since the plan is
// never overwritten.
func (j *Journal) apply(batch *atomicfile.Batch, a Action) error {
	abs := filepath.Join(j.Store, filepath.FromSlash(a.Path))
	switch a.Kind {
	case "delete":
		if err := atomicfile.Unchanged(abs, a.current); err != nil {
			return changed(a.Path, err)
		}
		return os.Remove(abs)
	default:
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			return err
		}
		if err := batch.Replace(abs, a.data, a.current); err != nil {
			return changed(a.Path, err)
		}
		return nil
	}
}

func changed(p string, err error) error {
	if errors.Is(err, atomicfile.ErrChanged) {
		return &outcome.Error{Status: outcome.Refused, Reason: ReasonChanged, File: p, Msg: "changed since the undo was planned; nothing more was written (run the undo again to plan against it)", Err: err}
	}
	return err
}
