package filecache

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestStats: the table stats each path once, remembers a failure as well
// as a success, stamps through it, and a nil table stats every time.
func TestStats(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.md")
	if err := os.WriteFile(p, []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(dir, "gone.md")
	calls := map[string]int{}
	s := NewStatsWith(func(path string) (fs.FileInfo, error) {
		calls[path]++
		return os.Stat(path)
	})
	for range 3 {
		if fi, err := s.Stat(p); err != nil || fi.Size() != 1 {
			t.Fatalf("Stat(a.md) = %v, %v", fi, err)
		}
		if st, ok := s.StampOf(gone); !ok || !st.Absent {
			t.Fatalf("StampOf(gone.md) = %+v, %v", st, ok)
		}
	}
	in := s.StampAll([]string{p, gone})
	if !in.ok || in.stamps[p].Size != 1 || !in.stamps[gone].Absent {
		t.Errorf("StampAll = %+v", in)
	}
	if calls[p] != 1 || calls[gone] != 1 || s.Asked(p) != 4 || s.Asked(gone) != 4 {
		t.Errorf("stats %v, asked %d and %d; want one stat each for four asks", calls, s.Asked(p), s.Asked(gone))
	}
	var none *Stats
	if fi, err := none.Stat(p); err != nil || fi.Size() != 1 {
		t.Errorf("nil table: Stat = %v, %v", fi, err)
	}
}
