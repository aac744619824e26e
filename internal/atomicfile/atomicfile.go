// Package atomicfile holds the only ways memcompact changes a file on disk.
//
// A rewrite is all-or-nothing and never clobbers a concurrent edit, whether
// the other writer is memcompact or not:
//
//   - Replace opens the target and checks its digest against the one the
//     caller planned against, takes an advisory lock on that very inode (so
//     two memcompact writers of one file take turns even without the store
//     lock of package lockfile), writes and fsyncs a temporary file in the
//     target's directory, checks again just before the rename, renames
//     (on Linux as an atomic exchange, so a foreign rename that slipped in
//     is seen and put back), fsyncs the directory, and then keeps watching
//     the old inode for a moment: an append that reached it (an editor's or
//     a shell's ">>" that opened the file before the rename) is re-applied
//     onto the new file, and an in-place rewrite of it is put back and the
//     replace refused.
//   - Append is a Replace of the file with the data added, retried when
//     another writer changed the file meanwhile, so a crash never leaves a
//     torn half-entry.
//   - CreateExclusive (snapshots, backups) writes a temporary file, fsyncs
//     and reads it back, and only then links it to its real name, which
//     fails if the name is taken: a snapshot is never overwritten and never
//     left partial under a real name.
//
// Temporary files carry one prefix, TempPrefix, and IsScratch tells them
// (and the lock file) apart from memory files. A temporary file left by a
// crashed run is removed by the next write into its directory.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/memcompact/memcompact/internal/crashpoint"
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
	return (*Batch)(nil).Replace(path, data, wantDigest)
}

// Batch is many Replace calls, one after the other, in a few folders (an
// undo that writes back thousands of entries): each folder's scan for a
// killed run's temporary files is done once, not once per file (a
// ReadDir per write was quadratic in the folder's size), and each folder
// is synced once, by Sync, not after every rename. Every file is still
// read and its digest checked just before its own atomic replace, and
// each rename is atomic; until Sync, a crash may leave some renames
// undone (each file old or new, never torn). A nil *Batch is Replace.
type Batch struct {
	scanned map[string]bool // folders scanned for debris
	dirty   []string        // folders renamed into, to sync
}

// NewBatch starts a batch of replaces.
func NewBatch() *Batch { return &Batch{scanned: map[string]bool{}} }

// Replace is the package's Replace within the batch.
func (b *Batch) Replace(path string, data []byte, wantDigest string) error {
	target, err := resolve(path)
	if err != nil {
		return err
	}
	if err := b.replace(target, data, wantDigest, true); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return err
		}
		return &fs.PathError{Op: "replace", Path: path, Err: err}
	}
	return nil
}

// replace is Replace on a resolved path; watch says whether to watch the
// old inode after the rename (off when putting a foreign write back).
func replace(target string, data []byte, want string, watch bool) error {
	return (*Batch)(nil).replace(target, data, want, watch)
}

// replace is the package's replace within the batch.
func (b *Batch) replace(target string, data []byte, want string, watch bool) error {
	dir := filepath.Dir(target)
	if b == nil || !b.scanned[dir] {
		removeStale(dir)
		if b != nil {
			b.scanned[dir] = true
		}
	}
	old, orig, err := openOld(target, want)
	if err != nil {
		return err
	}
	if old == nil {
		return b.create(target, data)
	}
	defer old.Close()
	unlock, err := lockInode(old)
	if err != nil {
		return err
	}
	defer unlock()
	crashpoint.At("replace:locked")
	fi, _ := old.Stat()
	tmp, err := writeTemp(dir, filepath.Base(target), data, fi.Mode().Perm())
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	crashpoint.At("replace:temp-written")
	// The second check sits as late as it can: after the temporary file is
	// written and just before the rename.
	if err := recheck(target, old, want); err != nil {
		return err
	}
	crashpoint.At("replace:before-rename")
	if err := swapIn(tmp, target, old); err != nil {
		return err
	}
	crashpoint.At("replace:renamed")
	if err := b.syncDir(dir); err != nil {
		return err
	}
	if !watch {
		return nil
	}
	return reconcile(old, orig, target)
}

// openOld opens the file a Replace is about to replace and proves it holds
// the bytes the caller planned against. It returns a nil file when the
// target must not exist and does not.
func openOld(target, want string) (*os.File, []byte, error) {
	f, err := os.Open(target)
	if errors.Is(err, fs.ErrNotExist) {
		if want != "" {
			return nil, nil, ErrChanged
		}
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = textfile.ErrNotRegular
	}
	var raw []byte
	if err == nil {
		raw, err = readAll(f)
	}
	if err == nil && (want == "" || textfile.Digest(raw) != want) {
		err = ErrChanged
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, raw, nil
}

// recheck proves, just before the rename, that the target is still the
// inode that was checked and that it still has the planned digest.
func recheck(target string, old *os.File, want string) error {
	fi, err := os.Stat(target)
	if err != nil {
		return ErrChanged
	}
	ofi, err := old.Stat()
	if err != nil || !os.SameFile(fi, ofi) {
		return ErrChanged
	}
	raw, err := readAll(old)
	if err != nil {
		return err
	}
	if textfile.Digest(raw) != want {
		return ErrChanged
	}
	return nil
}

// create writes a file that must not exist yet. The temporary file is
// linked to the name, which fails if another writer created it meanwhile.
// Its folder is synced now, or, in a batch, at Sync.
func (b *Batch) create(target string, data []byte) error {
	dir := filepath.Dir(target)
	tmp, err := writeTemp(dir, filepath.Base(target), data, 0o644)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	crashpoint.At("create:temp-written")
	if err := linkNew(tmp, target); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return ErrChanged
		}
		return err
	}
	return b.syncDir(dir)
}

// syncDir syncs dir now, or (in a batch) once at Sync.
func (b *Batch) syncDir(dir string) error {
	if b == nil {
		return SyncDir(dir)
	}
	if !slices.Contains(b.dirty, dir) {
		b.dirty = append(b.dirty, dir)
	}
	return nil
}

// Sync syncs every folder the batch renamed into, making its replaces
// durable; the batch can go on after it.
func (b *Batch) Sync() error {
	if b == nil {
		return nil
	}
	var errs []error
	for _, d := range b.dirty {
		errs = append(errs, SyncDir(d))
	}
	b.dirty = nil
	return errors.Join(errs...)
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

// maxAppendTries bounds Append's retries against a file that keeps
// changing under it.
const maxAppendTries = 20

// Append adds data to the end of path (creating it if absent) through an
// atomic Replace, so a crash leaves either the old file or the whole new
// one, never a torn entry. When another writer changes the file between
// the read and the replace, it reads again and retries. A non-regular
// target is refused.
func Append(path string, data []byte) error {
	target, err := resolve(path)
	if err != nil {
		return err
	}
	if fi, err := os.Stat(target); err == nil && !fi.Mode().IsRegular() {
		return &fs.PathError{Op: "append", Path: path, Err: textfile.ErrNotRegular}
	}
	for try := 0; try < maxAppendTries; try++ {
		cur, err := os.ReadFile(target)
		want := ""
		switch {
		case err == nil:
			want = textfile.Digest(cur)
		case !errors.Is(err, fs.ErrNotExist):
			return err
		}
		err = replace(target, append(cur[:len(cur):len(cur)], data...), want, true)
		if !errors.Is(err, ErrChanged) {
			if err != nil {
				return &fs.PathError{Op: "append", Path: path, Err: err}
			}
			return nil
		}
	}
	return &fs.PathError{Op: "append", Path: path, Err: fmt.Errorf("the file kept changing; %w", ErrChanged)}
}

// readAll reads f from its start, whatever its offset.
func readAll(f *os.File) ([]byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	buf := make([]byte, fi.Size()+512)
	n := 0
	for {
		m, err := f.ReadAt(buf[n:], int64(n))
		n += m
		if err != nil {
			if errors.Is(err, io.EOF) {
				return buf[:n], nil
			}
			return nil, err
		}
		if n == len(buf) {
			buf = append(buf, make([]byte, len(buf))...)
		}
	}
}

// resolve follows symlinks in path; a path that does not exist yet is
// returned with its directory resolved.
func resolve(path string) (string, error) {
	t, err := filepath.EvalSymlinks(path)
	if errors.Is(err, fs.ErrNotExist) {
		if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return "", &fs.PathError{Op: "replace", Path: path, Err: errors.New("a dangling symlink; not writing through it")}
		}
		if d, derr := filepath.EvalSymlinks(filepath.Dir(path)); derr == nil {
			return filepath.Join(d, filepath.Base(path)), nil
		}
		return path, nil
	}
	return t, err
}
