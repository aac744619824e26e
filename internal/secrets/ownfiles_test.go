package secrets

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWalkSkipsOwnFiles: a walked store's temporary files (a copy or a
// crash's half of a memory file) and lock file are not scanned, and
// neither is the .memcompact folder; a recovered foreign write is another
// program's text and is.
func TestWalkSkipsOwnFiles(t *testing.T) {
	dir := t.TempDir()
	secret := "DB_PASSWORD=hunter22xQ9\n"
	files := map[string]string{
		"entry.md":                                secret,
		".memcompact-tmp-123-entry.md-00ff":       secret,
		".memcompact-tmp-4567890":                 secret, // a journal-style temp
		".memcompact.lock":                        "pid 1 on h since t: " + secret,
		".memcompact/sweep-plan.json":             secret,
		".memcompact-recovered-entry.md-17000000": secret,
	}
	for rel, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep := ScanFiles([]string{dir})
	got := map[string]bool{}
	for _, f := range rep.Findings {
		rel, _ := filepath.Rel(dir, f.File)
		got[rel] = true
	}
	want := map[string]bool{"entry.md": true, ".memcompact-recovered-entry.md-17000000": true}
	if len(got) != len(want) || !got["entry.md"] || !got[".memcompact-recovered-entry.md-17000000"] {
		t.Errorf("findings in %v, want exactly %v", got, want)
	}
	// Named explicitly, a file is scanned whatever its name.
	if rep := ScanFiles([]string{filepath.Join(dir, ".memcompact-tmp-123-entry.md-00ff")}); len(rep.Findings) == 0 {
		t.Error("an explicitly named temporary file was not scanned")
	}
}
