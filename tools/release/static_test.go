package main

import (
	"debug/elf"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestBuildIsStatic: the release's executable for this Linux machine is
// statically linked: no program interpreter (the dynamic loader) and no
// shared library needed. A dynamically linked memcompact pays the loader
// and libc's start-up on every hook run.
func TestBuildIsStatic(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the release executable")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads an ELF executable")
	}
	dir := t.TempDir()
	cmd := goBuild("0.0.0-test", runtime.GOOS, runtime.GOARCH, dir)
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	f, err := elf.Open(filepath.Join(dir, "memcompact"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Errorf("the release executable names a program interpreter: it is dynamically linked (is cgo on?)")
		}
	}
	libs, err := f.ImportedLibraries()
	if err != nil {
		t.Fatal(err)
	}
	if len(libs) > 0 {
		t.Errorf("the release executable needs shared libraries %v; want none", libs)
	}
}

// TestGoBuildTurnsCgoOff: whatever the environment says, the release
// build's last word on cgo is off.
func TestGoBuildTurnsCgoOff(t *testing.T) {
	t.Setenv("CGO_ENABLED", "1")
	env := goBuild("v", "linux", "amd64", os.TempDir()).Env
	last := ""
	for _, kv := range env {
		if len(kv) > len("CGO_ENABLED=") && kv[:len("CGO_ENABLED=")] == "CGO_ENABLED=" {
			last = kv
		}
	}
	if last != "CGO_ENABLED=0" {
		t.Errorf("the release build's environment ends with %q, want CGO_ENABLED=0", last)
	}
}
