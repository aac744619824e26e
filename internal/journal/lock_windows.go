//go:build windows

package journal

import (
	"os"
	"path/filepath"
)

// lockTarget is what the journal's lock is taken on, and how it is
// opened: a file in the journal's folder (Windows locks byte ranges of
// files, not folders). It stays: a lock several holders share cannot be
// removed by the last one safely.
func lockTarget(dir string) (string, int) {
	return filepath.Join(dir, "lock"), os.O_CREATE | os.O_RDWR
}
