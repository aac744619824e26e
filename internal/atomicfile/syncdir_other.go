//go:build !windows

package atomicfile

import (
	"errors"
	"os"
)

// SyncDir fsyncs a directory so a rename or a new name in it survives a
// crash.
func SyncDir(dir string) error {
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
