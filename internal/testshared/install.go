package testshared

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/memcompact/memcompact/internal/companion"
)

// Install builds the named executables of this module (memcompact,
// memcompact-full, memcompact-hook: package companion) into dir with the
// go command, as "go install ./cmd/..." would put them side by side, and
// returns dir/name (with ".exe" on Windows) of the first. Tests that run
// the executables a user runs build them this way: memcompact hands work
// to memcompact-full only when it sits beside it.
func Install(tb testing.TB, dir string, names ...string) string {
	tb.Helper()
	args := []string{"build", "-o", dir + string(filepath.Separator)}
	for _, n := range names {
		args = append(args, "github.com/memcompact/memcompact/cmd/"+n)
	}
	if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		tb.Fatalf("go %v: %v\n%s", args, err, out)
	}
	return Exe(dir, names[0])
}

// Exe is dir/name as an executable's path on this system.
func Exe(dir, name string) string {
	p := filepath.Join(dir, name)
	if runtime.GOOS == "windows" {
		p += ".exe"
	}
	return p
}

// Unlinked fails the test for each package the main package in dir links
// whose import path is one of banned, or starts with one that ends in
// "/": what a lean executable must not pay the initialisation of.
func Unlinked(t *testing.T, dir string, banned ...string) {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", ".")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, d := range strings.Fields(string(out)) {
		for _, b := range banned {
			if d == b || (strings.HasSuffix(b, "/") && strings.HasPrefix(d, b)) {
				t.Errorf("%s links %s", dir, d)
			}
		}
	}
}

// RunInstead runs bin, installed as name, with this process's arguments
// and streams, and exits with its code: a testscript command that stands
// in for a built executable.
func RunInstead(bin, name string) {
	code, err := companion.Run(bin, name, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = 2
	}
	os.Exit(code)
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
