package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// swapIn puts the file at tmp under the name target. On Linux it is an
// atomic exchange: the file it displaced lands at tmp, and if that is not
// the inode that was checked (a foreign rename slipped in after the last
// check), the exchange is undone and the replace refused. File systems
// without the exchange get a plain rename.
func swapIn(tmp, target string, old *os.File) error {
	ours, err := os.Lstat(tmp)
	if err != nil {
		return err
	}
	err = unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, target, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP) {
		return os.Rename(tmp, target)
	}
	if err != nil {
		return err
	}
	displaced, err := os.Lstat(tmp)
	checked, serr := old.Stat()
	if err == nil && serr == nil && os.SameFile(displaced, checked) {
		return nil
	}
	// Someone else's file was displaced: give it its name back.
	if err := unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, target, unix.RENAME_EXCHANGE); err != nil {
		return err
	}
	if back, err := os.Lstat(tmp); err == nil && !os.SameFile(back, ours) {
		// A third writer in the same instant: keep its file rather than
		// let the caller's cleanup remove it.
		os.Rename(tmp, filepath.Join(filepath.Dir(target), fmt.Sprintf("%s%s-%d", RecoveredPrefix, filepath.Base(target), time.Now().UnixNano())))
	}
	return ErrChanged
}
