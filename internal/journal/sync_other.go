//go:build !windows

package journal

import "os"

// syncPath makes the file or folder at p durable.
func syncPath(p string) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
