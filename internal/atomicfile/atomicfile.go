// Package atomicfile holds the only ways memcompact changes a file on disk.
//
// A rewrite is all-or-nothing and never clobbers a concurrent edit:
// Replace writes a temporary file in the target's own directory, fsyncs it,
// re-reads the target and compares its digest with the one the caller
// planned against, and only then renames over it and fsyncs the directory.
// A snapshot is created with O_EXCL so an existing one is never overwritten,
// and read back to prove its bytes. Append is a real O_APPEND write, so
// records other writers appended in the meantime are kept.
package atomicfile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"

	"github.com/memcompact/memcompact/internal/textfile"
)

// ErrChanged reports that the file changed between the caller's read and
// the write: another session edited it, so writing would lose that edit.
var ErrChanged = errors.New("the file changed on disk since it was read; re-run to plan against the new contents")

// Replace atomically replaces path with data. wantDigest is the hex SHA-256
// of the bytes the caller read and planned against; if the file on disk no
// longer has that digest, nothing is written and the error wraps
// ErrChanged. An empty wantDigest means the file must not exist yet.
// Symlinks are followed and the link target is replaced, so a store that
// links its index elsewhere keeps its link. Non-regular targets are refused.
func Replace(path string, data []byte, wantDigest string) error {
	target, err := resolve(path)
	if err != nil {
		return err
	}
	perm := fs.FileMode(0o644)
	fi, err := os.Stat(target)
	switch {
	case err == nil:
		if !fi.Mode().IsRegular() {
			return &fs.PathError{Op: "replace", Path: path, Err: textfile.ErrNotRegular}
		}
		perm = fi.Mode().Perm()
	case errors.Is(err, fs.ErrNotExist):
		if wantDigest != "" {
			return &fs.PathError{Op: "replace", Path: path, Err: ErrChanged}
		}
	default:
		return err
	}
	t, err := renameio.NewPendingFile(target, renameio.WithTempDir(filepath.Dir(target)), renameio.WithPermissions(perm))
	if err != nil {
		return err
	}
	defer t.Cleanup()
	if _, err := t.Write(data); err != nil {
		return err
	}
	// The digest check sits as late as it can: after the temporary file is
	// written and just before the rename, so the window in which another
	// writer's edit could be lost is as small as a rename.
	if err := Unchanged(target, wantDigest); err != nil {
		return &fs.PathError{Op: "replace", Path: path, Err: err}
	}
	if err := t.CloseAtomicallyReplace(); err != nil {
		return err
	}
	return syncDir(filepath.Dir(target))
}

// Unchanged reports (as a nil error) whether the file at path still has the
// digest want; an empty want means the file must not exist.
func Unchanged(path, want string) error {
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		if want == "" {
			return nil
		}
		return ErrChanged
	}
	if err != nil {
		return err
	}
	if want == "" || textfile.Digest(raw) != want {
		return ErrChanged
	}
	return nil
}

// CreateExclusive writes data to a new file at path, failing with an error
// wrapping fs.ErrExist if anything is already there, then reads it back
// and confirms the bytes. It is how snapshots are written: a snapshot is
// never overwritten, and never trusted before it is proven.
func CreateExclusive(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return err
	}
	back, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if !bytes.Equal(back, data) {
		return fmt.Errorf("%s: the bytes read back differ from the bytes written", path)
	}
	return syncDir(filepath.Dir(path))
}

// Append appends data to path with O_APPEND (creating it if absent), so
// concurrent appenders interleave whole writes instead of overwriting each
// other. A non-regular target is refused.
func Append(path string, data []byte) error {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return &fs.PathError{Op: "append", Path: path, Err: textfile.ErrNotRegular}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// resolve follows symlinks in path; a path that does not exist yet is
// returned as given.
func resolve(path string) (string, error) {
	t, err := filepath.EvalSymlinks(path)
	if errors.Is(err, fs.ErrNotExist) {
		return path, nil
	}
	return t, err
}

// syncDir fsyncs a directory so a rename in it survives a crash.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		return err
	}
	return nil
}
