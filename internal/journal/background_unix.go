//go:build unix

package journal

import (
	"os/exec"
	"syscall"
)

// detach starts cmd in a session of its own: the hook's process group
// ending (Claude Code kills a hook's group on its timeout) does not end it.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}

// lowerPriority runs the rest of this process at a lower priority (nice
// 10): the background snapshot must not slow the session it serves.
func lowerPriority() {
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, 0, 10)
}
