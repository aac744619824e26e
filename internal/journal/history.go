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

	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/records"
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

// Warning is a dangerous pattern history found, with the command that
// reverses it.
type Warning struct {
	Kind     string `json:"kind"` // mass-removal, unrecorded-index-drop, content-collapse
	Snapshot string `json:"snapshot"`
	Time     string `json:"time"`
	Message  string `json:"message"`
	Undo     string `json:"undo"`
}

// Step is what changed from one snapshot to the next.
type Step struct {
	From     string    `json:"from"`
	To       string    `json:"to"`
	Time     string    `json:"time"`
	Cause    string    `json:"cause"`
	Changes  []Change  `json:"changes"`
	Dropped  []Pointer `json:"pointers_dropped"`
	Added    []Pointer `json:"pointers_added"`
	Warnings []Warning `json:"warnings"`
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
	dir, data, err := resolve("history", req.Store, req.DataDir, req.Where)
	if err != nil {
		return nil, err
	}
	req.File = filepath.ToSlash(req.File)
	j, err := open(data, dir)
	if err != nil {
		return nil, err
	}
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
		if len(st.Changes) == 0 && len(st.Dropped) == 0 && len(st.Added) == 0 {
			continue
		}
		res.Steps = append(res.Steps, st)
		res.Warnings = append(res.Warnings, st.Warnings...)
	}
	if len(ms) > 0 {
		if err := j.liveStep(ctx, res, ms[len(ms)-1], req.File, now()); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// liveStep adds the step from the newest snapshot to the store as it is
// now, when something changed since: a deletion the hooks have not yet
// journaled is what a user running history after a surprise most needs to
// see. Nothing is recorded; the step's To is "now".
func (j *Journal) liveStep(ctx context.Context, res *HistoryResult, newest *Manifest, only string, now time.Time) error {
	live, err := j.liveManifest(ctx, newest)
	if err != nil {
		return err
	}
	live.Time, live.Cause = now, "the store now (not yet journaled)"
	st := j.step(newest, live, only)
	if len(st.Changes) == 0 && len(st.Dropped) == 0 && len(st.Added) == 0 {
		return nil
	}
	for i := range st.Warnings {
		st.Warnings[i].Snapshot = "now"
	}
	res.Steps = append(res.Steps, st)
	res.Warnings = append(res.Warnings, st.Warnings...)
	return nil
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
		Changes: []Change{}, Dropped: []Pointer{}, Added: []Pointer{}, Warnings: []Warning{}}
	st.Changes = fileChanges(a, b, only)
	st.Dropped, st.Added = j.pointerChanges(a, b)
	if only != "" && only != IndexName {
		st.Dropped, st.Added = pointersTo(st.Dropped, only), pointersTo(st.Added, only)
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

// pointerChanges lists the pointers the index dropped and gained.
func (j *Journal) pointerChanges(a, b *Manifest) (dropped, added []Pointer) {
	dropped, added = []Pointer{}, []Pointer{}
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
	inB, inA := map[string]bool{}, map[string]bool{}
	for _, p := range pb {
		inB[p.Target] = true
	}
	for _, p := range pa {
		inA[p.Target] = true
	}
	for _, p := range pa {
		if !inB[p.Target] {
			dropped = append(dropped, p)
		}
	}
	for _, p := range pb {
		if !inA[p.Target] {
			added = append(added, p)
		}
	}
	return
}

// Thresholds of the warnings.
const (
	massRemovalMin      = 3    // entries removed in one step…
	massRemovalFraction = 0.25 // …and at least this share of them,
	massRemovalMany     = 10   // or at least this many whatever the share
	collapseFraction    = 0.5  // a file that lost at least half its bytes…
	collapseMinBytes    = 200  // …and at least this many
)

// warnings finds the dangerous patterns in one step.
func (j *Journal) warnings(a, b *Manifest, st Step) []Warning {
	out := []Warning{}
	w := func(kind, msg, undo string) {
		out = append(out, Warning{Kind: kind, Snapshot: b.ID, Time: st.Time, Message: msg, Undo: undo})
	}
	entries, removed := 0, []string{}
	for _, f := range a.Files {
		if isEntry(f.Path) {
			entries++
		}
	}
	for _, c := range st.Changes {
		if c.Kind == "removed" && isEntry(c.Path) {
			removed = append(removed, c.Path)
		}
		if c.Kind == "changed" && c.Path != IndexName && c.Before-c.After >= collapseMinBytes && float64(c.After) <= float64(c.Before)*(1-collapseFraction) {
			w("content-collapse", fmt.Sprintf("%s lost %d%% of its content (%d → %d bytes)", c.Path, 100-int(100*c.After/max(c.Before, 1)), c.Before, c.After),
				fmt.Sprintf("memcompact undo --file %s --at %s --store %s", c.Path, a.ID, quote(j.Store)))
		}
	}
	if len(removed) >= massRemovalMany || len(removed) >= massRemovalMin && float64(len(removed)) >= massRemovalFraction*float64(entries) {
		w("mass-removal", fmt.Sprintf("%d of %d entries removed at once: %s", len(removed), entries, strings.Join(most(removed, 8), ", ")),
			fmt.Sprintf("memcompact undo --removed-since %s --store %s", a.ID, quote(j.Store)))
	}
	if len(st.Dropped) > 0 {
		if unrec := j.unrecorded(b, st.Dropped); len(unrec) > 0 {
			var names []string
			for _, p := range unrec {
				names = append(names, p.Target)
			}
			w("unrecorded-index-drop", fmt.Sprintf("MEMORY.md was rewritten and lost %d pointer(s) with no exit recorded in LEDGER.md: %s", len(unrec), strings.Join(most(names, 8), ", ")),
				fmt.Sprintf("memcompact undo --removed-since %s --store %s", a.ID, quote(j.Store)))
		}
	}
	return out
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

// quote quotes a path for a shell when it needs it.
func quote(s string) string {
	if strings.ContainsAny(s, " \t'\"$`\\*?[]#~&;|<>(){}!") {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return s
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
		if !strings.HasSuffix(name, ".json") || strings.HasPrefix(name, ".") {
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
	if m.ID >= w.cur.ID {
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
	return out, true, nil
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
