package journal

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/outcome"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/store"
)

// Retention says which snapshots prune keeps: every one of the last
// KeepAll, then the newest of each day up to KeepDaily, then the newest of
// each week; and, oldest first, drops snapshots until the objects still
// referenced fit in MaxBytes. The newest snapshot is always kept.
type Retention struct {
	KeepAll   time.Duration
	KeepDaily time.Duration
	MaxBytes  int64
}

// defaultRetention keeps two weeks whole, daily snapshots for three months,
// weekly ones after that, within 256 MiB.
var defaultRetention = Retention{KeepAll: 14 * 24 * time.Hour, KeepDaily: 90 * 24 * time.Hour, MaxBytes: 256 << 20}

// PruneRequest asks for a store's journal to be pruned.
type PruneRequest struct {
	Store     string      // the store folder or its MEMORY.md; "" for the current project's
	DataDir   string      // memcompact's data directory; "" for DataDir's
	Where     store.Where // where the current project's store and the data directory are found
	Retention Retention   // zero: defaultRetention
	DryRun    bool
	Now       func() time.Time
}

// PruneResult says what was (or, in a dry run, would be) removed.
type PruneResult struct {
	Journal        string
	Kept           int
	Removed        []string // snapshot IDs
	ObjectsRemoved int
	BytesFreed     int64
	BytesKept      int64

	DryRun bool `json:"-"` // nothing was removed
}

// RunPrune is journal prune: it applies the retention policy, then
// removes the objects no kept snapshot references. Objects younger than an
// hour are never removed, so a snapshot being taken at the same time keeps
// its bytes.
func RunPrune(ctx context.Context, req PruneRequest) (*PruneResult, error) {
	now := time.Now
	if req.Now != nil {
		now = req.Now
	}
	if req.Retention == (Retention{}) {
		req.Retention = defaultRetention
	}
	j, _, _, err := resolveOpen("journal", req.Store, req.DataDir, req.Where)
	if err != nil {
		return nil, err
	}
	if !req.DryRun {
		release, err := j.lock(ctx, false)
		if err != nil {
			return nil, err
		}
		defer release()
	}
	return j.prune(ctx, req.Retention, req.DryRun, now)
}

// autoPruneEvery is how often a session start measures its journal
// against the cap: a measure lists every object folder.
const autoPruneEvery = time.Hour

// autoPruneWait is how long a session start waits for the journal's lock
// to prune: other sessions' snapshots hold it shared, and the prune can
// wait for the next session start.
const autoPruneWait = 200 * time.Millisecond

// maybePrune prunes the journal, within ctx, when its files pass r's cap:
// what a session start does so the journal stays bounded without the
// user's help. It measures at most once per autoPruneEvery (noted in the
// journal's "measured" file); nil when it did not prune.
func (j *Journal) maybePrune(ctx context.Context, r Retention, now func() time.Time) (*PruneResult, error) {
	if r == (Retention{}) {
		r = defaultRetention
	}
	marker := filepath.Join(j.Dir, "measured")
	if fi, err := os.Stat(marker); err == nil && time.Since(fi.ModTime()) < autoPruneEvery {
		return nil, nil
	}
	size := j.diskBytes()
	_ = os.WriteFile(marker, []byte(strconv.FormatInt(size, 10)+"\n"), 0o600) // a hint, never trusted: not synced
	if r.MaxBytes <= 0 || size <= r.MaxBytes {
		return nil, nil
	}
	lctx, cancel := context.WithTimeout(ctx, autoPruneWait)
	release, err := j.lock(lctx, false)
	cancel()
	if err != nil {
		return nil, err
	}
	defer release()
	j.forgetPacks()
	return j.prune(ctx, r, false, now)
}

// diskBytes is the bytes of the journal's objects and manifests.
func (j *Journal) diskBytes() int64 {
	var n int64
	add := func(dir string) []os.DirEntry {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() {
				n += fi.Size()
			}
		}
		return ents
	}
	add(j.manifestsDir())
	for _, e := range add(j.objectsDir()) {
		if e.IsDir() {
			add(filepath.Join(j.objectsDir(), e.Name()))
		}
	}
	return n
}

// prune is journal prune of j, its lock held alone (unless dryRun).
func (j *Journal) prune(ctx context.Context, r Retention, dryRun bool, now func() time.Time) (*PruneResult, error) {
	req := PruneRequest{Retention: r, DryRun: dryRun}
	ms, bad, err := j.allManifests()
	if err != nil {
		return nil, err
	}
	if err := j.allReadable(bad); err != nil {
		return nil, err
	}
	res := &PruneResult{Journal: j.Dir, DryRun: req.DryRun}
	keep := chooseKept(ms, req.Retention, now())
	sizes, err := j.objectSizes()
	if err != nil {
		return nil, err
	}
	keep = fitBytes(ms, keep, sizes, req.Retention.MaxBytes)
	refs := j.viewedIndexes() // what the sessions' views name stays too
	if !req.DryRun {
		if err := j.rebaseKept(ms, keep); err != nil {
			return nil, err
		}
	}
	for i, m := range ms {
		if keep[i] {
			res.Kept++
			for _, f := range m.Files {
				if f.Digest != "" && f.Withheld == "" {
					refs[f.Digest] = true
				}
			}
			continue
		}
		res.Removed = append(res.Removed, m.ID)
		if !req.DryRun {
			if err := os.Remove(j.manifestFile(m)); err != nil && !isNotExist(err) {
				return nil, err
			}
		}
	}
	// The snapshots dropped are gone for good before any object they name
	// is: a crash in between must not bring one back without its objects.
	if len(res.Removed) > 0 && !req.DryRun {
		if err := atomicfile.SyncDir(j.manifestsDir()); err != nil {
			return res, fmt.Errorf("journal prune: the dropped snapshots are removed but their removal could not be made durable, so no object was removed: %w", err)
		}
	}
	if err := j.removeObjects(ctx, sizes, refs, res, now()); err != nil {
		return res, err
	}
	if !req.DryRun {
		j.removeAllDebris()
		if subs, err := os.ReadDir(j.objectsDir()); err == nil {
			for _, s := range subs {
				if s.IsDir() {
					removeDebris(filepath.Join(j.objectsDir(), s.Name()))
				}
			}
		}
	}
	return res, nil
}

// rebaseKept writes whole, durably, each kept snapshot stored as the
// changes from one prune drops: no kept snapshot may lose its base.
func (j *Journal) rebaseKept(ms []*Manifest, keep []bool) error {
	dropped := map[string]bool{}
	for i, m := range ms {
		if !keep[i] {
			dropped[m.ID] = true
		}
	}
	for i, m := range ms {
		if keep[i] && m.base != "" && dropped[m.base] {
			if err := j.rebase(m); err != nil {
				return fmt.Errorf("journal prune: snapshot %s could not be written whole before the snapshot it is stored as changes from is removed, so nothing was removed: %w", m.ID, err)
			}
		}
	}
	return nil
}

// removeObjects removes (or, in a dry run, counts) what no kept snapshot
// needs: each loose object no kept snapshot names, once older than
// staleAfter; each pack, once stale, that holds such an object or that no
// kept snapshot needs (what it holds is held whole elsewhere), after
// storing loose what a kept snapshot names of it (dropPacks); and each
// pack whose table is not whole (a torn write), once stale. It counts
// what it removed and what stays, and names the first file it could not
// remove.
func (j *Journal) removeObjects(ctx context.Context, sizes map[string]int64, refs map[string]bool, res *PruneResult, now time.Time) error {
	drop, kept, err := j.dropPacks(ctx, refs, res.DryRun, now)
	if err != nil {
		return err
	}
	var files []string // every file removed, or to be, in a dry run
	var freed int64
	stays := map[string]bool{} // digests some kept copy holds
	for _, p := range j.packs() {
		if slices.Contains(drop, p) {
			files, freed = append(files, p.path), freed+p.size
			continue
		}
		for d := range p.objects {
			stays[d] = true
		}
	}
	// A pack nothing can be read from may still hold the only copy of
	// what a kept snapshot names: it goes only when every such object was
	// read whole elsewhere in this run.
	if len(j.tornList) > 0 && j.allReadWhole(refs) {
		for _, t := range j.tornList {
			if now.Sub(t.mtime) >= staleAfter {
				files, freed = append(files, t.path), freed+t.size
			}
		}
	}
	for d, size := range sizes {
		if err := ctx.Err(); err != nil {
			return err
		}
		if refs[d] {
			stays[d] = true // loose, in a pack that stays, or written back loose by dropPacks
			continue
		}
		if fi, err := os.Stat(j.objectPath(d)); err == nil {
			if now.Sub(fi.ModTime()) < staleAfter {
				stays[d] = true
			} else {
				files, freed = append(files, j.objectPath(d)), freed+size
			}
		}
	}
	for d, size := range sizes {
		if stays[d] {
			res.BytesKept += size
		} else {
			res.ObjectsRemoved++
		}
	}
	res.BytesFreed = freed - kept // a dropped pack's needed objects, written back loose
	if res.DryRun {
		return nil
	}
	defer j.forgetPacks()
	var first error
	for _, f := range files {
		if err := os.Remove(f); err != nil && !isNotExist(err) {
			if fi, serr := os.Stat(f); serr == nil {
				res.BytesFreed -= fi.Size()
			}
			first = cmp.Or(first, err)
		}
	}
	if first != nil {
		return fmt.Errorf("journal prune: %w (the rest was removed; run it again)", first)
	}
	return nil
}

// dropPacks returns the packs prune removes: each stale pack that holds
// an object no kept snapshot names, or that is home to none a kept one
// names. Each object a kept snapshot names has one home: a whole loose
// copy older than staleAfter, else the newest pack older than staleAfter
// that holds it whole; a younger copy may be one a killed run never made
// durable, so nothing is removed on its strength, and every home another
// pack's removal relies on is synced first. Unless dryRun, the named
// objects whose home is a pack being removed are first stored loose,
// durably (kept counts their bytes). A pack one of whose objects could
// not be read (as opposed to read and found torn), or whose named objects
// could not all be kept, stays.
func (j *Journal) dropPacks(ctx context.Context, refs map[string]bool, dryRun bool, now time.Time) (drop []*pack, kept int64, err error) {
	packs := j.packs() // oldest first: their names begin with their time
	home := map[string]*pack{}
	loose := map[string]bool{}
	unsure := map[*pack]bool{}
	for i := len(packs) - 1; i >= 0; i-- {
		p := packs[i]
		if ctx.Err() != nil {
			return nil, 0, nil // out of time: no pack is dropped this run
		}
		for d := range p.objects {
			if !refs[d] || home[d] != nil || loose[d] {
				continue
			}
			if j.wholeLoose(d, now) {
				loose[d] = true
				continue
			}
			if now.Sub(p.mtime) < staleAfter {
				continue
			}
			switch _, err := p.object(d); {
			case err == nil:
				home[d] = p
			case !errors.Is(err, errNotWhole):
				unsure[p] = true
			}
		}
	}
	relied := map[string]bool{} // the homes, elsewhere, of what the dropped packs hold
	for _, p := range packs {
		if now.Sub(p.mtime) < staleAfter || unsure[p] {
			continue
		}
		var homed, elsewhere []string
		unneeded, only := false, false
		for d := range p.objects {
			switch {
			case !refs[d]:
				unneeded = true
			case home[d] == p:
				homed = append(homed, d)
			case loose[d]:
				elsewhere = append(elsewhere, j.objectPath(d))
			case home[d] != nil:
				elsewhere = append(elsewhere, home[d].path)
			default:
				only = true // needed, and read whole nowhere: this copy, damaged, is all there is
			}
		}
		if only || len(homed) > 0 && !unneeded {
			continue
		}
		if len(homed) > 0 && !dryRun {
			n, err := j.keepLoose(homed)
			if err != nil {
				continue
			}
			kept += n
		}
		drop = append(drop, p)
		for _, e := range elsewhere {
			relied[e] = true
		}
	}
	if dryRun || len(relied) == 0 {
		return drop, kept, nil
	}
	paths := slices.Collect(maps.Keys(relied))
	if err := syncFiles(paths); err != nil {
		return nil, 0, fmt.Errorf("journal prune: cannot make sure the copies it keeps are on disk, so no object was removed (the dropped snapshots were): %w", err)
	}
	return drop, kept, nil
}

// allReadWhole reports whether every object refs names can be read
// whole, now, from a loose copy or a pack's.
func (j *Journal) allReadWhole(refs map[string]bool) bool {
	for d := range refs {
		if _, err := j.looseObject(d); err == nil {
			continue
		}
		if data, _ := j.packedObject(d); data == nil {
			return false
		}
	}
	return true
}

// wholeLoose reports whether a loose copy of digest, older than
// staleAfter, holds its bytes whole.
func (j *Journal) wholeLoose(digest string, now time.Time) bool {
	p := j.objectPath(digest)
	fi, err := os.Stat(p)
	if err != nil || now.Sub(fi.ModTime()) < staleAfter {
		return false
	}
	raw, err := os.ReadFile(p)
	if err != nil {
		return false
	}
	_, err = decodeLoose(raw, digest)
	return err == nil
}

// keepLoose stores each of digests, read from the pack that holds it, as
// a loose object (over a loose copy that is not whole), and syncs them; n
// is the bytes it wrote.
func (j *Journal) keepLoose(digests []string) (n int64, err error) {
	var written []string
	for _, d := range digests {
		raw, err := j.object(d)
		var frame []byte
		if err == nil {
			frame = frameBytes(d, raw)
			err = j.writeObjectFile(j.objectPath(d), frame)
		}
		if err != nil {
			_ = syncFiles(written)
			return 0, err
		}
		written = append(written, j.objectPath(d))
		n += int64(len(frame))
	}
	return n, syncFiles(written)
}

// allReadable refuses, naming them, the manifests bad (read as not
// manifests) and the packs this version cannot read (another format): a
// snapshot prune cannot read may name objects prune would otherwise
// remove.
func (j *Journal) allReadable(bad []string) error {
	j.packs()
	if len(bad) == 0 && len(j.foreign) == 0 {
		return nil
	}
	var names []string
	for _, b := range bad {
		names = append(names, filepath.Join(j.manifestsDir(), b))
	}
	names = append(names, j.foreign...)
	msg := "cannot be read as a snapshot or a pack of this version of memcompact"
	if len(names) > 1 {
		msg += fmt.Sprintf(", nor can %d other file(s) of the journal (%s)", len(names)-1, strings.Join(most(names[1:], 3), ", "))
	}
	return &outcome.Error{Status: outcome.Refused, Reason: ReasonUnreadable, File: names[0],
		Msg:   msg + ": what it names or holds could be what prune would remove, so nothing was removed",
		Hints: []string{"restore it, or move it out of the journal (a newer memcompact may read it), then run prune again"}}
}

// viewedIndexes are the indexes the sessions' views name: the clobber
// check reads them, so they stay while a view names them.
func (j *Journal) viewedIndexes() map[string]bool {
	refs := map[string]bool{}
	ents, _ := os.ReadDir(j.sessionsDir())
	for _, e := range ents {
		raw, err := os.ReadFile(filepath.Join(j.sessionsDir(), e.Name()))
		var st sessionState
		if err == nil && json.Unmarshal(raw, &st) == nil && st.Index != "" {
			refs[st.Index] = true
		}
	}
	return refs
}

// chooseKept marks the snapshots the age rules keep.
func chooseKept(ms []*Manifest, r Retention, now time.Time) []bool {
	keep := make([]bool, len(ms))
	lastDay, lastWeek := "", ""
	for i := len(ms) - 1; i >= 0; i-- { // newest first
		m := ms[i]
		age := now.Sub(m.Time)
		day := m.Time.Local().Format("2006-01-02")
		y, w := m.Time.Local().ISOWeek()
		week := time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, 7*w).Format("2006-01-02")
		switch {
		case i == len(ms)-1 || age <= r.KeepAll:
			keep[i] = true
		case age <= r.KeepDaily:
			keep[i] = day != lastDay
		default:
			keep[i] = week != lastWeek
		}
		lastDay, lastWeek = day, week
	}
	return keep
}

// fitBytes drops kept snapshots, oldest first, until the objects they
// reference fit in max (0: no cap). The newest is never dropped.
func fitBytes(ms []*Manifest, keep []bool, sizes map[string]int64, max int64) []bool {
	if max <= 0 {
		return keep
	}
	total := func() int64 {
		seen := map[string]bool{}
		var n int64
		for i, m := range ms {
			if !keep[i] {
				continue
			}
			for _, f := range m.Files {
				if f.Digest != "" && !seen[f.Digest] {
					seen[f.Digest] = true
					n += sizes[f.Digest]
				}
			}
		}
		return n
	}
	for i := 0; i < len(ms)-1 && total() > max; i++ {
		keep[i] = false
	}
	return keep
}

// objectSizes lists every stored object with its size: loose and packed.
func (j *Journal) objectSizes() (map[string]int64, error) {
	out := map[string]int64{}
	for _, p := range j.packs() {
		for d, e := range p.objects {
			out[d] = e.stored()
		}
	}
	subs, err := os.ReadDir(j.objectsDir())
	if isNotExist(err) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	for _, s := range subs {
		if !s.IsDir() || len(s.Name()) != 2 {
			continue
		}
		ents, err := os.ReadDir(filepath.Join(j.objectsDir(), s.Name()))
		if err != nil {
			continue
		}
		for _, e := range ents {
			if len(e.Name()) != 64 {
				continue
			}
			if fi, err := e.Info(); err == nil {
				out[e.Name()] = fi.Size()
			}
		}
	}
	return out, nil
}
