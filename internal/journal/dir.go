// Package journal keeps a history of a memory store that no writer can skip:
// content-addressed snapshots of every file, taken at each session start and
// before each agent write, so that whatever an agent, a background
// consolidation or a concurrent session deletes can be seen and undone.
//
// The journal lives in memcompact's data directory, outside the store, so
// Claude Code never loads it. Each file's bytes are stored once by digest,
// as a loose object (objects/ab/abcdef…) or, when a snapshot stores many
// at once, in a pack (objects/<time>-<rand>.pack, see pack.go); each
// snapshot is a small manifest naming the files it saw
// (manifests/<time>-<rand>.json), stored whole or as its changes from the
// newest whole one (manifest_delta.go). Loose objects and manifests are written
// to a temporary name and renamed, and a manifest is named only once every
// object it names is durable, so a kill at any point leaves either the old
// journal or the new one; a half-written manifest is never under a real
// name, a manifest that cannot be read is skipped, never trusted, and no
// object is used unless its bytes match its digest. Snapshots hold the
// journal's lock shared and prune holds it alone (lock.go).
package journal

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/outcome"
)

// DataDir is memcompact's data directory: $MEMCOMPACT_DATA_DIR, else
// $XDG_DATA_HOME/memcompact, else the platform's per-user data folder
// (~/.local/share/memcompact on Linux, ~/Library/Application Support on
// macOS, %LOCALAPPDATA% on Windows).
func DataDir(getenv func(string) string, home string) (string, error) {
	if d := getenv("MEMCOMPACT_DATA_DIR"); d != "" {
		return d, nil
	}
	if d := getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "memcompact"), nil
	}
	switch runtime.GOOS {
	case "windows":
		if d := getenv("LOCALAPPDATA"); d != "" {
			return filepath.Join(d, "memcompact"), nil
		}
	case "darwin":
		if home != "" {
			return filepath.Join(home, "Library", "Application Support", "memcompact"), nil
		}
	}
	if home == "" {
		return "", errors.New("no data directory: HOME is not set (set MEMCOMPACT_DATA_DIR)")
	}
	return filepath.Join(home, ".local", "share", "memcompact"), nil
}

// storeKey names a store's journal folder: the store folder's base name
// for people, and a digest of its absolute path so two stores never share.
func storeKey(store string) string {
	sum := sha256.Sum256([]byte(filepath.Clean(store)))
	base := filepath.Base(filepath.Dir(store)) + "-" + filepath.Base(store)
	base = strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, base)
	if len(base) > 60 {
		base = base[len(base)-60:]
	}
	return base + "-" + hex.EncodeToString(sum[:6])
}

// Journal is one store's journal.
type Journal struct {
	Dir   string // the journal's own folder
	Store string // the store it records, absolute

	mu       sync.Mutex           // guards the run's state below, shared by its goroutines
	packList *[]*pack             // the packs' tables, once read (packs)
	tornList []tornPack           // packs whose tables are not whole, found by packs
	stored   map[string]bool      // digests this run knows stored (markStored)
	relied   []string             // loose objects this run names without storing (isStored)
	foreign  []string             // pack files of another format (packs)
	read     map[string]*Manifest // manifests this run decoded, by path (a named manifest never changes)
}

// open returns the journal of store under dataDir. Nothing is created
// until a snapshot is taken.
func open(dataDir, store string) (*Journal, error) {
	abs, err := filepath.Abs(store)
	if err != nil {
		return nil, err
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	j := &Journal{Dir: filepath.Join(dataDir, "journal", storeKey(abs)), Store: abs}
	if in, _ := atomicfile.Inside(abs, j.Dir); in {
		return nil, dataInStore(dataDir, abs)
	}
	if rd, err := resolveDir(dataDir); err == nil {
		if in, _ := atomicfile.Inside(abs, rd); in {
			return nil, dataInStore(dataDir, abs)
		}
	}
	return j, nil
}

// ReasonDataInStore is the refusal when memcompact's data directory lies
// inside the store it would journal: the journal would record itself, and
// an undo of the whole store would remove it.
const ReasonDataInStore outcome.Reason = "data-dir-in-store"

func dataInStore(dataDir, store string) error {
	return &outcome.Error{Status: outcome.Refused, Reason: ReasonDataInStore,
		Msg:   fmt.Sprintf("memcompact's data directory %s lies inside the store %s: the journal would record itself, and undoing the store would remove it; nothing was recorded", dataDir, store),
		Hints: []string{"set MEMCOMPACT_DATA_DIR (or XDG_DATA_HOME) to a folder outside the store"}}
}

// resolveDir is dir made absolute with its existing symlinks followed.
func resolveDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for p, rest := abs, ""; ; p, rest = filepath.Dir(p), filepath.Join(filepath.Base(p), rest) {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest), nil
		}
		if filepath.Dir(p) == p {
			return abs, nil
		}
	}
}

func (j *Journal) objectsDir() string   { return filepath.Join(j.Dir, "objects") }
func (j *Journal) manifestsDir() string { return filepath.Join(j.Dir, "manifests") }
func (j *Journal) sessionsDir() string  { return filepath.Join(j.Dir, "sessions") }

func (j *Journal) objectPath(digest string) string {
	return filepath.Join(j.objectsDir(), digest[:2], digest)
}

// ensureDirs makes the given folders of the journal, and every missing
// folder above them, durably: a folder's name lives in its parent, and a
// manifest must never be found without the folders it points into after
// a crash. Object shard folders, made as objects are stored, are synced
// with their objects (syncFiles).
func ensureDirs(dirs ...string) error {
	for _, d := range dirs {
		if err := mkdirDurable(d); err != nil {
			return err
		}
	}
	return nil
}

// mkdirDurable makes dir and its missing parents, then syncs the folder
// holding each one it made.
func mkdirDurable(dir string) error {
	var made []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		}
		made = append(made, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	if len(made) == 0 {
		return nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	for _, d := range made {
		_ = atomicfile.SyncDir(filepath.Dir(d))
	}
	return nil
}

// exists reports whether the journal has ever been written.
func (j *Journal) exists() bool {
	_, err := os.Stat(j.manifestsDir())
	return err == nil
}
