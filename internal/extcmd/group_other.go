//go:build !unix

package extcmd

import "os/exec"

func ownGroup(cmd *exec.Cmd) {}

// killGroup kills the command (Windows has no process groups to signal;
// its children may outlive it).
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}
