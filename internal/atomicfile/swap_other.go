//go:build !linux

package atomicfile

import (
	"os"
	"runtime"
)

// swapIn puts the file at tmp under the name target with a rename. (Linux
// has an atomic exchange that also catches a foreign rename racing this
// one; see swap_linux.go.)
func swapIn(tmp, target string, old *os.File) error {
	if runtime.GOOS == "windows" {
		// Windows cannot rename over a file someone holds open.
		old.Close()
	}
	return os.Rename(tmp, target)
}
