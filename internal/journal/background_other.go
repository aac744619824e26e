//go:build !unix

package journal

import "os/exec"

// detach leaves cmd as it is: off Unix a started child outlives its parent.
func detach(*exec.Cmd) {}

// lowerPriority does nothing off Unix.
func lowerPriority() {}
