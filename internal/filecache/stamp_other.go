//go:build !linux

package filecache

import "io/fs"

// sysStamp adds nothing where the system's stat is not Linux's: the stamp
// is size, modification time and mode.
func sysStamp(fs.FileInfo, *Stamp) {}
