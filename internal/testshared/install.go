package testshared

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// Install builds the memcompact executable of this module with the go
// command (with the go build flags given, such as "-tags" and a tag
// list), as the install instructions build it ("CGO_ENABLED=0 go install
// ./cmd/memcompact"), puts a copy in dir and
// returns its path (with ".exe" on Windows). Tests that run the
// executable a user runs build it this way.
//
// The build is made once per test process and set of flags, into a folder
// of the go build cache named for this checkout and the flags: the go
// command relinks it only when the sources changed, so the several tests
// (and test processes) that install it share one link of ~60 MB instead of
// each paying for their own.
func Install(tb testing.TB, dir string, flags ...string) string {
	tb.Helper()
	v, _ := builds.LoadOrStore(strings.Join(flags, "\x00"), new(build))
	b := v.(*build)
	b.once.Do(func() { b.path, b.err = goBuild(flags) })
	if b.err != nil {
		tb.Fatal(b.err)
	}
	exe := Exe(dir, "memcompact")
	if err := copyExe(b.path, exe); err != nil {
		tb.Fatal(err)
	}
	return exe
}

// builds holds, per set of flags, the one build of this process.
var builds sync.Map

type build struct {
	once sync.Once
	path string
	err  error
}

// goBuild builds memcompact with flags into the build cache's folder for
// this checkout and these flags, and returns the executable's path.
func goBuild(flags []string) (string, error) {
	cache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil || strings.TrimSpace(string(cache)) == "" || strings.TrimSpace(string(cache)) == "off" {
		return "", fmt.Errorf("go env GOCACHE: %v (%q)", err, cache)
	}
	root, _ := filepath.Abs(repoRoot())
	key := sha256.Sum256([]byte(root + "\x00" + strings.Join(flags, "\x00")))
	out := filepath.Join(strings.TrimSpace(string(cache)), "memcompact-test-install", hex.EncodeToString(key[:8]))
	args := append([]string{"build"}, flags...)
	args = append(args, "-o", Exe(out, "memcompact"), "github.com/memcompact/memcompact/cmd/memcompact")
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = StaticBuild(os.Environ())
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go %v: %v\n%s", args, err, msg)
	}
	return Exe(out, "memcompact"), nil
}

// copyExe copies the executable src to dst (a copy, not a link: a test
// may change or remove what it was given), creating dst's folder.
func copyExe(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
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
