package testshared

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// Install builds the memcompact executable of this module into dir with
// the go command (with the go build flags given, such as "-tags" and a
// tag list), as the install instructions build it ("CGO_ENABLED=0 go
// install ./cmd/memcompact"), and returns its path (with ".exe" on
// Windows). Tests and benchmarks that run the executable a user runs
// build it this way.
func Install(tb testing.TB, dir string, flags ...string) string {
	tb.Helper()
	args := append([]string{"build"}, flags...)
	args = append(args, "-o", Exe(dir, "memcompact"), "github.com/memcompact/memcompact/cmd/memcompact")
	cmd := exec.Command("go", args...)
	cmd.Env = StaticBuild(os.Environ())
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go %v: %v\n%s", args, err, out)
	}
	return Exe(dir, "memcompact")
}

// Exe is dir/name as an executable's path on this system.
func Exe(dir, name string) string {
	p := filepath.Join(dir, name)
	if runtime.GOOS == "windows" {
		p += ".exe"
	}
	return p
}

// RunInstead runs bin with this process's arguments and streams and exits
// with its code: a testscript command that stands in for a built
// executable.
func RunInstead(bin string) {
	cmd := exec.Command(bin, os.Args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		os.Exit(ee.ExitCode())
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(127)
	}
	os.Exit(0)
}

// WithSetenv is p whose scripts also start with the variable key set to
// value.
func WithSetenv(p testscript.Params, key, value string) testscript.Params {
	setup := p.Setup
	p.Setup = func(e *testscript.Env) error {
		e.Setenv(key, value)
		return setup(e)
	}
	return p
}

// StaticBuild is env for a go build of the executable users run: cgo off
// (CGO_ENABLED=0), as the release, the plugin's launcher and the install
// instructions build it. memcompact needs no C: with cgo on, the net
// package alone links libc for its resolver, and the executable is then
// dynamically linked, which costs every run the dynamic loader (about 14%
// of "memcompact version").
func StaticBuild(env []string) []string {
	return append(env, "CGO_ENABLED=0")
}
