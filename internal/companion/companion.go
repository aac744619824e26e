// Package companion finds and runs the executables memcompact is
// installed with, and hands a command line from one to another.
//
// memcompact is three executables built from one module. Go runs every
// linked package's initialisation before main, and the official model and
// MCP SDKs and goldmark's tables cost several milliseconds of it on every
// run, so what most runs never use lives in an executable of its own:
//
//   - memcompact: every verb, linking none of them, so that it starts in
//     about a millisecond;
//   - memcompact-full: the same verbs with the MCP server, the model
//     summarizers and goldmark's parser linked in; memcompact hands it the
//     command lines that need them (cli.handOver);
//   - memcompact-hook: the Claude Code hooks alone, leaner still.
//
// A command is only ever handed to an executable of the same install (the
// same directory, or the same build on PATH), and never back and forth.
package companion

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// The executables' names (without Windows' ".exe").
const (
	Main = "memcompact"
	Full = "memcompact-full"
	Hook = "memcompact-hook"
)

// InstallHint is the line that mends a missing or mismatched companion.
const InstallHint = "install all three together: go install github.com/memcompact/memcompact/cmd/...@latest"

// HandedEnv names, in the environment of a command handed on, the
// executable it was handed to. Should that executable hand it on to the
// same name again (a copy of memcompact installed as memcompact-full, say),
// it refuses instead of handing it on forever (Loop).
const HandedEnv = "MEMCOMPACT_HANDED_TO"

// arrivedAs is the name this process was handed a command as ("" when it
// was started by anything else); see Arrive.
var arrivedAs string

// Arrive reads and clears the mark a handed command carries. Every
// executable's main calls it first: the mark is this process's alone, and
// the processes it starts (a summarizer, the hooks of a Claude Code it
// runs) are new commands.
func Arrive() {
	arrivedAs = os.Getenv(HandedEnv)
	os.Unsetenv(HandedEnv)
}

// Loop reports whether handing this process's command to name would hand
// it round in a circle: it was handed here as name already.
func Loop(name string) bool { return arrivedAs == name }

// exe is name as an executable's file name on this system.
func exe(name string) string {
	if runtime.GOOS == "windows" {
		return name + ".exe"
	}
	return name
}

// Find returns the path of the executable name installed with this one:
// the one beside it (one install), else the one on PATH, when it was built
// from the same version (a leftover of another install must not answer
// for this one).
func Find(name string) (string, error) {
	self, err := os.Executable()
	if err == nil {
		p := filepath.Join(filepath.Dir(self), exe(name))
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p, nil
		}
	}
	p, lerr := exec.LookPath(exe(name))
	switch {
	case lerr != nil:
		return "", fmt.Errorf("no %s executable was found beside %s or on PATH", name, selfName(self))
	case err == nil && !sameBuild(self, p):
		return "", fmt.Errorf("the %s on PATH (%s) was built from another version than this %s", name, p, selfName(self))
	}
	return p, nil
}

// sameBuild is SameBuild; tests stand scripts in for executables.
var sameBuild = SameBuild

// selfName is the name this executable is installed as (Main when it
// cannot tell).
func selfName(self string) string {
	if self == "" {
		return Main
	}
	return strings.TrimSuffix(filepath.Base(self), ".exe")
}

// command is bin run with args, its environment marking it handed to name.
func command(bin, name string, args []string) *exec.Cmd {
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), HandedEnv+"="+name)
	return cmd
}

// Run runs bin (the executable name) with args on the given streams and
// returns its exit code. An error means it could not run at all.
func Run(bin, name string, args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	cmd := command(bin, name, args)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	err := cmd.Run()
	if ee, ok := errors.AsType[*exec.ExitError](err); ok && ee.Exited() {
		return ee.ExitCode(), nil
	}
	if err != nil {
		return 0, fmt.Errorf("%s: %w", bin, err)
	}
	return 0, nil
}
