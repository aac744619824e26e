//go:build !windows

package journal

import "os"

// lockTarget is what the journal's lock is taken on, and how it is
// opened: the journal's folder itself (flock locks a folder as well as a
// file).
func lockTarget(dir string) (string, int) { return dir, os.O_RDONLY }
