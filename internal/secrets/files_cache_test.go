package secrets

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestScanCache checks that a cached scan reports what a fresh one does —
// cold, warm, after an edit, after a touch — and that the cache holds no
// secret.
func TestScanCache(t *testing.T) {
	cacheDir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cacheDir)
	t.Setenv("HOME", cacheDir)
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	write := func(name, text string, mt time.Time) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, mt, mt)
	}
	write("a.md", "- token "+ghPAT+"\n", old)
	write("b.md", "- nothing here\n", old)
	write("c.bin", "\x00\x01", old)
	check := func(when string) {
		t.Helper()
		fresh := ScanFiles([]string{dir})
		got := ScanFilesWith([]string{dir}, ScanOptions{})
		if !reflect.DeepEqual(fresh.Findings, got.Findings) || !reflect.DeepEqual(fresh.Scanned, got.Scanned) || !reflect.DeepEqual(fresh.Skipped, got.Skipped) {
			t.Errorf("%s: cached scan differs:\nfresh %+v\ngot   %+v", when, fresh, got)
		}
	}
	check("cold")
	check("warm")
	write("b.md", "- now "+awsID+"\n", old.Add(time.Minute))
	check("edited")
	write("a.md", "- token "+ghPAT+"\n", old.Add(2*time.Minute))
	check("touched")
	write("a.md", "- gone\n", time.Now())
	check("just written")
	filepath.Walk(cacheDir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			b, _ := os.ReadFile(p)
			for _, s := range []string{ghPAT, awsID, "nothing here", "gone"} {
				if containsBytes(b, s) {
					t.Errorf("cache %s holds %q", p, s[:4])
				}
			}
		}
		return nil
	})
}

func containsBytes(b []byte, s string) bool { return strings.Contains(string(b), s) }
