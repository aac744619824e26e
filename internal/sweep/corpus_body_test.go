package sweep

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/memcompact/memcompact/internal/textfile"
)

// TestCorpusBodies: a pointer's body is the file its link names, as
// package index resolves it for drift too (percent-escapes, angle
// brackets, titles, fragments, escapes, sub-folders), so an entry with an
// unusual name is read and keeps its admitted date; a link that leaves
// the store or is a URL is read beside the index, with a warning.
func TestCorpusBodies(t *testing.T) {
	dir := t.TempDir()
	fm := "---\nnode_type: memory\nadmitted: 2026-01-02\n---\nbody\n"
	for name, text := range map[string]string{
		"project notes.md": fm, "café.md": fm, "my_x.md": fm, "topics/t.md": fm, "a&b.md": fm, "plain.md": fm, "up.md": fm,
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	index := "# M\n" +
		"- [p](project%20notes.md) — h\n" +
		"- [c](caf%C3%A9.md#part \"title\") — h\n" +
		"- [m](my\\_x.md) — h\n" +
		"- [t](<topics/t.md>) — h\n" +
		"- [a](a&amp;b.md) — h\n" +
		"- **[plain](plain.md)** — h\n" +
		"- [o](../up.md) — h\n" +
		"- [w](https://e.test/w.md) — h\n" +
		"- [g](gone.md) — h\n"
	ip := filepath.Join(dir, "MEMORY.md")
	if err := os.WriteFile(ip, []byte(index), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := ResolvePaths(ip, "", "", "")
	if err != nil {
		t.Fatal(err)
	}
	c, err := BuildCorpus(p, textfile.Lines(index))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ identity, reach string }{
		{"project notes@2026-01-02", ReachFile}, {"café@2026-01-02", ReachFile}, {"my_x@2026-01-02", ReachFile},
		{"t@2026-01-02", ReachFile}, {"a&b@2026-01-02", ReachFile}, {"plain@2026-01-02", ReachFile},
		{"up@2026-01-02", ReachOutside}, // read beside the index, where up.md is
		{"w@unknown", ReachURL}, {"gone@unknown", ReachFile},
	}
	var pointers []Entry
	for _, e := range c.Entries {
		if e.Population == PopPointer {
			pointers = append(pointers, e)
		}
	}
	if len(pointers) != len(want) {
		t.Fatalf("pointer subjects %+v, want %d", pointers, len(want))
	}
	for i, w := range want {
		if e := pointers[i]; e.Identity != w.identity || e.Reach != w.reach {
			t.Errorf("subject %d: %s (%s), want %s (%s)", i, e.Identity, e.Reach, w.identity, w.reach)
		}
	}
	if len(c.Warnings) != 2 {
		t.Errorf("warnings %+v, want the two links that leave the store", c.Warnings)
	}
	for _, e := range c.Entries {
		if e.Population == PopOrphan {
			t.Errorf("orphan %s: every file is named by a link", e.Identity)
		}
	}
}
