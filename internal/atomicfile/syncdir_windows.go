//go:build windows

package atomicfile

// SyncDir does nothing on Windows: a folder cannot be flushed there
// (FlushFileBuffers refuses a folder's handle), and NTFS journals the
// names in a folder itself, so a rename survives a crash once the file's
// own bytes are flushed.
func SyncDir(dir string) error { return nil }
