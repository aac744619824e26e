package filecache

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
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

// TestStatsConcurrent: askers of one path at once share one stat, and
// different paths are stat'ed side by side (the table is not locked
// during a stat: two stats wait for each other to begin).
func TestStatsConcurrent(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.md")
	os.WriteFile(p, []byte("a"), 0o644)
	var mu sync.Mutex
	calls := map[string]int{}
	inside := make(chan struct{}, 2)
	release := make(chan struct{})
	s := NewStatsWith(func(path string) (fs.FileInfo, error) {
		mu.Lock()
		calls[path]++
		mu.Unlock()
		if path != p {
			inside <- struct{}{}
			<-release
		}
		return os.Stat(path)
	})
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() { s.Stat(filepath.Join(dir, fmt.Sprint("slow", i))) })
	}
	<-inside
	<-inside // both slow stats are under way at once
	close(release)
	for range 8 {
		wg.Go(func() {
			if fi, err := s.Stat(p); err != nil || fi.Size() != 1 {
				t.Errorf("Stat = %v, %v", fi, err)
			}
		})
	}
	wg.Wait()
	if calls[p] != 1 || s.Asked(p) != 8 {
		t.Errorf("%d stats of a.md for %d asks, want 1 for 8", calls[p], s.Asked(p))
	}
}
