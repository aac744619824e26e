package textfile

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestReadsBefore: Before runs once per path, before that path's one read.
func TestReadsBefore(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.md")
	if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var events []string
	r := NewReadsWith(func(path string) (*File, error) {
		events = append(events, "read")
		return Read(path)
	}).Before(func(string) { events = append(events, "stat") })
	for range 3 {
		if f, err := r.Read(p); err != nil || f.Text != "x\n" {
			t.Fatalf("Read: %v, %v", f, err)
		}
	}
	if want := []string{"stat", "read"}; !slices.Equal(events, want) {
		t.Errorf("events %q, want %q", events, want)
	}
}
