package companion

import (
	"bytes"
	"debug/buildinfo"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestSameBuild: an executable is its own build; a file that is not a Go
// executable is nobody's.
func TestSameBuild(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	script := filepath.Join(t.TempDir(), "memcompact-full")
	if err := os.WriteFile(script, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if !SameBuild(self, self) {
		t.Error("an executable is not the same build as itself")
	}
	if SameBuild(self, script) || SameBuild(script, self) {
		t.Error("a shell script counts as the same build")
	}
}

// TestFind: the executable beside this one wins over PATH's; PATH's is
// taken only when it is the same build; nothing found is an error that
// names what was looked for.
func TestFind(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("shell scripts stand in for executables")
	}
	self, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	onPath := t.TempDir()
	t.Setenv("PATH", onPath)
	if _, err := Find("memcompact-nothing"); err == nil || !strings.Contains(err.Error(), "no memcompact-nothing executable") {
		t.Errorf("Find of a missing executable: %v", err)
	}
	script := filepath.Join(onPath, "memcompact-other")
	if err := os.WriteFile(script, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Find("memcompact-other"); err == nil || !strings.Contains(err.Error(), "another version") {
		t.Errorf("Find of another build on PATH: %v", err)
	}
	same := filepath.Join(onPath, "memcompact-same")
	if err := os.Symlink(self, same); err != nil {
		t.Skip(err)
	}
	if got, err := Find("memcompact-same"); err != nil || got != same {
		t.Errorf("Find of the same build on PATH: %q, %v", got, err)
	}
	beside := filepath.Join(filepath.Dir(self), "memcompact-besidetest")
	if err := os.WriteFile(beside, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Skip(err)
	}
	defer os.Remove(beside)
	if got, err := Find("memcompact-besidetest"); err != nil || got != beside {
		t.Errorf("Find beside: %q, %v; want %q", got, err, beside)
	}
}

// TestRunMarksHanded: the command runs on the given streams, its exit
// code comes back, and its environment names what it was handed to.
func TestRunMarksHanded(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip(err)
	}
	var out bytes.Buffer
	code, err := Run(sh, Full, []string{"-c", `echo "$` + HandedEnv + `"; cat; exit 7`}, strings.NewReader("in\n"), &out, &out)
	if err != nil || code != 7 || out.String() != Full+"\nin\n" {
		t.Errorf("Run: code %d, %v, output %q", code, err, out.String())
	}
	if _, err := Run(filepath.Join(t.TempDir(), "missing"), Full, nil, nil, &out, &out); err == nil {
		t.Error("Run of a missing executable: no error")
	}
	t.Setenv(HandedEnv, Full)
	Arrive()
	t.Cleanup(func() { arrivedAs = "" })
	if !Loop(Full) || Loop(Main) {
		t.Error("Loop does not read the mark")
	}
	if _, set := os.LookupEnv(HandedEnv); set {
		t.Error("Arrive left the mark for the processes this one starts")
	}
}

// TestReadBuildInfo reads what debug/buildinfo reads, from executables of
// every kind at hand: this test, and the go command itself.
func TestReadBuildInfo(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	paths := []string{self}
	if goBin, err := exec.LookPath("go"); err == nil {
		paths = append(paths, goBin)
	}
	for _, p := range paths {
		want, err := buildinfo.ReadFile(p)
		if err != nil {
			t.Fatalf("debug/buildinfo %s: %v", p, err)
		}
		got, err := ReadBuildInfo(p)
		if err != nil {
			t.Fatalf("ReadBuildInfo %s: %v", p, err)
		}
		if got.String() != want.String() || got.GoVersion != want.GoVersion {
			t.Errorf("%s:\n%s\nwant\n%s", p, got, want)
		}
	}
	script := filepath.Join(t.TempDir(), "s")
	os.WriteFile(script, append([]byte("#!/bin/sh\n"), bytes.Repeat([]byte{0xff, ' ', 'G', 'o'}, 1<<18)...), 0o755)
	if _, err := ReadBuildInfo(script); !errors.Is(err, ErrNoBuildInfo) {
		t.Errorf("a file with no build information: %v", err)
	}
}

// TestLinked: nothing set reads as the zero value; the last Set wins.
func TestLinked(t *testing.T) {
	var l Linked[func() int]
	if l.Get() != nil {
		t.Fatal("an empty Linked holds a part")
	}
	l.Set(func() int { return 1 })
	l.Set(func() int { return 2 })
	if got := l.Get(); got == nil || got() != 2 {
		t.Error("Get does not return the last part Set")
	}
}

// TestAsk: the first executable that answers and whose output reads is
// the one asked; the error names each that did not.
func TestAsk(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("shell scripts stand in for executables")
	}
	dir := t.TempDir()
	t.Setenv("PATH", dir)
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write("memcompact-fails", "echo broken >&2; exit 3\n")
	write("memcompact-garbles", "echo garbage\n")
	write("memcompact-answers", `read x; echo "answer $1 $x"`+"\n")
	sameBuild = func(a, b string) bool { return true }
	t.Cleanup(func() { sameBuild = SameBuild })
	var got string
	err := Ask([]string{"memcompact-missing", "memcompact-fails", "memcompact-garbles", "memcompact-answers"}, "ARG", []byte("question\n"), func(out []byte) error {
		if !strings.HasPrefix(string(out), "answer") {
			return errors.New("unreadable answer")
		}
		got = string(out)
		return nil
	})
	if err != nil || got != "answer ARG question\n" {
		t.Errorf("Ask: %q, %v", got, err)
	}
	err = Ask([]string{"memcompact-missing", "memcompact-fails"}, "ARG", nil, func([]byte) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "no memcompact-missing executable") || !strings.Contains(err.Error(), "exit status 3: broken") {
		t.Errorf("Ask of none that answers: %v", err)
	}
}
