package hookrun

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/memcompact/memcompact/internal/hookjson"
)

// TestIndexWrite: the journal's stale-copy check gets the index's bytes
// and the bytes the call would leave (a byte-order mark and invalid UTF-8
// kept as they are), and nothing for another file or a call that does
// not apply.
func TestIndexWrite(t *testing.T) {
	index := "# Memory\n\n- [Bot](reference_bot.md) — how the release bot is set up\n"
	s := func(v string) *string { return &v }
	for _, c := range []struct {
		name, file, old, new string
		want                 string // "" for no write
	}{
		{"an edit", index, "release bot", "release robot", "# Memory\n\n- [Bot](reference_bot.md) — how the release robot is set up\n"},
		{"a stale edit", index, "no such text", "x", ""},
		{"a byte-order mark", "\ufeff" + index, "release bot", "release robot", "\ufeff# Memory\n\n- [Bot](reference_bot.md) — how the release robot is set up\n"},
		{"invalid UTF-8", index + "\xff\n", "release bot", "release robot", "# Memory\n\n- [Bot](reference_bot.md) — how the release robot is set up\n\xff\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "MEMORY.md")
			if err := os.WriteFile(path, []byte(c.file), 0o644); err != nil {
				t.Fatal(err)
			}
			w := indexWrite(path, "Edit", &hookjson.ToolInput{OldString: s(c.old), NewString: s(c.new)})
			switch {
			case c.want == "" && w != nil:
				t.Fatalf("indexWrite = %+v, want none", w)
			case c.want == "":
			case w == nil:
				t.Fatal("indexWrite = nil")
			case w.Current != c.file || w.Proposed != c.want:
				t.Errorf("indexWrite = %q, %q; want %q, %q", w.Current, w.Proposed, c.file, c.want)
			}
		})
	}
	other := filepath.Join(t.TempDir(), "notes.md")
	if w := indexWrite(other, "Write", &hookjson.ToolInput{Content: s("x")}); w != nil {
		t.Errorf("a file not named MEMORY.md gave %+v", w)
	}
	if w := indexWrite(filepath.Join(t.TempDir(), "MEMORY.md"), "Write", &hookjson.ToolInput{Content: s("x\n")}); w == nil || w.Current != "" || w.Proposed != "x\n" {
		t.Errorf("a Write creating the index gave %+v", w)
	}
}
