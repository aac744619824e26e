package store

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestHere: the working directory as it is, and "" (never a guess) once it
// is gone.
func TestHere(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(dir, "gone")
	if err := os.Mkdir(gone, 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"CLAUDE_CONFIG_DIR": "/cfg"}
	t.Chdir(dir)
	w := Here(func(k string) string { return env[k] }, "/home/u")
	if w.Cwd != dir || w.Home != "/home/u" || w.Getenv("CLAUDE_CONFIG_DIR") != "/cfg" || w.Settings != "" {
		t.Errorf("Here in %s = %+v", dir, w)
	}
	if runtime.GOOS != "linux" {
		return // removing the working directory is Linux's to allow
	}
	t.Chdir(gone)
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	if w := Here(os.Getenv, ""); w.Cwd != "" {
		t.Errorf("Here in a removed directory: Cwd %q, want \"\"", w.Cwd)
	}
}
