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
