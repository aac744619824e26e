package budget

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFilesSkipScratch: a dir/* glob never budgets memcompact's temporary,
// recovered or lock files as memory files.
func TestFilesSkipScratch(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "notes")
	os.MkdirAll(dir, 0o755)
	for _, n := range []string{"a.md", ".memcompact-tmp-123-a.md-00ff", ".memcompact-recovered-a.md-1", ".memcompact.lock"} {
		os.WriteFile(filepath.Join(dir, n), []byte("x\n"), 0o644)
	}
	p := &Policy{Rows: []Row{{Pattern: "notes/*", Budget: 10, Unit: Lines, Each: true}}}
	files, _ := p.Files(root)
	if len(files) != 1 || files[0].Rel != "notes/a.md" {
		t.Errorf("Files = %+v, want only notes/a.md", files)
	}
}

// TestFilesSkipOwnFolder: a glob reaching into subfolders (*/*, */*.md)
// never budgets what memcompact keeps in a root's .memcompact folder, nor a
// scratch file at any depth.
func TestFilesSkipOwnFolder(t *testing.T) {
	root := t.TempDir()
	for _, rel := range []string{
		"notes/a.md",
		".memcompact/sweep-plan.json", ".memcompact/recall.log", ".memcompact/x.md",
		".memcompact-tmp-9-notes-00ff/b.md", // a folder named like a temp
	} {
		p := filepath.Join(root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("x\n"), 0o644)
	}
	for _, pattern := range []string{"*/*", "*/*.md"} {
		p := &Policy{Rows: []Row{{Pattern: pattern, Budget: 10, Unit: Lines, Each: true}}}
		files, _ := p.Files(root)
		if len(files) != 1 || files[0].Rel != "notes/a.md" {
			t.Errorf("%s: Files = %+v, want only notes/a.md", pattern, files)
		}
	}
}
