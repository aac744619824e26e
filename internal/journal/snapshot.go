package journal

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/memcompact/memcompact/internal/crashpoint"
	"github.com/memcompact/memcompact/internal/filecache"
	"github.com/memcompact/memcompact/internal/textfile"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// DefaultMaxFileSize is the largest file whose bytes a snapshot stores; a
// larger one is listed as withheld. Memory files are small: anything this
// big is not memory an agent reads.
const DefaultMaxFileSize = 16 << 20

// SnapshotRequest asks for the store's current state to be recorded.
type SnapshotRequest struct {
	Store   string // the store folder
	DataDir string // memcompact's data directory (DataDir)
	Cause   string // why: "session-start", "pre-write", "manual", "pre-undo"…
	Session string // the agent session, when a hook asks
	// IncludeSecrets stores files that match a secret rule too; by default
	// their bytes are withheld so the journal never holds a secret.
	IncludeSecrets bool
	// Secret reports whether data holds a secret; nil stores everything.
	Secret      func(data []byte) bool
	MaxFileSize int64            // 0: DefaultMaxFileSize
	Now         func() time.Time // nil: time.Now
	// Reread reads every file's bytes, trusting no stat: the safety
	// snapshot before an undo, whose bytes may be the only copy of an
	// edit the undo overwrites.
	Reread bool
	// Stats is the run's stat of each file, shared with the caller's
	// other parts (a session-start hook's diagnosis); nil: stat here.
	Stats *filecache.Stats
	// Reads is the run's read of each file, shared likewise; nil: read
	// here.
	Reads *textfile.Reads

	// besideManifest, when set, stages what the caller records beside
	// the manifest while the objects are synced; the snapshot names it
	// with the manifest once the objects are durable, or removes it when
	// the snapshot fails. It is not called when nothing is written (an
	// unchanged store) or the snapshot fails before.
	besideManifest func() *stagedView
}

// SnapshotResult says what was recorded.
type SnapshotResult struct {
	Journal  string    // the journal's folder
	Store    string    // the store folder, as RunRecord found it
	Manifest *Manifest // the snapshot now newest
	// Unchanged: the store is as the newest snapshot has it, so nothing
	// was written (an unchanged store costs a stat per file).
	Unchanged bool
	Read      int    // files whose bytes were read this time
	Withheld  []File // files listed without their bytes
	// Partial: the store was too large to read within the time given, so
	// this snapshot lists only the files read (and those the previous one
	// vouched for), of Total; the next snapshot goes on.
	Partial bool
	Total   int
}

// readingMargin is the share of a snapshot's remaining time kept for
// storing and naming what it read, when the reading must stop early.
const readingMargin = 4

// readingTime is the context the reading of a store of n files stops at:
// ctx's deadline less the time kept for storing and naming what was
// read — a quarter of the time left, or 250 ms and 5 µs a file (the
// binary manifest of 100,000 files takes 80 ms to encode and compress,
// a few times that on a loaded machine), whichever is more, but never more than
// three quarters — so that a store too large to read within a hook's
// budget is journaled in parts, each part committed within (about) the
// budget and each making progress.
func readingTime(ctx context.Context, n int) (context.Context, context.CancelFunc) {
	dl, ok := ctx.Deadline()
	if !ok {
		return context.WithCancel(ctx)
	}
	left := time.Until(dl)
	keep := max(left/readingMargin, 250*time.Millisecond+time.Duration(n)*5*time.Microsecond)
	// Whatever the walk left, a quarter of it is for reading: every part
	// makes progress (its commit may then run past the budget a little).
	keep = min(keep, left*(readingMargin-1)/readingMargin)
	return context.WithDeadline(ctx, dl.Add(-keep))
}

// Snapshot records the store's current state, storing each new file's
// bytes once by digest. Files whose size and modification time match the
// newest snapshot are not read again.
func Snapshot(ctx context.Context, req SnapshotRequest) (*SnapshotResult, error) {
	j, err := open(req.DataDir, req.Store)
	if err != nil {
		return nil, err
	}
	release, err := j.lock(ctx, true)
	if err != nil {
		return nil, err
	}
	defer release()
	return j.snapshot(ctx, req)
}

// snapshot is Snapshot into j (req.Store and req.DataDir are j's), the
// journal's lock held shared.
func (j *Journal) snapshot(ctx context.Context, req SnapshotRequest) (*SnapshotResult, error) {
	now := time.Now
	if req.Now != nil {
		now = req.Now
	}
	limit := req.MaxFileSize
	if limit <= 0 {
		limit = DefaultMaxFileSize
	}
	prev, err := j.latest()
	if err != nil {
		return nil, err
	}
	if prev != nil {
		j.removeAllDebris()
	}
	var dirs *madeDirs
	if prev == nil {
		// A first snapshot: its folders are made, each synced in its
		// parent, while the store is read (on a busy disk a chain of new
		// folders takes as long as the reading).
		dirs = j.makeDirs(req.Session != "")
		defer dirs.wait()
	}
	// The wall clock before any file is stat'ed or read (by this snapshot:
	// a run's shared reads may precede it by a little, well within
	// racyWindow): every digest taken is of bytes at least this new.
	hashed := wallClock().UnixNano()
	seen, err := walkStore(ctx, j.Store, req.Stats)
	if cerr := ctx.Err(); cerr != nil {
		return nil, &stoppedError{left: -1, err: fmt.Errorf("snapshot of %s stopped before storing anything (%w); the next snapshot continues from there", j.Store, cerr)}
	}
	if err != nil {
		return nil, err
	}
	res := &SnapshotResult{Journal: j.Dir}
	m := &Manifest{Version: manifestVersion, Cause: req.Cause, Session: req.Session, Store: j.Store}
	m.Files = make([]File, len(seen))
	var todo []int // the files whose bytes must be read: new or changed
	var earlier []File
	if prev != nil {
		earlier = prev.Files
	}
	for i, f := range seen {
		// seen and the previous snapshot's files are both sorted by
		// path: one pass over both finds each file's record.
		for len(earlier) > 0 && earlier[0].Path < f.Path {
			earlier = earlier[1:]
		}
		var rec *File
		if len(earlier) > 0 && earlier[0].Path == f.Path {
			rec = &earlier[0]
		}
		if p := trusted(rec, f); p != nil && !req.Reread {
			m.Files[i] = *p
			continue
		}
		todo = append(todo, i)
	}
	if len(todo) > 0 {
		j.markStored(prev) // what need not be stored again (an unchanged store reads nothing)
	}
	readCtx, cancel := readingTime(ctx, len(seen))
	defer cancel()
	fresh, done, err := j.recordAll(ctx, readCtx, seen, todo, m.Files, limit, req, res)
	if err != nil {
		if ctx.Err() != nil {
			return nil, &stoppedError{left: len(todo) - res.Read, total: len(seen), err: err}
		}
		return nil, err
	}
	for _, i := range todo {
		m.Files[i].Hashed = hashed
	}
	if done != nil && res.Read == 0 {
		return nil, &stoppedError{left: len(todo), total: len(seen), err: fmt.Errorf("snapshot of %s read no file in the time it had (%d to read); the next snapshot continues from there", j.Store, len(todo))}
	}
	if done != nil {
		// A snapshot in part: the files read, and those the previous
		// snapshot vouches for; the next snapshot reads the rest.
		var kept []File
		skip := map[int]bool{}
		for k, i := range todo {
			if !done[k] {
				skip[i] = true
			}
		}
		for i, f := range m.Files {
			if !skip[i] {
				kept = append(kept, f)
			}
		}
		m.Files, m.Partial = kept, true
		res.Partial, res.Total = true, len(seen)
	}
	for _, f := range m.Files {
		if f.Withheld != "" {
			res.Withheld = append(res.Withheld, f)
		}
	}
	// An undo's safety snapshot is always written, unchanged or not: the
	// undo's writes are told from other writers' by the snapshot before
	// them (a session note names an undo's removal as the undo's).
	if prev != nil && !m.Partial && sameContent(prev, m) && !settlesStamps(prev, m, todo, hashed) && req.Cause != "pre-undo" {
		res.Unchanged, res.Manifest = true, prev
		return res, nil
	}
	m.Time = now()
	m.ID = newID(m.Time)
	raw, err := j.storedManifest(m, prev)
	if err != nil {
		return nil, err
	}
	if err := dirs.wait(); err != nil {
		return nil, err
	}
	if err := j.commitSnapshot(m, raw, fresh, req); err != nil {
		return nil, err
	}
	if prev != nil && prev.Partial && !m.Partial {
		j.dropParts()
	}
	res.Manifest = m
	return res, nil
}

// stoppedError is a snapshot stopped by its deadline before it could
// commit anything: left of total files were still to be read (left -1:
// the walk itself did not finish).
type stoppedError struct {
	left, total int
	err         error
}

func (e *stoppedError) Error() string { return e.err.Error() }
func (e *stoppedError) Unwrap() error { return e.err }

// commitSnapshot stores the new objects fresh durably and names the
// manifest raw of m after them. The manifest, and what the caller records
// beside it (a session's view of the index), are written and synced under
// temporary names while the objects are written and synced, and named
// only once every object is durable: no manifest can name an object a
// crash could lose, and the snapshot waits for the disk twice after it
// read the store (the objects' and the staged files' syncs side by side,
// then the folders of the names), not three or five times.
func (j *Journal) commitSnapshot(m *Manifest, raw []byte, fresh []packObject, req SnapshotRequest) error {
	mpath := j.manifestFile(m)
	if err := ensureDirs(j.manifestsDir()); err != nil {
		return err
	}
	var (
		staging sync.WaitGroup
		mtmp    string
		merr    error
		view    *stagedView
	)
	staging.Go(func() { mtmp, merr = stageFile(mpath, raw, true) })
	if req.besideManifest != nil {
		staging.Go(func() { view = req.besideManifest() })
	}
	serr := j.storeObjects(fresh, m.Time)
	staging.Wait()
	crashpoint.At("journal.objects-written")
	if serr != nil || merr != nil {
		if mtmp != "" {
			os.Remove(mtmp)
		}
		view.abort()
		return cmp.Or(serr, merr)
	}
	var naming sync.WaitGroup
	naming.Go(func() { _ = view.commit() })
	err := commitFile(mtmp, mpath, true)
	naming.Wait()
	if err != nil {
		return err
	}
	return nil
}

// madeDirs is the making of a first snapshot's folders, beside its
// reading of the store.
type madeDirs struct {
	done chan struct{}
	err  error
}

// makeDirs starts making the journal's folders (the sessions folder too
// when withSessions), durably.
func (j *Journal) makeDirs(withSessions bool) *madeDirs {
	d := &madeDirs{done: make(chan struct{})}
	dirs := []string{j.objectsDir(), j.manifestsDir()}
	if withSessions {
		dirs = append(dirs, j.sessionsDir())
	}
	go func() {
		defer close(d.done)
		d.err = ensureDirs(dirs...)
	}()
	return d
}

// wait returns once the folders are made, with the error that stopped
// it; nil for a nil d (nothing to make).
func (d *madeDirs) wait() error {
	if d == nil {
		return nil
	}
	<-d.done
	return d.err
}

// storeObjects stores objs durably: as one pack when there are at least
// packMin of them, else as loose objects synced side by side.
func (j *Journal) storeObjects(objs []packObject, now time.Time) error {
	if len(objs) < packMin {
		return j.storeLoose(objs)
	}
	parts := packParts(objs)
	errs := make([]error, len(parts)+1)
	var wg sync.WaitGroup
	for i, part := range parts {
		wg.Go(func() { _, errs[i] = j.writePack(part, now) })
	}
	errs[len(parts)] = syncFiles(j.reliedOn())
	wg.Wait()
	return errors.Join(errs...)
}

// storeLoose stores objs as loose objects, each unless already there, and
// syncs them, and the loose objects this run relies on (reliedOn),
// whether it wrote them or found them there: another run may have
// written one and not synced it yet.
func (j *Journal) storeLoose(objs []packObject) error {
	synced := j.reliedOn()
	if len(objs) == 0 {
		return syncFiles(synced)
	}
	if err := ensureDirs(j.objectsDir()); err != nil {
		return err
	}
	for _, o := range objs {
		if _, err := j.putObject(o.digest, o.data); err != nil {
			_ = syncFiles(synced)
			return err
		}
		synced = append(synced, j.objectPath(o.digest))
	}
	return syncFiles(synced)
}

// racyWindow is how long before its digest was taken a file must have
// last changed for its stat alone to be trusted afterwards: file times
// move in the kernel's coarse ticks, so a file changed within a tick of
// its read could change again without its times moving (git's racy-git
// rule; filecache trusts its records by the same window).
const racyWindow = int64(2 * time.Second)

// wallClock is the clock digests are timed by: the file system's, never
// req.Now (a caller's notion of the date). A variable so tests can run a
// snapshot as if taken later than their files were written.
var wallClock = time.Now

// prevFile returns the previous snapshot's record of f when f's stat is
// the one that record was taken with (size, modification and inode change
// times, inode) and the record's digest was taken more than racyWindow
// after the file last changed: then its bytes need not be read again. A
// record without a digest time (an older journal's) is never trusted on
// its stat: the file is read once more.
func prevFile(prev *Manifest, f File) *File {
	if prev == nil {
		return nil
	}
	return trusted(prev.File(f.Path), f)
}

// trusted is prevFile given the previous snapshot's record p of f (nil:
// none).
func trusted(p *File, f File) *File {
	if p == nil || p.Size != f.Size || p.ModTime != f.ModTime || p.Ctime != f.Ctime || p.Ino != f.Ino {
		return nil
	}
	if p.Hashed == 0 || max(p.ModTime, p.Ctime) >= p.Hashed-racyWindow {
		return nil
	}
	return p
}

// settlesStamps reports whether a snapshot whose content is prev's should
// still be written because it would let the next snapshot trust, on
// their stats, files it had to read again (touched, or read too soon
// after their last change): each such file whose stat is new and would
// now be trusted. A store that is merely unchanged writes nothing.
func settlesStamps(prev, m *Manifest, read []int, hashed int64) bool {
	for _, i := range read {
		f := m.Files[i]
		p := prev.File(f.Path)
		if p == nil || f.Withheld != "" {
			continue
		}
		same := p.ModTime == f.ModTime && p.Ctime == f.Ctime && p.Ino == f.Ino && p.Hashed != 0 && max(p.ModTime, p.Ctime) < p.Hashed-racyWindow
		if !same && max(f.ModTime, f.Ctime) < hashed-racyWindow {
			return true
		}
	}
	return false
}

// recordWorkers is how many files a snapshot reads and checks at once: a
// first snapshot reads every file of the store, and a secret check of
// each is most of the work; side by side they use every core the
// session-start hook's diagnosis leaves.
const recordWorkers = 4

// recordAll records the files seen[i] for each i of todo into files[i],
// side by side, notes in res what it read, and returns the objects this
// snapshot must store (each new digest once). It stops at the first
// error (the one of the first such file in path order) or when ctx ends;
// then the objects read so far are stored, loose and synced, before it
// returns the error: the next snapshot finds them stored and writes them
// no more, so a store too large for one hook's time budget is journaled
// over a few sessions.
func (j *Journal) recordAll(ctx, readCtx context.Context, seen []File, todo []int, files []File, limit int64, req SnapshotRequest, res *SnapshotResult) ([]packObject, []bool, error) {
	type outcome struct {
		done bool
		data []byte // bytes to store, nil when stored already or withheld
		err  error
	}
	outs := make([]outcome, len(todo))
	each(recordWorkers, len(todo), func(k int) bool {
		if readCtx.Err() != nil {
			return false
		}
		i := todo[k]
		rec, data, err := j.record(seen[i], limit, req)
		if err != nil {
			outs[k].err = err
			return false
		}
		files[i], outs[k] = rec, outcome{done: true, data: data}
		return true
	})
	var (
		err   error
		fresh []packObject
		dup   = map[string]bool{}
	)
	for k, o := range outs {
		if o.err != nil && err == nil {
			err = o.err
		}
		if o.done {
			res.Read++
		}
		if d := files[todo[k]].Digest; o.data != nil && !dup[d] {
			dup[d] = true
			fresh = append(fresh, packObject{digest: d, data: o.data})
		}
	}
	if err == nil && res.Read < len(todo) && ctx.Err() != nil {
		err = fmt.Errorf("snapshot of %s stopped after storing %d of %d file(s) (%w); the next snapshot continues from there", j.Store, res.Read, len(seen), ctx.Err())
	}
	if err != nil {
		_ = j.storeLoose(fresh)
		return nil, nil, err
	}
	var done []bool
	if res.Read < len(todo) {
		// Out of reading time, with time left to commit what was read: a
		// snapshot in part.
		done = make([]bool, len(todo))
		for k, o := range outs {
			done[k] = o.done
		}
	}
	j.markFresh(fresh)
	return fresh, done, nil
}

// record reads one file and checks it; data is its bytes when they must
// be stored (nil when withheld or stored already).
func (j *Journal) record(f File, limit int64, req SnapshotRequest) (File, []byte, error) {
	if f.Size > limit {
		f.Withheld = "too-large"
		return f, nil, nil
	}
	tf, err := req.Reads.Read(filepath.Join(j.Store, filepath.FromSlash(f.Path)))
	if err != nil {
		if isNotExist(err) { // deleted since the walk: record what was seen
			f.Withheld = "vanished"
			return f, nil, nil
		}
		return f, nil, err
	}
	data := tf.Raw
	f.Size = int64(len(data))
	f.Digest = tf.Digest // the read's own digest: one hash of the bytes
	if !req.IncludeSecrets && req.Secret != nil && req.Secret(data) {
		f.Withheld = "secret"
		return f, nil, nil
	}
	if j.isStored(f.Digest, int64(len(data))) {
		return f, nil, nil
	}
	return f, data, nil
}

// walkWorkers is how many files the walk stats at once: a stat costs
// about as much waiting as computing on a loaded machine, so two side by
// side take little more than one (measured: 100,000 files in 0.4–0.7 s
// against 0.9 s one at a time).
const walkWorkers = 2

// walkStore lists the store's regular files, sorted by path. Hidden files
// and folders (.git, lock files, temporary files) and symlinks are not
// memory and are left out. Each folder is listed once (its entries' types
// come with the listing: nothing is stat'ed to tell a file from a folder)
// and each regular file is stat'ed once, through stats (following a link
// changes nothing for a regular file), walkWorkers at a time, so the
// run's other parts need not stat it again.
func walkStore(ctx context.Context, store string, stats *filecache.Stats) ([]File, error) {
	type found struct{ rel, abs string }
	var files []found
	var walk func(abs, rel string) error
	walk = func(abs, rel string) error {
		dir := abs
		if !strings.HasSuffix(dir, string(filepath.Separator)) {
			dir += string(filepath.Separator) // not for "/"
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		d, err := os.Open(abs)
		if err != nil {
			return err
		}
		ents, err := d.ReadDir(-1)
		d.Close()
		if err != nil && len(ents) == 0 {
			return err
		}
		for _, e := range ents {
			name := e.Name()
			if strings.HasPrefix(name, ".") {
				continue
			}
			r := name
			if rel != "" {
				r = rel + "/" + name
			}
			switch {
			case e.IsDir():
				// an unreadable sub-folder is skipped, not fatal
				if err := walk(filepath.Join(abs, name), r); err != nil && ctx.Err() != nil {
					return ctx.Err()
				}
			case e.Type().IsRegular():
				// abs is clean (the store's absolute path, then
				// names joined), so this is filepath.Join's answer
				// without its Clean of every path.
				files = append(files, found{r, dir + name})
			}
		}
		return nil
	}
	if err := walk(store, ""); err != nil {
		return nil, err
	}
	out := make([]File, len(files))
	keep := make([]bool, len(files))
	each(walkWorkers, len(files), func(k int) bool {
		if k%1024 == 0 && ctx.Err() != nil {
			return false
		}
		fi, err := stats.Stat(files[k].abs)
		if err != nil || !fi.Mode().IsRegular() {
			return true // gone since the listing, or no longer a file
		}
		st := filecache.StampInfo(fi)
		out[k] = File{Path: files[k].rel, Size: fi.Size(), ModTime: st.Mtime, Ctime: st.Ctime, Ino: st.Ino}
		keep[k] = true
		return true
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	n := 0
	for k := range out {
		if keep[k] {
			out[n] = out[k]
			n++
		}
	}
	out = out[:n]
	slices.SortFunc(out, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}
