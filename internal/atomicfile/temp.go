package atomicfile

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/lockfile"
)

// TempPrefix starts the name of every temporary file memcompact writes:
// ".memcompact-tmp-PID-NAME-RANDOM". The leading dot keeps it out of
// Markdown listings; IsScratch keeps it out of policy globs, drift and
// inventories.
const TempPrefix = ".memcompact-tmp-"

// RecoveredPrefix starts the name of a file holding another program's
// write that could not be put back under its own name (see Replace). It is
// never removed automatically.
const RecoveredPrefix = ".memcompact-recovered-"

// StaleAfter is the age past which a temporary file is removed even if the
// process that wrote it might still be alive: no write holds one for more
// than seconds.
const StaleAfter = time.Hour

// IsScratch reports whether a file name (without directory) is one of
// memcompact's own bookkeeping files — a temporary file, a recovered
// foreign write, the lock file — and so never a memory file.
func IsScratch(name string) bool {
	return strings.HasPrefix(name, ".memcompact-") || name == lockfile.Name
}

// IsTemp reports whether a file name (without directory) is a temporary
// file of a write in progress or of one a crash cut short: a copy of bytes
// that live (or lived) under another name, never content of its own.
func IsTemp(name string) bool { return strings.HasPrefix(name, TempPrefix) }

// OwnDir is the folder memcompact keeps inside a store or root for its
// own files (plans, sweep artifacts, snapshots, the recall log).
const OwnDir = ".memcompact"

// IsInternal reports whether a slash- or OS-separated path relative to a
// store or root names memcompact's own bookkeeping: a scratch file (see
// IsScratch) or anything inside OwnDir. Such a path is never a memory
// file, whatever a policy glob or a walk matches.
func IsInternal(rel string) bool {
	for _, part := range strings.FieldsFunc(rel, func(r rune) bool { return r == '/' || r == filepath.Separator }) {
		if part == OwnDir || IsScratch(part) {
			return true
		}
	}
	return false
}

// writeTemp writes data to a new temporary file in dir, fsyncs it and
// returns its path.
func writeTemp(dir, base string, data []byte, perm fs.FileMode) (string, error) {
	// Unique, not secret (O_EXCL refuses a clash): math/rand/v2's runtime
	// seeded generator, not crypto/rand, whose package would link its
	// DRBG and AES into every run.
	var rnd [8]byte
	binary.LittleEndian.PutUint64(rnd[:], rand.Uint64())
	if len(base) > 60 {
		base = base[:60]
	}
	p := filepath.Join(dir, fmt.Sprintf("%s%d-%s-%s", TempPrefix, os.Getpid(), base, hex.EncodeToString(rnd[:6])))
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return "", err
	}
	_, err = f.Write(data)
	if err == nil {
		// fsync before the rename: without it a crash can leave the new
		// name pointing at an empty file.
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		// Permissions as asked, whatever the umask.
		err = os.Chmod(p, perm)
	}
	if err != nil {
		os.Remove(p)
		return "", err
	}
	return p, nil
}

// RemoveStale removes the temporary files in dir that no live run can own
// (see removeStale). Every write does it in its own folder; a run that
// may end without writing calls it so a crashed run's debris still goes.
func RemoveStale(dir string) { removeStale(dir) }

// removeStale removes the temporary files in dir that no live run can own:
// those whose writer has exited (crashed, since a finished run removes its
// own) and those older than StaleAfter. Failures are ignored; the next
// run tries again.
func removeStale(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		name := e.Name()
		if !strings.HasPrefix(name, TempPrefix) || !e.Type().IsRegular() {
			continue
		}
		pid, _ := strconv.Atoi(strings.SplitN(strings.TrimPrefix(name, TempPrefix), "-", 2)[0])
		stale := pid > 0 && pid != os.Getpid() && !alive(pid)
		if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > StaleAfter {
			stale = true
		}
		if stale {
			os.Remove(filepath.Join(dir, name))
		}
	}
}

// linkNew gives the file at tmp the name target, failing with an error
// wrapping fs.ErrExist if target exists. A hard link is atomic and never
// overwrites; where links are not supported, a checked rename stands in.
func linkNew(tmp, target string) error {
	err := os.Link(tmp, target)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return err
	}
	if _, lerr := os.Lstat(target); lerr == nil {
		return &fs.PathError{Op: "create", Path: target, Err: fs.ErrExist}
	}
	return os.Rename(tmp, target)
}
