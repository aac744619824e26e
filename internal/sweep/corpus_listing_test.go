package sweep

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestListingFind: a name spelled as listed is present; an ASCII name no
// entry matches even ignoring case is absent (its body is not asked for);
// one that matches only ignoring case, or is not ASCII, is left to the
// file system, which may fold case or normalize it.
func TestListingFind(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a.md", "Mixed.md", "caf\u00e9.md"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	l := listing(des)
	for _, c := range []struct {
		name string
		want int
	}{
		{"a.md", present}, {"Mixed.md", present}, {"caf\u00e9.md", present},
		{"b.md", absent}, {"A.MD", unsure}, {"mixed.md", unsure},
		{"cafe\u0301.md", unsure}, {"gone_2026.md", absent},
	} {
		de, got := l.find(c.name)
		if got != c.want {
			t.Errorf("find(%q) = %d, want %d", c.name, got, c.want)
		}
		if (got == present) != (de != nil) || de != nil && de.Type()&fs.ModeType != 0 {
			t.Errorf("find(%q): entry %v with state %d", c.name, de, got)
		}
	}
}
