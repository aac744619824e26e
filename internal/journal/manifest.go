package journal

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/textfile"
)

// manifestVersion is the schema of a manifest file.
const manifestVersion = 1

// File is one file of the store as a snapshot saw it.
type File struct {
	Path    string `json:"path"` // slash-separated, relative to the store
	Digest  string `json:"sha256,omitempty"`
	Size    int64  `json:"size"`
	ModTime int64  `json:"mtime_ns"`
	// Ctime and Ino are the rest of the stat the file was trusted on: an
	// edit that keeps the size and sets the modification time back (touch
	// -d) still moves the inode change time, and a replace makes a new
	// inode. 0 where the system has neither.
	Ctime int64  `json:"ctime_ns,omitempty"`
	Ino   uint64 `json:"ino,omitempty"`
	// Hashed is when the digest was taken (the wall clock as the read
	// began, in ns): a file whose stat matches is trusted on its stat only
	// when it last changed more than racyWindow before (racy, in git's
	// sense, otherwise: it could change again within the same clock tick
	// of its times without them moving).
	Hashed int64 `json:"hashed_ns,omitempty"`
	// Withheld says why the bytes were not stored ("secret", "too-large");
	// such a file is listed, so history still sees it come and go, but it
	// cannot be restored from the journal.
	Withheld string `json:"withheld,omitempty"`
}

// Manifest is one snapshot: when, why, and every file the store held.
type Manifest struct {
	Version int       `json:"version"`
	ID      string    `json:"id"`
	Time    time.Time `json:"time"`
	Cause   string    `json:"cause"`
	Session string    `json:"session,omitempty"`
	Store   string    `json:"store"`
	Files   []File    `json:"files"`
	// Partial marks a snapshot of only part of the store (a first
	// snapshot of a store too large for one hook's time): the next
	// snapshot trusts what it lists, and history, undo and the session
	// note never compare with it (a file it lacks was not removed).
	Partial bool `json:"partial,omitempty"`

	live bool // the store as it is now, never stored: its bytes are read from the store

	// base is the ID of the whole manifest this one is stored as the
	// changes from (manifest_delta.go), "" when it is stored whole; run
	// is its place among that base's deltas.
	base string
	run  int
}

// File returns the entry for path, or nil.
func (m *Manifest) File(path string) *File {
	i := sort.Search(len(m.Files), func(i int) bool { return m.Files[i].Path >= path })
	if i < len(m.Files) && m.Files[i].Path == path {
		return &m.Files[i]
	}
	return nil
}

// sameContent reports whether two manifests hold the same files with the
// same bytes, whatever their times and causes.
func sameContent(a, b *Manifest) bool {
	if len(a.Files) != len(b.Files) {
		return false
	}
	for i := range a.Files {
		x, y := a.Files[i], b.Files[i]
		if x.Path != y.Path || x.Digest != y.Digest || x.Size != y.Size || x.Withheld != y.Withheld {
			return false
		}
	}
	return true
}

// newID names a snapshot by its time (sortable) and a random suffix, so two
// processes snapshotting in the same nanosecond never collide.
func newID(t time.Time) string {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], rand.Uint32()) // unique, not secret: see atomicfile.writeTemp
	return t.UTC().Format("20060102T150405.000000000Z") + "-" + hex.EncodeToString(b[:3])
}

// manifests returns every readable snapshot, oldest first. Files that do not
// parse (a half-written manifest cannot be under a real name, but a disk can
// still corrupt one) are skipped and named in bad.
func (j *Journal) manifests() (ms []*Manifest, bad []string, err error) {
	return j.readManifests(false)
}

// allManifests is manifests with the partial snapshots too: prune keeps
// what they name like any other's.
func (j *Journal) allManifests() (ms []*Manifest, bad []string, err error) {
	return j.readManifests(true)
}

// partExt ends the name of a partial snapshot's manifest, so the readers
// that never use one skip it unread (a part of a 100,000-file store is a
// large manifest), and the first whole snapshot removes them by name.
const partExt = ".part.json"

// readManifests reads the manifests, the partial ones too when parts.
func (j *Journal) readManifests(parts bool) (ms []*Manifest, bad []string, err error) {
	ents, err := os.ReadDir(j.manifestsDir())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	for _, e := range ents {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") || strings.HasPrefix(name, ".") || !parts && strings.HasSuffix(name, partExt) {
			continue
		}
		m, err := j.readManifest(filepath.Join(j.manifestsDir(), name))
		if err != nil {
			bad = append(bad, name)
			continue
		}
		if m.Partial && !parts {
			continue
		}
		ms = append(ms, m)
	}
	sort.SliceStable(ms, func(a, b int) bool { return ms[a].ID < ms[b].ID })
	return ms, bad, nil
}

// latest returns the newest readable snapshot, or nil when there is none.
func (j *Journal) latest() (*Manifest, error) {
	ents, err := os.ReadDir(j.manifestsDir())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	// ReadDir sorts by name and names sort by time: walk back from the end
	// past any unreadable one.
	for i := len(ents) - 1; i >= 0; i-- {
		name := ents[i].Name()
		if !strings.HasSuffix(name, ".json") || strings.HasPrefix(name, ".") {
			continue
		}
		if m, err := j.readManifest(filepath.Join(j.manifestsDir(), name)); err == nil {
			return m, nil
		}
	}
	return nil, nil
}

// lookup returns the snapshot whose ID is id or starts with it (a unique
// prefix), or the newest taken at or before a time given as RFC 3339 or
// YYYY-MM-DD (end of that day).
func (j *Journal) lookup(ref string) (*Manifest, error) {
	ms, bad, err := j.manifests()
	if err != nil {
		return nil, err
	}
	if len(ms) == 0 {
		if err := j.unreadable(ref, bad); err != nil {
			return nil, err
		}
		if len(bad) > 0 {
			return nil, fmt.Errorf("the journal of %s has no snapshot that can be read: %d cannot be ('memcompact history' names them)", j.Store, len(bad))
		}
		return nil, fmt.Errorf("the journal of %s has no snapshots yet", j.Store)
	}
	if n, ok := lastN(ref); ok {
		if n >= len(ms) {
			return nil, fmt.Errorf("%s: the journal has only %d snapshot(s)", ref, len(ms))
		}
		return ms[len(ms)-1-n], nil
	}
	if t, ok := parseWhen(ref); ok {
		var best *Manifest
		for _, m := range ms {
			if !m.Time.After(t) {
				best = m
			}
		}
		if best == nil {
			return nil, fmt.Errorf("no snapshot at or before %s (the oldest is %s)", ref, ms[0].ID)
		}
		return best, nil
	}
	var hits []*Manifest
	for _, m := range ms {
		if m.ID == ref {
			return m, nil
		}
		if strings.HasPrefix(m.ID, ref) {
			hits = append(hits, m)
		}
	}
	switch len(hits) {
	case 0:
		if err := j.unreadable(ref, bad); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("no snapshot %q in the journal of %s ('memcompact history' lists them)", ref, j.Store)
	case 1:
		return hits[0], nil
	}
	return nil, fmt.Errorf("snapshot %q is ambiguous: %d snapshots start with it", ref, len(hits))
}

// unreadable is an error naming why the snapshot ref names cannot be
// read, when ref names (or begins the name of) one of the manifests bad;
// lookup asks only when no readable snapshot answers ref, where "no
// snapshot" would be false.
func (j *Journal) unreadable(ref string, bad []string) error {
	if ref == "" {
		return nil
	}
	for _, name := range bad {
		if !strings.HasPrefix(name, ref) {
			continue
		}
		_, err := j.readManifest(filepath.Join(j.manifestsDir(), name))
		if err == nil {
			continue
		}
		return fmt.Errorf("snapshot %s cannot be read (%v); 'memcompact history' lists the snapshots that can", strings.TrimSuffix(name, ".json"), err)
	}
	return nil
}

// lastN reads "last" (0) and "last~N" (N snapshots before the newest).
func lastN(ref string) (int, bool) {
	if ref == "last" || ref == "latest" {
		return 0, true
	}
	rest, ok := strings.CutPrefix(ref, "last~")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil && n >= 0
}

// parseWhen reads a point in time: RFC 3339, or a date meaning the end of
// that day in local time.
func parseWhen(s string) (time.Time, bool) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, true
	}
	if t, ok := textfile.ParseLocalDate(s); ok {
		return t.Add(24*time.Hour - time.Nanosecond), true
	}
	return time.Time{}, false
}

// encodeManifest is m as stored whole: its binary layout
// (manifest_bin.go), zstd-compressed (a manifest lists every file of the
// store with its digest, and is written once per change: uncompressed,
// the manifests were half of a journal's bytes). The file keeps its .json
// name, so every reader finds old and new manifests alike.
func encodeManifest(m *Manifest) ([]byte, error) {
	raw, err := marshalManifest(m)
	if err != nil {
		return nil, err
	}
	return zenc().EncodeAll(raw, nil), nil
}

// storedManifest is m as a snapshot stores it, prev being the newest
// snapshot before it: as its changes from prev's base (or prev, when
// prev is whole) when that is less than half the whole layout, else
// whole. It notes in m how it is stored.
func (j *Journal) storedManifest(m, prev *Manifest) ([]byte, error) {
	whole, err := marshalManifest(m)
	if err != nil {
		return nil, err
	}
	if base, run := j.deltaBase(prev); base != nil && !m.Partial {
		if d, err := marshalDelta(m, base, run, whole); err == nil && len(d) < len(whole)/2 {
			m.base, m.run = base.ID, run
			return zenc().EncodeAll(d, nil), nil
		}
	}
	m.base, m.run = "", 0
	return zenc().EncodeAll(whole, nil), nil
}

// deltaBase is the whole manifest the snapshot after prev is stored as
// the changes from, and its place among that base's deltas; nil when it
// is stored whole (no prev, a partial one, or a base with its
// maxDeltaRun deltas).
func (j *Journal) deltaBase(prev *Manifest) (*Manifest, int) {
	switch {
	case prev == nil || prev.Partial || prev.run >= maxDeltaRun:
		return nil, 0
	}
	id, run := prev.base, prev.run+1
	if id == "" {
		id, run = prev.ID, 1
	}
	// The base as a reader will find it: under its ID's name (a file
	// renamed by hand is no base), whole.
	base, err := j.readManifestAs(j.manifestPath(id), false)
	if err != nil || base.ID != id || base.Partial {
		return nil, 0
	}
	return base, run
}

// readManifest reads a manifest: the compressed binary layout, whole or
// a delta, or one an older memcompact wrote: compressed JSON, or plain
// JSON.
func (j *Journal) readManifest(path string) (*Manifest, error) {
	return j.readManifestAs(path, true)
}

// readManifestAs is readManifest; a delta is refused unless deltas (a
// delta's base is read so: never a chain, never a loop).
func (j *Journal) readManifestAs(path string, deltas bool) (*Manifest, error) {
	j.mu.Lock()
	if m, ok := j.read[path]; ok {
		j.mu.Unlock()
		if m.base != "" && !deltas {
			return nil, fmt.Errorf("%s: a delta, not a whole manifest", path)
		}
		return m, nil
	}
	j.mu.Unlock()
	m, err := j.decodeManifestAs(path, deltas)
	if err == nil {
		j.mu.Lock()
		if j.read == nil {
			j.read = map[string]*Manifest{}
		}
		j.read[path] = m
		j.mu.Unlock()
	}
	return m, err
}

// decodeManifest reads and decodes the manifest at path.
func (j *Journal) decodeManifest(path string) (*Manifest, error) {
	return j.decodeManifestAs(path, true)
}

// decodeManifestAs is decodeManifest, a delta refused unless deltas.
// A delta whose base is gone is read once more: prune writes a delta
// whole before it removes its base, and readers do not take the lock.
func (j *Journal) decodeManifestAs(path string, deltas bool) (*Manifest, error) {
	for again := true; ; again = false {
		raw, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		if bytes.HasPrefix(raw, zstdMagic) {
			if raw, err = zdec().DecodeAll(raw, nil); err != nil {
				return nil, fmt.Errorf("%s: the compressed manifest does not decode: %w", path, err)
			}
		}
		if !bytes.HasPrefix(raw, binDeltaMagic) {
			return parseManifest(path, raw)
		}
		if !deltas {
			return nil, fmt.Errorf("%s: a delta, not a whole manifest", path)
		}
		baseGone := false
		m, err := unmarshalDelta(raw, func(id string) (*Manifest, error) {
			m, err := j.readManifestAs(j.manifestPath(id), false)
			baseGone = isNotExist(err)
			return m, err
		})
		if err == nil {
			return m, nil
		}
		if !baseGone || !again {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
}

// parseManifest decodes a whole manifest's uncompressed bytes: the
// binary layout, or JSON.
func parseManifest(path string, raw []byte) (*Manifest, error) {
	if bytes.HasPrefix(raw, binManifestMagic) {
		m, err := unmarshalManifest(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if m.ID == "" {
			return nil, fmt.Errorf("%s: a manifest without an id", path)
		}
		return m, nil
	}
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if m.Version != manifestVersion || m.ID == "" {
		return nil, fmt.Errorf("%s: not a version-%d manifest", path, manifestVersion)
	}
	return &m, nil
}

// rebase writes m, stored as a delta, whole, durably: prune does so
// before it removes m's base.
func (j *Journal) rebase(m *Manifest) error {
	raw, err := encodeManifest(m)
	if err != nil {
		return err
	}
	path := j.manifestFile(m)
	tmp, err := stageFile(path, raw, true)
	if err != nil {
		return err
	}
	if err := commitFile(tmp, path, true); err != nil {
		return err
	}
	m.base, m.run = "", 0
	return nil
}

// manifestPath is where the manifest of snapshot id is stored.
func (j *Journal) manifestPath(id string) string {
	return filepath.Join(j.manifestsDir(), id+".json")
}

// manifestFile is where m is stored: a partial one under partExt.
func (j *Journal) manifestFile(m *Manifest) string {
	if m.Partial {
		return filepath.Join(j.manifestsDir(), m.ID+partExt)
	}
	return j.manifestPath(m.ID)
}

// dropParts removes the partial snapshots' manifests once a whole one
// supersedes them: nothing reads them but the next snapshot, which now
// has the whole one (what only they name, prune removes).
func (j *Journal) dropParts() {
	ents, _ := os.ReadDir(j.manifestsDir())
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), partExt) && !strings.HasPrefix(e.Name(), ".") {
			os.Remove(filepath.Join(j.manifestsDir(), e.Name()))
		}
	}
}
