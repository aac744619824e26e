package claudehooks

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestLeanBin(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fixture's executables are Unix files")
	}
	dir := t.TempDir()
	both, alone := filepath.Join(dir, "both"), filepath.Join(dir, "alone")
	for _, f := range []struct {
		path string
		mode os.FileMode
	}{
		{filepath.Join(both, "memcompact"), 0o755},
		{filepath.Join(both, LeanName), 0o755},
		{filepath.Join(alone, "memcompact"), 0o755},
		{filepath.Join(alone, LeanName), 0o644}, // not executable
	} {
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f.path, []byte("#!/bin/sh\n"), f.mode); err != nil {
			t.Fatal(err)
		}
	}
	path := func(dirs map[string]string) func(string) (string, error) {
		return func(name string) (string, error) {
			if d, ok := dirs[name]; ok {
				return filepath.Join(d, name), nil
			}
			return "", errors.New("not found")
		}
	}
	onPath := path(map[string]string{"memcompact": "/usr/bin", LeanName: "/usr/bin"})
	for _, c := range []struct {
		name, bin string
		look      func(string) (string, error)
		want      string
	}{
		{"bare name, both on PATH in one directory", "memcompact", onPath, LeanName},
		{"bare name, memcompact-hook elsewhere on PATH", "memcompact", path(map[string]string{"memcompact": "/usr/bin", LeanName: "/opt/bin"}), ""},
		{"bare name, no memcompact-hook", "memcompact", path(map[string]string{"memcompact": "/usr/bin"}), ""},
		{"bare name, memcompact not on PATH", "memcompact", path(map[string]string{LeanName: "/usr/bin"}), ""},
		{"absolute path with memcompact-hook beside it", filepath.Join(both, "memcompact"), onPath, filepath.Join(both, LeanName)},
		{"a memcompact-hook that cannot be run", filepath.Join(alone, "memcompact"), onPath, ""},
		{"no memcompact-hook in that directory", filepath.Join(dir, "memcompact"), onPath, ""},
		{"already memcompact-hook", filepath.Join(both, LeanName), onPath, ""},
		{"another name", "/usr/local/bin/memcompact-dev", onPath, ""},
		{"a command with arguments", "env FOO=1 memcompact", onPath, ""},
		{"quoted", `"` + filepath.Join(both, "memcompact") + `"`, onPath, ""},
	} {
		if got := (Finder{LookPath: c.look, SameBuild: sameAll}).LeanBin(c.bin); got != c.want {
			t.Errorf("%s: LeanBin(%q) = %q, want %q", c.name, c.bin, got, c.want)
		}
	}
	// A relative path keeps its spelling, so the hook is not looked up on
	// PATH instead.
	t.Chdir(both)
	if got := (Finder{LookPath: onPath, SameBuild: sameAll}).LeanBin("./memcompact"); got != "./"+LeanName {
		t.Errorf("LeanBin(./memcompact) = %q, want ./%s", got, LeanName)
	}
}

// TestInstallRunsLean: install writes memcompact-hook into the hook
// commands when it sits beside memcompact, a later install with plain
// memcompact rewrites them in place, and uninstall finds both.
func TestInstallRunsLean(t *testing.T) {
	dir := t.TempDir()
	settings := filepath.Join(dir, "settings.json")
	lookLean := func(name string) (string, error) { return filepath.Join("/usr/bin", name), nil }
	res, err := Run(t.Context(), Request{Action: ActionInstall, Settings: settings, Bin: "memcompact", Finder: Finder{LookPath: lookLean, SameBuild: sameAll}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Lean != LeanName || len(res.Added) != len(Ours) {
		t.Fatalf("install: lean %q, added %v", res.Lean, res.Added)
	}
	raw, _ := os.ReadFile(settings)
	for _, h := range Ours {
		if !containsCommand(raw, h.Command(LeanName)) {
			t.Errorf("settings lack %q:\n%s", h.Command(LeanName), raw)
		}
	}
	noLean := func(name string) (string, error) {
		if name == LeanName {
			return "", errors.New("not found")
		}
		return filepath.Join("/usr/bin", name), nil
	}
	res, err = Run(t.Context(), Request{Action: ActionInstall, Settings: settings, Bin: "memcompact", Finder: Finder{LookPath: noLean, SameBuild: sameAll}})
	if err != nil || res.Lean != "" || len(res.Present) != len(Ours) || !res.Changed {
		t.Fatalf("reinstall without memcompact-hook: %+v, %v", res, err)
	}
	res, err = Run(t.Context(), Request{Action: ActionUninstall, Settings: settings, Bin: "memcompact"})
	if err != nil || len(res.Removed) != len(Ours) {
		t.Fatalf("uninstall: %+v, %v", res, err)
	}
}

// sameAll takes any two executables for one build.
func sameAll(a, b string) bool { return true }

// TestLeanBinOtherBuild: a memcompact-hook of another build (here, a
// shell script) is never chosen.
func TestLeanBinOtherBuild(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "memcompact-hook"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	full := filepath.Join(dir, "memcompact")
	if err := os.Symlink(self, full); err != nil {
		t.Skip(err)
	}
	if got := (Finder{}).LeanBin(full); got != "" {
		t.Errorf("a memcompact-hook of another build was chosen: %q", got)
	}
}

func containsCommand(raw []byte, cmd string) bool {
	return bytes.Contains(raw, quote(cmd))
}
