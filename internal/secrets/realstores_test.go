package secrets

import (
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/memcompact/memcompact/internal/testshared"

	"github.com/memcompact/memcompact/internal/textfile"
)

// TestRealStores scans every file of the real stores and pins the verdicts,
// reviewed by hand. The collectors withheld files holding live secrets, so
// nothing left is a secret; the one kind of false positive that remains is
// a Google Docs document ID quoted bare in prose (three lines of one
// file): a 44-character random base64url token that no rule can tell from
// a key without knowing the site. Placeholders ("FINMIND_TOKEN=eyJ0..."),
// trigger IDs, commit SHAs, UUIDs, Ethereum addresses and Drive links are
// not flagged.
func TestRealStores(t *testing.T) {
	root := testshared.RealStores(t)
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
	want := map[string]int{"JADEKANG__26-claude-archive/project_seongman_ep5.md": 3}
	for f, n := range got {
		if want[f] != n {
			t.Errorf("%s: %d findings, want %d", f, n, want[f])
		}
	}
	for f, n := range want {
		if got[f] != n {
			t.Errorf("%s: %d findings, want %d", f, got[f], n)
		}
	}
}
