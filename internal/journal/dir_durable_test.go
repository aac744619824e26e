package journal

import (
	"os"
	"path/filepath"
	"testing"
)

// TestEnsureDirs: the journal's folders and the missing ones above them
// are made (and made again without error when they exist).
func TestEnsureDirs(t *testing.T) {
	base := t.TempDir()
	j := &Journal{Dir: filepath.Join(base, "data", "journal", "store-1")}
	for range 2 {
		if err := ensureDirs(j.objectsDir(), j.manifestsDir(), j.sessionsDir()); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{j.objectsDir(), j.manifestsDir(), j.sessionsDir()} {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			t.Errorf("%s: %v", d, err)
		}
	}
	if err := mkdirDurable(filepath.Join(base, "file", "sub")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "plain"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := mkdirDurable(filepath.Join(base, "plain", "sub")); err == nil {
		t.Error("a folder under a regular file was made")
	}
}
