//go:build unix

package atomicfile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/memcompact/memcompact/internal/crashpoint"
	"github.com/memcompact/memcompact/internal/textfile"
)

// inodeWait bounds how long a Replace waits for another memcompact writer
// of the same file to finish.
const inodeWait = 30 * time.Second

// lockInode takes an exclusive advisory lock on the open file old, so two
// memcompact writers of one file run their check-and-rename one at a time;
// the second then finds the file replaced and refuses. A file system that
// cannot lock (some network mounts) is written without the lock.
func lockInode(old *os.File) (func(), error) {
	fd := int(old.Fd())
	deadline := time.Now().Add(inodeWait)
	for {
		err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { syscall.Flock(fd, syscall.LOCK_UN) }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return func() {}, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("another memcompact run kept writing this file for %s", inodeWait)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// alive reports whether a process with this id exists.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// Watching the old inode after the rename: an appender or an in-place
// writer that opened the file before the rename writes into the old inode,
// which no name reaches any more. The watch ends once the old inode has
// stayed as it was for quietRounds looks settle apart.
const (
	settle      = 5 * time.Millisecond
	quietRounds = 2
	maxWatch    = 2 * time.Second
)

// reconcile watches the old inode after the rename and recovers what
// reached it: bytes appended after the bytes that were checked are
// appended to the new file; any other change (an in-place rewrite) is put
// back under the name, and the replace is refused.
func reconcile(old *os.File, orig []byte, target string) error {
	applied := 0
	deadline := time.Now().Add(maxWatch)
	for quiet := 0; quiet < quietRounds && time.Now().Before(deadline); {
		raw, err := readAll(old)
		if err != nil {
			return err
		}
		switch {
		case len(raw) == len(orig)+applied && bytes.HasPrefix(raw, orig):
			quiet++
		case len(orig) > 0 && len(raw) > len(orig)+applied && bytes.HasPrefix(raw, orig):
			// (An empty file that grew is not taken for an append: it is
			// as likely a rewrite caught between truncation and write.)
			tail := raw[len(orig)+applied:]
			if err := appendLive(target, tail); err != nil {
				return fmt.Errorf("%d bytes appended by another writer during the replace could not be re-applied: %w", len(tail), err)
			}
			applied += len(tail)
			quiet = 0
		default:
			return putBack(old, target)
		}
		if quiet < quietRounds {
			time.Sleep(settle)
		}
	}
	return nil
}

// appendLive appends bytes another writer put into the old inode onto the
// file now under the name, in one write.
func appendLive(target string, tail []byte) error {
	crashpoint.At("replace:reapply")
	f, err := os.OpenFile(target, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	if _, err := f.Write(tail); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// putBack restores a foreign in-place rewrite of the old inode under the
// name, once that writer has finished, and refuses the replace. If the name
// changed yet again meanwhile, the foreign version is kept beside it under
// a recovery name instead.
func putBack(old *os.File, target string) error {
	raw, err := readSettled(old)
	if err != nil {
		return err
	}
	cur, err := os.ReadFile(target)
	if err == nil {
		err = replace(target, raw, textfile.Digest(cur), false)
	}
	if err != nil {
		keep := filepath.Join(filepath.Dir(target), fmt.Sprintf("%s%s-%d", RecoveredPrefix, filepath.Base(target), time.Now().UnixNano()))
		if werr := os.WriteFile(keep, raw, 0o644); werr != nil {
			return fmt.Errorf("another program rewrote the file during the replace and its version could not be kept: %v", werr)
		}
		return fmt.Errorf("%w: another program rewrote the file during the replace; its version is kept in %s", ErrChanged, keep)
	}
	return fmt.Errorf("%w: another program rewrote the file during the replace; its version was put back and this change was not kept", ErrChanged)
}

// readSettled reads f once it has stopped changing (two reads 10 ms apart
// agree), or after a second.
func readSettled(f *os.File) ([]byte, error) {
	raw, err := readAll(f)
	for i := 0; err == nil && i < 100; i++ {
		time.Sleep(10 * time.Millisecond)
		var again []byte
		if again, err = readAll(f); err == nil && bytes.Equal(again, raw) {
			break
		}
		raw = again
	}
	return raw, err
}
