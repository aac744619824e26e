package journal

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/memcompact/memcompact/internal/crashpoint"
	"github.com/memcompact/memcompact/internal/filecache"
	"github.com/memcompact/memcompact/internal/textfile"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
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

	written []string // objects written this time, to sync
}

// Snapshot records the store's current state, storing each new file's
// bytes once by digest. Files whose size and modification time match the
// newest snapshot are not read again.
func Snapshot(ctx context.Context, req SnapshotRequest) (*SnapshotResult, error) {
	now := time.Now
	if req.Now != nil {
		now = req.Now
	}
	limit := req.MaxFileSize
	if limit <= 0 {
		limit = DefaultMaxFileSize
	}
	j, err := open(req.DataDir, req.Store)
	if err != nil {
		return nil, err
	}
	prev, err := j.latest()
	if err != nil {
		return nil, err
	}
	seen, err := walkStore(ctx, j.Store, req.Stats)
	if cerr := ctx.Err(); cerr != nil {
		return nil, fmt.Errorf("snapshot of %s stopped before storing anything (%w); the next snapshot continues from there", j.Store, cerr)
	}
	if err != nil {
		return nil, err
	}
	res := &SnapshotResult{Journal: j.Dir}
	m := &Manifest{Version: manifestVersion, Cause: req.Cause, Session: req.Session, Store: j.Store}
	m.Files = make([]File, len(seen))
	var todo []int // the files whose bytes must be read: new or changed
	for i, f := range seen {
		if p := prevFile(prev, f); p != nil {
			m.Files[i] = *p
			continue
		}
		todo = append(todo, i)
	}
	if len(todo) > 0 {
		if err := ensureDirs(j.objectsDir()); err != nil {
			return nil, err
		}
	}
	if err := j.recordAll(ctx, seen, todo, m.Files, limit, req, res); err != nil {
		return nil, err
	}
	for _, f := range m.Files {
		if f.Withheld != "" {
			res.Withheld = append(res.Withheld, f)
		}
	}
	if prev != nil && sameContent(prev, m) && (req.Session == "" || req.Session == prev.Session) {
		res.Unchanged, res.Manifest = true, prev
		return res, nil
	}
	m.Time = now()
	m.ID = newID(m.Time)
	crashpoint.At("journal.objects-written")
	raw, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		return nil, err
	}
	// The manifest, and what the caller records beside it (a session's
	// view of the index), are written and synced under temporary names
	// while the objects are synced, and named only once every object is
	// durable: no manifest can name an object a crash could lose, and
	// the snapshot waits for the disk twice after its objects are
	// written (their sync, then the folders of the names), not three or
	// five times.
	mpath := j.manifestPath(m.ID)
	if err := ensureDirs(j.manifestsDir()); err != nil {
		return nil, err
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
	serr := syncFiles(res.written)
	staging.Wait()
	if serr != nil || merr != nil {
		if mtmp != "" {
			os.Remove(mtmp)
		}
		view.abort()
		return nil, cmp.Or(serr, merr)
	}
	var naming sync.WaitGroup
	naming.Go(func() { _ = view.commit() })
	err = commitFile(mtmp, mpath, true)
	naming.Wait()
	if err != nil {
		return nil, err
	}
	removeDebris(j.manifestsDir(), m.Time)
	res.Manifest = m
	return res, nil
}

// prevFile returns the previous snapshot's record of f when its size and
// modification time are unchanged (its bytes need not be read again).
func prevFile(prev *Manifest, f File) *File {
	if prev == nil {
		return nil
	}
	p := prev.File(f.Path)
	if p == nil || p.Size != f.Size || p.ModTime != f.ModTime {
		return nil
	}
	return p
}

// recordWorkers is how many files a snapshot reads and stores at once: a
// first snapshot stores every file of the store, and each costs a few
// file system calls (create, write, read back, rename) that mostly wait on
// the file system; side by side their waits overlap.
const recordWorkers = 4

// recordAll records the files seen[i] for each i of todo into files[i],
// side by side, and notes in res what it read and wrote. It stops at the
// first error (the one of the first such file in path order) or when ctx
// ends; the objects stored so far stay: the next snapshot finds them and
// only reads what is left, so a store too large for one hook's time budget
// is journaled over a few sessions.
func (j *Journal) recordAll(ctx context.Context, seen []File, todo []int, files []File, limit int64, req SnapshotRequest, res *SnapshotResult) error {
	type outcome struct {
		done, wrote bool
		err         error
	}
	outs := make([]outcome, len(todo))
	var (
		next atomic.Int64
		wg   sync.WaitGroup
	)
	for range min(recordWorkers, len(todo)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1) - 1)
				if k >= len(todo) || ctx.Err() != nil {
					return
				}
				i := todo[k]
				rec, wrote, err := j.record(seen[i], limit, req)
				if err != nil {
					outs[k].err = err
					next.Store(int64(len(todo))) // stop the others
					return
				}
				files[i], outs[k] = rec, outcome{done: true, wrote: wrote}
			}
		}()
	}
	wg.Wait()
	var err error
	for k, o := range outs {
		if o.err != nil && err == nil {
			err = o.err
		}
		if o.done {
			res.Read++
		}
		if o.wrote {
			res.written = append(res.written, j.objectPath(files[todo[k]].Digest))
		}
	}
	if err == nil && res.Read < len(todo) {
		err = fmt.Errorf("snapshot of %s stopped after storing %d of %d file(s) (%w); the next snapshot continues from there", j.Store, res.Read, len(seen), cmp.Or(ctx.Err(), context.Canceled))
	}
	if err != nil {
		// The objects stored so far are synced before the snapshot gives
		// up: the next one finds them stored, writes them no more, and
		// names them in its manifest.
		_ = syncFiles(res.written)
	}
	return err
}

// record reads one file and stores its bytes (or withholds them); wrote
// says whether a new object was written.
func (j *Journal) record(f File, limit int64, req SnapshotRequest) (File, bool, error) {
	if f.Size > limit {
		f.Withheld = "too-large"
		return f, false, nil
	}
	tf, err := req.Reads.Read(filepath.Join(j.Store, filepath.FromSlash(f.Path)))
	if err != nil {
		if isNotExist(err) { // deleted since the walk: record what was seen
			f.Withheld = "vanished"
			return f, false, nil
		}
		return f, false, err
	}
	data := tf.Raw
	f.Size = int64(len(data))
	f.Digest = tf.Digest // the read's own digest: one hash of the bytes
	if !req.IncludeSecrets && req.Secret != nil && req.Secret(data) {
		f.Withheld = "secret"
		return f, false, nil
	}
	wrote, err := j.putObject(f.Digest, data)
	return f, wrote, err
}

// walkStore lists the store's regular files, sorted by path. Hidden files
// and folders (.git, lock files, temporary files) and symlinks are not
// memory and are left out. A file the listing shows as regular is
// stat'ed through stats (following a link changes nothing for a regular
// file), so the run's other parts need not stat it again.
func walkStore(ctx context.Context, store string, stats *filecache.Stats) ([]File, error) {
	var out []File
	err := filepath.WalkDir(store, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == store {
				return err
			}
			return nil // an unreadable sub-folder is skipped, not fatal
		}
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if p != store && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		fi, err := stats.Stat(p)
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(store, p)
		out = append(out, File{Path: filepath.ToSlash(rel), Size: fi.Size(), ModTime: fi.ModTime().UnixNano()})
		return nil
	})
	sort.Slice(out, func(a, b int) bool { return out[a].Path < out[b].Path })
	return out, err
}
