package journal

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/crashpoint"
	"github.com/memcompact/memcompact/internal/textfile"
)

// tmpPrefix marks the journal's temporary files, so a later run can tell
// debris of a killed process from the journal's own files.
const tmpPrefix = ".memcompact-tmp-"

// staleAfter is how old an object or a pack no snapshot names must be
// before prune removes it, and how old a copy must be before prune
// removes another on its strength. Prune holds the journal's lock alone,
// so no snapshot is storing or naming objects beside it and an object
// no snapshot names is a killed run's; the minute is a margin for file
// system clocks, not a wait for writers (an hour made a prune in a
// journal's first hour free nothing).
const staleAfter = time.Minute

// liveTempMax is how long a temporary file of a process still running
// is left alone: no write takes that long, so an older one is a killed
// run's whose process id was reused.
const liveTempMax = time.Hour

// debrisAfter is how old a temporary file of the journal must be before
// any run removes it as a killed run's debris, unless the process its
// name carries is still running: no write holds one for a minute.
const debrisAfter = time.Minute

// putObject stores data under its digest, as a frame (compressed), unless
// a whole copy is already there, unsynced (the caller syncs what it
// wrote, all at once); wrote says whether it wrote.
func (j *Journal) putObject(digest string, data []byte) (wrote bool, err error) {
	p := j.objectPath(digest)
	if raw, err := os.ReadFile(p); err == nil {
		if _, err := decodeLoose(raw, digest); err == nil {
			return false, nil
		}
	}
	return true, j.writeObjectFile(p, frameBytes(digest, data))
}

// writeObjectFile writes a loose object through a temporary file
// (stageFile, then commitFile), unsynced: a snapshot syncs its objects
// side by side (syncFiles) before it names its manifest, which is synced,
// so no manifest names an object a crash could lose, and a snapshot of
// many files waits for the disk about once. The temporary file is made in
// the objects folder, not in the object's shard, so a killed run's debris lies in one of three folders every run
// cleans (removeDebris), never in one of 256.
func (j *Journal) writeObjectFile(path string, data []byte) error {
	tmp, err := stageFileIn(j.objectsDir(), path, data, false)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		os.Remove(tmp)
		return err
	}
	return commitFile(tmp, path, false)
}

// markStored notes the objects m names as stored: a manifest names only
// objects that are durable, so this run need not store them again (they
// may lie in a pack, which is never trusted on its table alone).
func (j *Journal) markStored(m *Manifest) {
	if m == nil {
		return
	}
	var ds []string
	for _, f := range m.Files {
		if f.Digest != "" && f.Withheld == "" {
			ds = append(ds, f.Digest)
		}
	}
	j.noteStored(ds...)
}

// markFresh notes the objects a snapshot is storing in this run, so what
// the run records beside its manifest (a session's view of the index)
// does not store them again: it is named only once they are durable.
func (j *Journal) markFresh(objs []packObject) {
	for _, o := range objs {
		j.noteStored(o.digest)
	}
}

// noteStored adds digests to what this run knows stored.
func (j *Journal) noteStored(digests ...string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.stored == nil {
		j.stored = map[string]bool{}
	}
	for _, d := range digests {
		j.stored[d] = true
	}
}

// knownStored reports whether this run knows digest to be stored (or
// being stored, and durable before anything it names is).
func (j *Journal) knownStored(digest string) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.stored[digest]
}

// isStored reports whether digest needs no storing: known stored, or a
// loose object holds it whole (read and checked: a short or torn copy a
// killed run left is written again). That object may be one another run
// wrote and has not synced yet (or was killed before it could): this run
// syncs it with its own objects (relied) before naming it.
func (j *Journal) isStored(digest string, size int64) bool {
	if j.knownStored(digest) {
		return true
	}
	p := j.objectPath(digest)
	if raw, err := os.ReadFile(p); err == nil {
		if data, err := decodeLoose(raw, digest); err == nil && int64(len(data)) == size {
			j.rely(p)
			return true
		}
	}
	// A pack that holds it whole: a file an undo brings back is in the
	// pack of the snapshot it comes from, and storing it again would put
	// a second copy of every restored file in the journal.
	for _, pk := range j.packs() {
		if _, claims := pk.objects[digest]; !claims {
			continue
		}
		if data, err := pk.object(digest); err == nil && int64(len(data)) == size {
			j.rely(pk.path)
			return true
		}
	}
	return false
}

// rely notes a file this run names without writing it: it is synced
// with the run's own objects.
func (j *Journal) rely(path string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if !slices.Contains(j.relied, path) {
		j.relied = append(j.relied, path)
	}
}

// reliedOn returns the loose objects this run relies on (isStored).
func (j *Journal) reliedOn() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return slices.Clone(j.relied)
}

// object returns the stored bytes of digest, checked against it: the
// loose object's, else a pack's. Its error names every copy it tried and
// why each could not be read.
func (j *Journal) object(digest string) ([]byte, error) {
	if !textfile.IsDigest(digest) {
		return nil, fmt.Errorf("bad object digest %q", digest)
	}
	data, lerr := j.looseObject(digest)
	if lerr == nil {
		return data, nil
	}
	packed, why := j.packedObject(digest)
	if packed != nil {
		return packed, nil
	}
	// A prune may have moved it from a pack it dropped to a loose copy
	// meanwhile (readers do not take the journal's lock).
	if data, err := j.looseObject(digest); err == nil {
		return data, nil
	}
	if !isNotExist(lerr) {
		why = append([]string{lerr.Error()}, why...)
	}
	if len(why) == 0 {
		return nil, fmt.Errorf("journal object %s is stored nowhere (no loose copy, no pack holds it)", digest[:12])
	}
	return nil, fmt.Errorf("journal object %s cannot be read: %s", digest[:12], strings.Join(why, "; "))
}

// looseObject is the loose copy of digest, checked.
func (j *Journal) looseObject(digest string) ([]byte, error) {
	raw, err := os.ReadFile(j.objectPath(digest))
	if err != nil {
		return nil, err
	}
	return decodeLoose(raw, digest)
}

// stageFile is a write's first half: data written to a temporary file
// beside path (synced when sync), read back and compared. Nothing is
// under path's name yet, so a caller may stage while other files it must
// not be named before are still being synced; it returns the temporary
// file's name for commitFile.
func stageFile(path string, data []byte, sync bool) (string, error) {
	return stageFileIn(filepath.Dir(path), path, data, sync)
}

// stageFileIn is stageFile with the temporary file made in dir (on the
// same file system as path). Its name carries this process's id, so a
// later run can tell a killed run's debris from a live run's file.
func stageFileIn(dir, path string, data []byte, sync bool) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	f, err := os.CreateTemp(dir, tmpPrefix+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return "", err
	}
	tmp := f.Name()
	fail := func(err error) (string, error) {
		f.Close()
		os.Remove(tmp)
		return "", err
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if sync {
		if err := f.Sync(); err != nil {
			return fail(err)
		}
	}
	// Read back through the same descriptor (it is open for reading and
	// writing): the same check as reopening the file by name, without
	// the three system calls of a second open.
	back := make([]byte, len(data)+1)
	n, err := f.ReadAt(back, 0)
	if err == io.EOF {
		err = nil
	}
	if err != nil {
		return fail(err)
	}
	if !bytes.Equal(back[:n], data) {
		return fail(fmt.Errorf("%s: the bytes read back differ from the bytes written", path))
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return "", err
	}
	return tmp, nil
}

// commitFile is a write's second half: the staged tmp renamed to path,
// and path's folder synced when sync.
func commitFile(tmp, path string, sync bool) error {
	crashpoint.At("journal.before-rename")
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	if sync {
		_ = atomicfile.SyncDir(filepath.Dir(path))
	}
	return nil
}

// removeDebris deletes the temporary files a killed run left in dir:
// named with the journal's prefix, older than debrisAfter (by the file
// system's clock), and not of a process still running (an older
// version's names carry no process id: age alone decides).
func removeDebris(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	now := time.Now()
	for _, e := range ents {
		name := e.Name()
		if !strings.HasPrefix(name, tmpPrefix) || !e.Type().IsRegular() {
			continue
		}
		fi, err := e.Info()
		if err != nil || now.Sub(fi.ModTime()) < debrisAfter {
			continue
		}
		pid, err := strconv.Atoi(strings.SplitN(strings.TrimPrefix(name, tmpPrefix), "-", 2)[0])
		if err == nil && pid > 0 && running(pid) && now.Sub(fi.ModTime()) < liveTempMax {
			continue
		}
		os.Remove(filepath.Join(dir, name))
	}
}

// removeAllDebris is removeDebris in every folder a run of the journal
// stages files in (the object shards are prune's to clean: a loose
// object is staged in the objects folder), and in the store and its own
// folder, where memcompact's writers stage theirs.
func (j *Journal) removeAllDebris() {
	for _, d := range []string{j.objectsDir(), j.manifestsDir(), j.sessionsDir()} {
		removeDebris(d)
	}
	atomicfile.RemoveStale(j.Store)
	atomicfile.RemoveStale(filepath.Join(j.Store, atomicfile.OwnDir))
}

// isNotExist is errors.Is(err, fs.ErrNotExist).
func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// readStoreFile reads a regular file of the store (never a FIFO, a device
// or a folder, which could block or be huge), or returns an error.
func readStoreFile(path string) ([]byte, error) {
	f, err := textfile.Read(path)
	if err != nil {
		return nil, err
	}
	return f.Raw, nil
}
