package atomicfile

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/memcompact/memcompact/internal/crashpoint"
)

// CreateExclusive writes data to a new file at path, failing with an error
// wrapping fs.ErrExist if anything is already there. It is how snapshots
// and backups are written: the bytes go to a temporary file that is
// fsynced and read back, and only a proven copy is linked to its real
// name, so a snapshot is never overwritten and a partial or mismatching
// one never sits under a real name, even after kill -9.
func CreateExclusive(path string, data []byte) error {
	dir := filepath.Dir(path)
	removeStale(dir)
	tmp, err := writeTemp(dir, filepath.Base(path), data, 0o644)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	crashpoint.At("exclusive:temp-written")
	back, err := os.ReadFile(tmp)
	if err != nil {
		return err
	}
	if !bytes.Equal(back, data) {
		return fmt.Errorf("%s: the bytes read back differ from the bytes written; nothing was kept", path)
	}
	if err := linkNew(tmp, path); err != nil {
		return err
	}
	crashpoint.At("exclusive:linked")
	return SyncDir(dir)
}
