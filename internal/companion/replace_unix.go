//go:build unix

package companion

import (
	"os"
	"syscall"
)

// Replace runs bin (the executable name) with args in this process's
// place: the same process, streams and signals, so a client that started
// "memcompact mcp" talks to memcompact-full directly. It returns only
// when bin could not be run.
func Replace(bin, name string, args []string) error {
	env := append(os.Environ(), HandedEnv+"="+name)
	return &os.PathError{Op: "exec", Path: bin, Err: syscall.Exec(bin, append([]string{bin}, args...), env)}
}
