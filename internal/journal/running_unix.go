//go:build unix

package journal

import "syscall"

// running reports whether a process with this id exists.
func running(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
