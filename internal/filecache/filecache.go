// Package filecache remembers small results about files so a verb that
// runs on every session start or every write (the secrets scan of doctor
// and the hooks, the sweep plan's figure) costs a stat per unchanged file
// instead of a read and a computation. Two kinds of record:
//
//   - per file (Put, Stat, Digest): keyed by the file's path, its stamp
//     (size, modification time, inode and inode change time) and its
//     content digest;
//   - per set of files (Remember, Recall): a result computed from several
//     files, kept with the stamp of every one of them, and trusted only
//     while every one still has that stamp.
//
// The cache lives in os.UserCacheDir()/memcompact, one file per namespace
// (a kind of result and the directory it is about), in a small binary
// encoding of its own (codec.go): a session-start hook loads three of
// them, and a 1,000-file store's must decode in a millisecond or two,
// which JSON could not (issue 12). It is only
// ever a shortcut: a missing, corrupt, stale, foreign-version or
// unwritable cache is ignored and rebuilt, never reported, and a result is
// trusted on stamps only when the files last changed more than racyWindow
// before the moment the result was recorded (a file written within the
// same clock tick as its record could change again without its times
// moving); otherwise a per-file record falls back to the content digest
// and a per-set record is recomputed. Callers store no secret in it: the
// secrets scan stores rule ids and byte positions.
package filecache

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/atomicfile"
)

// racyWindow is how close to its recording a file's modification time may
// be before stat alone is not trusted.
const racyWindow = 2 * time.Second

// Cache is one namespace's records. The zero value and a nil *Cache are
// disabled caches: every lookup misses and Save does nothing.
type Cache struct {
	path  string
	file  cacheFile
	dirty bool
	// seen holds the paths this run stat'ed or recorded: they exist, so
	// Save needs no second look at them.
	seen map[string]bool
}

type cacheFile struct {
	Version string
	Records map[string]Record
	Memos   map[string]memo
}

// format versions the cache file's own layout; a file of another format
// is ignored like a corrupt one. 4: codec.go's encoding.
const format = "4"

// ext is the cache files' extension; legacyExts those of earlier formats
// (2: JSON, 3: gob), removed when the namespace is next saved.
const ext = ".cache"

var legacyExts = []string{".json", ".gob"}

// Record is what is remembered of one file.
type Record struct {
	Stamp
	Digest   string
	Recorded int64
	Data     json.RawMessage
}

// Open loads the namespace's cache for results of the given version (a
// caller changes version whenever what it stores would change meaning).
// It never fails: without a cache directory the cache is disabled.
func Open(namespace, version string) *Cache {
	dir, err := os.UserCacheDir()
	if err != nil || dir == "" {
		return nil
	}
	sum := sha256.Sum256([]byte(namespace))
	c := &Cache{path: filepath.Join(dir, "memcompact", hex.EncodeToString(sum[:12])+ext)}
	if b, err := os.ReadFile(c.path); err == nil {
		if f, ok := decode(b); ok && f.Version == format+" "+version {
			c.file = f
		}
	}
	c.file.Version = format + " " + version
	if c.file.Records == nil {
		c.file.Records = map[string]Record{}
	}
	if c.file.Memos == nil {
		c.file.Memos = map[string]memo{}
	}
	return c
}

// Stat returns path's data when the file has not changed since it was
// recorded, as far as its stamp tells.
func (c *Cache) Stat(path string, fi fs.FileInfo) ([]byte, bool) {
	if c == nil {
		return nil, false
	}
	c.see(path)
	r, ok := c.file.Records[path]
	st := StampInfo(fi)
	if !ok || r.Stamp != st || !st.settled(r.Recorded) {
		return nil, false
	}
	return r.Data, true
}

// Digest returns path's data when its content digest is the recorded one
// (the file was touched, or written within the racy window, but holds the
// same bytes), and records its new size and time.
func (c *Cache) Digest(path string, fi fs.FileInfo, digest string) ([]byte, bool) {
	if c == nil {
		return nil, false
	}
	r, ok := c.file.Records[path]
	if !ok || r.Digest != digest {
		return nil, false
	}
	c.Put(path, fi, digest, r.Data)
	return r.Data, true
}

// Put records path's data.
func (c *Cache) Put(path string, fi fs.FileInfo, digest string, data []byte) {
	if c == nil {
		return
	}
	c.file.Records[path] = Record{Stamp: StampInfo(fi), Digest: digest, Recorded: now(), Data: data}
	c.dirty = true
	c.see(path)
}

// see notes that path exists (the caller holds its stat).
func (c *Cache) see(path string) {
	if c.seen == nil {
		c.seen = map[string]bool{}
	}
	c.seen[path] = true
}

// Sum is the content digest Digest and Put expect.
func Sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// Save writes the cache back if anything changed, dropping records of
// files that no longer exist. Errors are ignored: the next run rebuilds.
func (c *Cache) Save() {
	if c == nil || !c.dirty {
		return
	}
	// Records of files that no longer exist are dropped; a file this run
	// stat'ed is there, so only the others are looked at (a first run
	// records every file of a store and would stat each again).
	for p := range c.file.Records {
		if c.seen[p] {
			continue
		}
		if _, err := os.Lstat(p); err != nil {
			delete(c.file.Records, p)
		}
	}
	b := encode(&c.file)
	if os.MkdirAll(filepath.Dir(c.path), 0o700) != nil {
		return
	}
	// A temporary file renamed over the cache: a reader never sees half a
	// cache, and of two runs saving at once the last wins (a cache may
	// forget; it must not lie).
	// The temporary file carries memcompact's one temporary prefix and
	// this process's id, so a save killed half-way leaves debris the next
	// save removes.
	atomicfile.RemoveStale(filepath.Dir(c.path))
	tmp, err := os.CreateTemp(filepath.Dir(c.path), fmt.Sprintf("%s%d-cache-*", atomicfile.TempPrefix, os.Getpid()))
	if err != nil {
		return
	}
	_, werr := tmp.Write(b)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), c.path) != nil {
		os.Remove(tmp.Name())
	}
	for _, old := range legacyExts {
		os.Remove(strings.TrimSuffix(c.path, ext) + old)
	}
	c.dirty = false
}

// DigestOf returns the content digest recorded for path, or "".
func (c *Cache) DigestOf(path string) string {
	if c == nil {
		return ""
	}
	return c.file.Records[path].Digest
}
