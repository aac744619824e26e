package journal

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/memcompact/memcompact/internal/lazyre"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/shellword"
	"github.com/memcompact/memcompact/internal/store"
	"github.com/memcompact/memcompact/internal/textfile"
)

// IndexName is the file Claude Code loads at session start.
const IndexName = "MEMORY.md"

// recordFiles are the store's own records, not entries.
var recordFiles = map[string]bool{IndexName: true, "LEDGER.md": true, "SLATE.md": true, "ARCHIVE.md": true, "POLICY.md": true}

// isEntry reports whether a store path is an entry file.
func isEntry(p string) bool {
	return strings.EqualFold(path.Ext(p), ".md") && !recordFiles[p]
}

// Change is one file's difference between two snapshots.
type Change struct {
	Kind   string `json:"kind"` // added, removed, renamed, changed
	Path   string `json:"path"`
	From   string `json:"from,omitempty"` // the old path of a rename
	Before int64  `json:"size_before"`
	After  int64  `json:"size_after"`
}

// Pointer is one pointer line of the index.
type Pointer struct {
	Line   int    `json:"line"`
	Target string `json:"target"`
	Text   string `json:"text"`
	// name is the entry name its link names (records.LinkName), which
	// the ledger's records carry.
	name string
}

// Reworded is a pointer line whose target stayed but whose words changed:
// its recall hook reworded, or stripped (nothing left after the link).
type Reworded struct {
	Target   string `json:"target"`
	Before   string `json:"before"`
	After    string `json:"after"`
	Stripped bool   `json:"stripped"`
}

// Warning is a dangerous pattern history found, with the command that
// reverses it ("" when none can: the bytes were kept out of the journal).
type Warning struct {
	Kind     string `json:"kind"` // mass-removal, unrecorded-index-drop, content-collapse
	Snapshot string `json:"snapshot"`
	Time     string `json:"time"`
	Message  string `json:"message"`
	Undo     string `json:"undo"`
	// UndoAll puts the whole store back as it was before the step: also
	// the truncations, rewordings and merges a removal came with.
	UndoAll string `json:"undo_all,omitempty"`
	// Paths are the files (or, for an index drop, the pointer targets)
	// the warning is about: once each is back as it was, the warning is
	// resolved and no longer reported.
	Paths []string `json:"paths"`
	// Digests are, for a collapse, the file's digest before it.
	Digest string `json:"-"`
}

// Step is what changed from one snapshot to the next.
type Step struct {
	From     string     `json:"from"`
	To       string     `json:"to"`
	Time     string     `json:"time"`
	Cause    string     `json:"cause"`
	Changes  []Change   `json:"changes"`
	Dropped  []Pointer  `json:"pointers_dropped"`
	Added    []Pointer  `json:"pointers_added"`
	Reworded []Reworded `json:"pointers_reworded"`
	Warnings []Warning  `json:"warnings"`
}

// HistoryRequest asks what changed in a store.
type HistoryRequest struct {
	Store   string      // the store folder or its MEMORY.md; "" for the current project's
	DataDir string      // memcompact's data directory; "" for DataDir's
	Where   store.Where // where the current project's store and the data directory are found
	Since   string      // a snapshot, a date, an RFC 3339 time or a duration ("7d", "36h"); "" for all
	File    string      // only changes to this store path (either slash)
	Now     func() time.Time
}

// HistoryResult is every step with a change, oldest first.
type HistoryResult struct {
	Journal   string    `json:"journal"`
	Store     string    `json:"store"`
	Snapshots int       `json:"snapshots"`
	Steps     []Step    `json:"steps"`
	Warnings  []Warning `json:"warnings"`
	Unread    []string  `json:"unreadable_manifests"`
	// Unprotected are the files the newest snapshot lists without their
	// bytes (a secret, too large): no undo can bring them back.
	Unprotected []File `json:"unprotected"`
	// UnreadPacks are the packs nothing could be read from (a torn write,
	// damage no frame survived, another version's format), and why.
	UnreadPacks []string `json:"unreadable_packs"`
}

// RunHistory is history: it compares consecutive snapshots and reports
// the steps that changed something, with warnings for mass removals, index
// rewrites that dropped pointers with no exit recorded, and files that
// lost most of their content.
func RunHistory(ctx context.Context, req HistoryRequest) (*HistoryResult, error) {
	now := time.Now
	if req.Now != nil {
		now = req.Now
	}
	j, _, _, err := resolveOpen("history", req.Store, req.DataDir, req.Where)
	if err != nil {
		return nil, err
	}
	if req.File != "" && !filepath.IsLocal(filepath.FromSlash(cleanRel(req.File))) {
		// As undo: a path outside the store is never one of its files,
		// and an empty history would say it never changed.
		return nil, outcome.Usagef(ReasonOutside, "%s is not a path inside the store %s: name a file as the store has it (e.g. project_auth.md)", req.File, j.Store)
	}
	req.File = filepath.ToSlash(req.File)
	ms, bad, err := j.manifests()
	if err != nil {
		return nil, err
	}
	res := &HistoryResult{Journal: j.Dir, Store: j.Store, Snapshots: len(ms), Unread: bad}
	since, err := j.sinceTime(req.Since, ms, now())
	if err != nil {
		return nil, err
	}
	for i := 1; i < len(ms); i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if ms[i].Time.Before(since) {
			continue
		}
		st := j.step(ms[i-1], ms[i], req.File)
		if st.empty() {
			continue
		}
		res.Steps = append(res.Steps, st)
		res.Warnings = append(res.Warnings, st.Warnings...)
	}
	if len(ms) > 0 {
		newest := ms[len(ms)-1]
		live, err := j.liveManifest(ctx, newest)
		if err != nil {
			return nil, err
		}
		j.liveStep(res, newest, live, req.File, now())
		res.Warnings = j.unresolved(res.Warnings, live)
		for _, f := range newest.Files {
			if f.Withheld != "" && f.Withheld != "vanished" {
				res.Unprotected = append(res.Unprotected, f)
			}
		}
		j.packs()
		for _, t := range j.tornList {
			res.UnreadPacks = append(res.UnreadPacks, t.why)
		}
		for _, f := range j.foreign {
			res.UnreadPacks = append(res.UnreadPacks, f+": not a pack this version of memcompact reads")
		}
	}
	return res, nil
}

// empty reports whether the step changed nothing history shows.
func (st *Step) empty() bool {
	return len(st.Changes) == 0 && len(st.Dropped) == 0 && len(st.Added) == 0 && len(st.Reworded) == 0
}

// unresolved drops the warnings whose harm is undone in the store as it
// is now (live): every entry a removal took is back, every pointer an
// index drop took is back, the collapsed file holds its old bytes again.
func (j *Journal) unresolved(ws []Warning, live *Manifest) []Warning {
	var targets map[string]bool
	out := []Warning{}
	for _, w := range ws {
		resolved := len(w.Paths) > 0
		for _, p := range w.Paths {
			switch w.Kind {
			case "unrecorded-index-drop":
				if targets == nil {
					targets = map[string]bool{}
					if t, ok := j.text(live, IndexName); ok {
						for _, ptr := range pointers(t) {
							targets[ptr.Target] = true
						}
					}
				}
				resolved = resolved && targets[p]
			case "content-collapse":
				f := live.File(p)
				resolved = resolved && f != nil && f.Digest == w.Digest
			default:
				resolved = resolved && live.File(p) != nil
			}
		}
		if !resolved {
			out = append(out, w)
		}
	}
	return out
}

// liveStep adds the step from the newest snapshot to the store as it is
// now (live), when something changed since: a deletion the hooks have not
// yet journaled is what a user running history after a surprise most
// needs to see. Nothing is recorded; the step's To is "now".
func (j *Journal) liveStep(res *HistoryResult, newest, live *Manifest, only string, now time.Time) {
	live.Time, live.Cause = now, "the store now (not yet journaled)"
	st := j.step(newest, live, only)
	if st.empty() {
		return
	}
	for i := range st.Warnings {
		st.Warnings[i].Snapshot = "now"
	}
	res.Steps = append(res.Steps, st)
	res.Warnings = append(res.Warnings, st.Warnings...)
}

// sinceTime reads --since.
func (j *Journal) sinceTime(s string, ms []*Manifest, now time.Time) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if d, ok := parseAge(s); ok {
		return now.Add(-d), nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if t, ok := textfile.ParseLocalDate(s); ok {
		return t, nil
	}
	for _, m := range ms {
		if strings.HasPrefix(m.ID, s) {
			return m.Time, nil
		}
	}
	return time.Time{}, outcome.Usagef(ReasonUsage, "--since %q is not a snapshot, a date (YYYY-MM-DD), a time (RFC 3339) or an age (7d, 36h)", s)
}

// parseAge reads "7d", "2w", "36h", "90m".
func parseAge(s string) (time.Duration, bool) {
	if len(s) < 2 {
		return 0, false
	}
	unit := s[len(s)-1]
	var n int
	if _, err := fmt.Sscanf(s[:len(s)-1], "%d", &n); err != nil || n < 0 || fmt.Sprint(n) != s[:len(s)-1] {
		return 0, false
	}
	switch unit {
	case 'm':
		return time.Duration(n) * time.Minute, true
	case 'h':
		return time.Duration(n) * time.Hour, true
	case 'd':
		return time.Duration(n) * 24 * time.Hour, true
	case 'w':
		return time.Duration(n) * 7 * 24 * time.Hour, true
	}
	return 0, false
}

// step compares two snapshots.
func (j *Journal) step(a, b *Manifest, only string) Step {
	st := Step{From: a.ID, To: b.ID, Time: b.Time.Format(time.RFC3339), Cause: b.Cause,
		Changes: []Change{}, Dropped: []Pointer{}, Added: []Pointer{}, Reworded: []Reworded{}, Warnings: []Warning{}}
	st.Changes = fileChanges(a, b, only)
	st.Dropped, st.Added, st.Reworded = j.pointerChanges(a, b)
	if only != "" && only != IndexName {
		st.Dropped, st.Added = pointersTo(st.Dropped, only), pointersTo(st.Added, only)
		kept := []Reworded{}
		for _, r := range st.Reworded {
			if r.Target == only {
				kept = append(kept, r)
			}
		}
		st.Reworded = kept
	}
	st.Warnings = j.warnings(a, b, st)
	return st
}

func pointersTo(ps []Pointer, target string) []Pointer {
	out := []Pointer{}
	for _, p := range ps {
		if p.Target == target {
			out = append(out, p)
		}
	}
	return out
}

// fileChanges lists added, removed, renamed and changed files.
func fileChanges(a, b *Manifest, only string) []Change {
	out := []Change{}
	var removed, added []File
	for _, f := range a.Files {
		g := b.File(f.Path)
		switch {
		case g == nil:
			removed = append(removed, f)
		case g.Digest != f.Digest || g.Size != f.Size:
			out = append(out, Change{Kind: "changed", Path: f.Path, Before: f.Size, After: g.Size})
		}
	}
	for _, g := range b.Files {
		if a.File(g.Path) == nil {
			added = append(added, g)
		}
	}
	// A removed and an added file with the same bytes is a rename.
	used := map[int]bool{}
	for _, r := range removed {
		k := -1
		for i, g := range added {
			if !used[i] && r.Digest != "" && g.Digest == r.Digest {
				k = i
				break
			}
		}
		if k >= 0 {
			used[k] = true
			out = append(out, Change{Kind: "renamed", Path: added[k].Path, From: r.Path, Before: r.Size, After: added[k].Size})
			continue
		}
		out = append(out, Change{Kind: "removed", Path: r.Path, Before: r.Size})
	}
	for i, g := range added {
		if !used[i] {
			out = append(out, Change{Kind: "added", Path: g.Path, After: g.Size})
		}
	}
	if only == "" {
		return out
	}
	kept := []Change{}
	for _, c := range out {
		if c.Path == only || c.From == only {
			kept = append(kept, c)
		}
	}
	return kept
}

// text returns a file's text as a snapshot has it ("" when absent or not
// stored).
func (j *Journal) text(m *Manifest, p string) (string, bool) {
	f := m.File(p)
	if f == nil || f.Withheld != "" || f.Digest == "" {
		return "", false
	}
	if m.live {
		raw, err := readStoreFile(filepath.Join(j.Store, filepath.FromSlash(p)))
		if err != nil {
			return "", false
		}
		t, _ := textfile.Decode(raw)
		return t, true
	}
	raw, err := j.object(f.Digest)
	if err != nil {
		return "", false
	}
	t, _ := textfile.Decode(raw)
	return t, true
}

// pointers returns the index's pointer lines by target.
func pointers(text string) []Pointer {
	lines := textfile.Lines(text)
	var out []Pointer
	for _, s := range records.Subjects(lines) {
		out = append(out, Pointer{Line: s.Line, Target: s.Target, Text: lines[s.Line-1], name: s.Name})
	}
	return out
}

// pointerChanges lists the pointers the index dropped and gained, and
// those whose line changed while their target stayed (a hook reworded or
// stripped): pointers are compared by line, not by target alone.
func (j *Journal) pointerChanges(a, b *Manifest) (dropped, added []Pointer, reworded []Reworded) {
	dropped, added, reworded = []Pointer{}, []Pointer{}, []Reworded{}
	if fa, fb := a.File(IndexName), b.File(IndexName); fa != nil && fb != nil && fa.Withheld == "" && fb.Withheld == "" &&
		fa.Digest != "" && fa.Digest == fb.Digest {
		return // the same bytes: no pointer left or came (and nothing to read)
	}
	ta, okA := j.text(a, IndexName)
	tb, okB := j.text(b, IndexName)
	if !okA && !okB {
		return
	}
	pa, pb := pointers(ta), pointers(tb)
	// Lines present on both sides, counted, are unchanged.
	goneA, newB := unmatched(pa, pb), unmatched(pb, pa)
	// A line gone and a line new with the same target is a rewording.
	used := map[int]bool{}
	for _, p := range goneA {
		k := -1
		for i, q := range newB {
			if !used[i] && q.Target == p.Target {
				k = i
				break
			}
		}
		if k < 0 {
			dropped = append(dropped, p)
			continue
		}
		used[k] = true
		reworded = append(reworded, Reworded{Target: p.Target, Before: p.Text, After: newB[k].Text, Stripped: hookless(newB[k].Text)})
	}
	for i, q := range newB {
		if !used[i] {
			added = append(added, q)
		}
	}
	// A target still pointed at elsewhere was not dropped, only moved.
	inB := map[string]bool{}
	for _, p := range pb {
		inB[p.Target] = true
	}
	kept := dropped[:0]
	for _, p := range dropped {
		if !inB[p.Target] {
			kept = append(kept, p)
		}
	}
	dropped = kept
	inA := map[string]bool{}
	for _, p := range pa {
		inA[p.Target] = true
	}
	keptAdded := added[:0]
	for _, p := range added {
		if !inA[p.Target] {
			keptAdded = append(keptAdded, p)
		}
	}
	added = keptAdded
	return
}

// hookless reports whether a pointer line says nothing besides its links
// and punctuation: its recall hook was stripped.
func hookless(line string) bool {
	rest := markdownLink().ReplaceAllString(line, "")
	return !strings.ContainsFunc(rest, unicode.IsLetter)
}

// markdownLink is one inline link.
var markdownLink = lazyre.New(`\[[^\]]*\]\([^)]*\)`)

// Thresholds of the warnings.
const (
	massRemovalMin      = 3    // entries removed in one step…
	massRemovalFraction = 0.25 // …and at least this share of them,
	massRemovalMany     = 10   // or at least this many whatever the share
	collapseFraction    = 0.5  // a file that lost at least half its bytes…
	collapseMinBytes    = 200  // …and at least this many
)

// warnings finds the dangerous patterns in one step. Each offers the
// command that reverses it, and none offers one it cannot perform: a
// file whose bytes were kept out of the journal is named as such.
func (j *Journal) warnings(a, b *Manifest, st Step) []Warning {
	out := []Warning{}
	all := shellword.Join([]string{"memcompact", "undo", "--to", a.ID, "--store", j.Store})
	w := func(kind, msg, undo string, paths []string) *Warning {
		out = append(out, Warning{Kind: kind, Snapshot: b.ID, Time: st.Time, Message: msg, Undo: undo, Paths: paths})
		return &out[len(out)-1]
	}
	entries, removed, kept := 0, []string{}, []string{}
	for _, f := range a.Files {
		if isEntry(f.Path) {
			entries++
		}
	}
	for _, c := range st.Changes {
		if c.Kind == "removed" && isEntry(c.Path) {
			removed = append(removed, c.Path)
			if f := a.File(c.Path); f != nil && f.Withheld != "" {
				kept = append(kept, c.Path)
			}
		}
		if c.Kind == "changed" && c.Path != IndexName && c.Before-c.After >= collapseMinBytes && float64(c.After) <= float64(c.Before)*(1-collapseFraction) {
			msg := fmt.Sprintf("%s lost %d%% of its content (%d → %d bytes)", c.Path, 100-int(100*c.After/max(c.Before, 1)), c.Before, c.After)
			undo := shellword.Join([]string{"memcompact", "undo", "--file", c.Path, "--at", a.ID, "--store", j.Store})
			f := a.File(c.Path)
			if f != nil && f.Withheld != "" {
				msg += fmt.Sprintf("; its bytes were kept out of the journal (%s), so no undo can bring them back", withheldWhy(f.Withheld))
				undo = ""
			}
			wn := w("content-collapse", msg, undo, []string{c.Path})
			if f != nil {
				wn.Digest = f.Digest
			}
		}
	}
	if len(removed) >= massRemovalMany || len(removed) >= massRemovalMin && float64(len(removed)) >= massRemovalFraction*float64(entries) {
		msg := fmt.Sprintf("%d of %d entries removed at once: %s", len(removed), entries, strings.Join(most(removed, 8), ", "))
		if len(kept) > 0 {
			msg += fmt.Sprintf("; %d of them had their bytes kept out of the journal (secrets), so no undo can bring them back: %s", len(kept), strings.Join(most(kept, 8), ", "))
		}
		wn := w("mass-removal", msg, shellword.Join([]string{"memcompact", "undo", "--removed-since", a.ID, "--store", j.Store}), removed)
		wn.UndoAll = all
	}
	if len(st.Dropped) > 0 {
		if unrec := j.unrecorded(b, st.Dropped); len(unrec) > 0 {
			var names []string
			for _, p := range unrec {
				names = append(names, p.Target)
			}
			wn := w("unrecorded-index-drop", fmt.Sprintf("MEMORY.md was rewritten and lost %d pointer(s) with no exit recorded in LEDGER.md: %s", len(unrec), strings.Join(most(names, 8), ", ")),
				shellword.Join([]string{"memcompact", "undo", "--removed-since", a.ID, "--store", j.Store}), names)
			wn.UndoAll = all
		}
	}
	return out
}

// withheldWhy says in words why a file's bytes were not kept.
func withheldWhy(reason string) string {
	switch reason {
	case "secret":
		return "it holds a secret"
	case "too-large":
		return "it is too large"
	}
	return reason
}

// unrecorded returns the dropped pointers LEDGER.md (as snapshot b has it)
// records no exit for, by entry name.
func (j *Journal) unrecorded(b *Manifest, dropped []Pointer) []Pointer {
	exited := map[string]bool{}
	if t, ok := j.text(b, "LEDGER.md"); ok {
		l := records.ParseLedger("LEDGER.md", t, records.DateOf(b.Time))
		for _, r := range l.ExitsInForce() {
			exited[r.Name] = true
		}
	}
	var out []Pointer
	for _, p := range dropped {
		if !exited[p.name] {
			out = append(out, p)
		}
	}
	return out
}

// most returns at most n of names, with a count of the rest.
func most(names []string, n int) []string {
	if len(names) <= n {
		return names
	}
	return append(names[:n:n], fmt.Sprintf("and %d more", len(names)-n))
}

// sinceLastSession compares the store as cur has it with the snapshot the
// previous session started from (else the snapshot before cur), so a
// session-start hook can report what happened in between: a background
// consolidation, another session. It returns nil when there is no earlier
// snapshot.
func (j *Journal) sinceLastSession(cur *Manifest) (*Step, error) {
	prev, err := j.lastSessionBefore(cur)
	if err != nil || prev == nil {
		return nil, err
	}
	st := j.step(prev, cur, "")
	return &st, nil
}

// lastSessionBefore is the snapshot sinceLastSession compares cur with:
// the newest session-start of another session older than cur, else the
// newest snapshot older than cur, else nil. It reads manifests newest
// first and stops at the first session-start that answers, so a session
// start costs a few manifest reads however long the history is, not one
// read of every manifest kept (two weeks of them by default). A
// manifest is named by its ID, so newest first by name is newest first
// by ID; should any name not be its manifest's ID (a file copied or
// renamed by hand), every manifest is read and sorted by ID, as the
// history verbs do.
func (j *Journal) lastSessionBefore(cur *Manifest) (*Manifest, error) {
	ents, err := os.ReadDir(j.manifestsDir())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	w := sessionWalk{cur: cur}
	for i := len(ents) - 1; i >= 0; i-- {
		name := ents[i].Name()
		if !strings.HasSuffix(name, ".json") || strings.HasPrefix(name, ".") || strings.HasSuffix(name, partExt) {
			continue
		}
		if name == cur.ID+".json" {
			continue // cur itself, already read
		}
		m, err := j.readManifest(filepath.Join(j.manifestsDir(), name))
		if err != nil {
			continue // unreadable: skipped, as manifests skips it
		}
		if m.ID+".json" != name {
			return j.lastSessionBeforeSorted(cur)
		}
		if w.see(m) {
			return m, nil
		}
	}
	return w.prev, nil
}

// sessionWalk is lastSessionBefore's answer taking shape as manifests are
// seen newest first.
type sessionWalk struct{ cur, prev *Manifest }

// see takes m and reports whether it is the answer: a session-start of
// another session, older than cur. Until one is, prev is the newest
// snapshot older than cur.
func (w *sessionWalk) see(m *Manifest) bool {
	if m.ID >= w.cur.ID || m.Partial {
		return false
	}
	if w.prev == nil {
		w.prev = m
	}
	return m.Cause == "session-start" && (w.cur.Session == "" || m.Session != w.cur.Session)
}

// lastSessionBeforeSorted is lastSessionBefore over every manifest,
// sorted by ID.
func (j *Journal) lastSessionBeforeSorted(cur *Manifest) (*Manifest, error) {
	ms, _, err := j.manifests()
	if err != nil {
		return nil, err
	}
	w := sessionWalk{cur: cur}
	for i := len(ms) - 1; i >= 0; i-- {
		if w.see(ms[i]) {
			return ms[i], nil
		}
	}
	return w.prev, nil
}

// RecentRequest asks for the dangerous changes of the last while, up to
// the store as it is now.
type RecentRequest struct {
	Store   string
	DataDir string
	Within  time.Duration // how far back to look
	Now     func() time.Time
}

// Recent returns the warnings of every step within req.Within, and of the
// step from the newest snapshot to the store as it is now, without writing
// anything: what doctor reports. ok is false when the store has no
// journal yet.
func Recent(ctx context.Context, req RecentRequest) (ws []Warning, ok bool, err error) {
	now := time.Now
	if req.Now != nil {
		now = req.Now
	}
	j, err := open(req.DataDir, req.Store)
	if err != nil {
		return nil, false, err
	}
	ms, _, err := j.manifests()
	if err != nil || len(ms) == 0 {
		return nil, false, err
	}
	var out []Warning
	since := now().Add(-req.Within)
	for i := 1; i < len(ms); i++ {
		if !ms[i].Time.Before(since) {
			out = append(out, j.step(ms[i-1], ms[i], "").Warnings...)
		}
	}
	live, err := j.liveManifest(ctx, ms[len(ms)-1])
	if err != nil {
		return out, true, err
	}
	st := j.step(ms[len(ms)-1], live, "")
	for _, w := range st.Warnings {
		w.Snapshot, w.Time = "now", now().Format(time.RFC3339)
		out = append(out, w)
	}
	return j.unresolved(out, live), true, nil
}

// Unprotected returns the files the newest snapshot of store lists
// without their bytes (a secret, too large): no undo can bring them
// back. Nil when the store has no journal.
func Unprotected(store, dataDir string) ([]File, error) {
	j, err := open(dataDir, store)
	if err != nil {
		return nil, err
	}
	m, err := j.latest()
	if err != nil || m == nil {
		return nil, err
	}
	var out []File
	for _, f := range m.Files {
		if f.Withheld != "" && f.Withheld != "vanished" {
			out = append(out, f)
		}
	}
	return out, nil
}

// UnprotectedNote is the sentence that names files kept out of the
// journal; "" when there are none.
func UnprotectedNote(fs []File) string {
	if len(fs) == 0 {
		return ""
	}
	var names []string
	for _, f := range fs {
		names = append(names, fmt.Sprintf("%s (%s)", shown(f.Path), withheldWhy(f.Withheld)))
	}
	return fmt.Sprintf("%d file(s) are kept out of the journal, so no undo can bring them back if they are changed or deleted: %s", len(fs), strings.Join(most(names, 5), ", "))
}

// liveManifest describes the store as it is now, reading (not storing) the
// files whose size or time differ from prev.
func (j *Journal) liveManifest(ctx context.Context, prev *Manifest) (*Manifest, error) {
	seen, err := walkStore(ctx, j.Store, nil)
	if err != nil {
		return nil, err
	}
	m := &Manifest{Version: manifestVersion, ID: "now", Store: j.Store, live: true}
	for _, f := range seen {
		if p := prevFile(prev, f); p != nil {
			m.Files = append(m.Files, *p)
			continue
		}
		if raw, err := readStoreFile(filepath.Join(j.Store, filepath.FromSlash(f.Path))); err == nil {
			f.Size, f.Digest = int64(len(raw)), textfile.Digest(raw)
		}
		m.Files = append(m.Files, f)
	}
	return m, nil
}

// unmatched returns the pointers of a with no line of the same target and
// text left in b, each line of b matching once (lines are a multiset).
func unmatched(a, b []Pointer) []Pointer {
	left := map[string]int{}
	for _, p := range b {
		left[p.Target+"\x00"+strings.TrimSpace(p.Text)]++
	}
	var out []Pointer
	for _, p := range a {
		k := p.Target + "\x00" + strings.TrimSpace(p.Text)
		if left[k] > 0 {
			left[k]--
			continue
		}
		out = append(out, p)
	}
	return out
}
