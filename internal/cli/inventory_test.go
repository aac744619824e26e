package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestInventoryArtifactFile checks that the artifact file holds exactly the
// JSON printed on stdout, without its trailing newline (as the reference
// writes it), and that a second run replaces it.
func TestInventoryArtifactFile(t *testing.T) {
	dir := t.TempDir()
	index := filepath.Join(dir, "MEMORY.md")
	os.WriteFile(index, []byte("- [a](a.md) — an entry\n"), 0o644)
	out := filepath.Join(dir, "deep", "er", "inv.json")
	for range 2 {
		var stdout, stderr bytes.Buffer
		env := &Env{Stdout: &stdout, Stderr: &stderr, Getenv: func(k string) string {
			if k == "MEMCOMPACT_TODAY" {
				return "2026-12-02"
			}
			return ""
		}, Now: time.Now}
		if code := Run(env, []string{"inventory", "-IndexPath", index, "-OutputPath", out}); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		file, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(stdout.String(), "}\n") || string(file)+"\n" != stdout.String() {
			t.Fatalf("file and stdout differ:\n%q\n%q", file, stdout.String())
		}
	}
}
