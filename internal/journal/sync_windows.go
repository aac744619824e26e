//go:build windows

package journal

import (
	"os"

	"github.com/memcompact/memcompact/internal/atomicfile"
)

// syncPath makes the file or folder at p durable. Windows flushes a file
// only through a handle open for writing, and a folder not at all (see
// atomicfile.SyncDir).
func syncPath(p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		return atomicfile.SyncDir(p)
	}
	f, err := os.OpenFile(p, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
