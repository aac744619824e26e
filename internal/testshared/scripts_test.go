package testshared

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShortSample: one script per family, its "-basic" one if it has one,
// else the one running the fewest commands (comments, blank lines and the
// archive's files not counted), the first by name on a tie.
func TestShortSample(t *testing.T) {
	dir := t.TempDir()
	cmds := func(n int) string { return strings.Repeat("exits 0 memcompact version\n", n) }
	for name, text := range map[string]string{
		"check-long.txtar":      cmds(9),
		"check-basic.txtar":     cmds(12),
		"journal-a.txtar":       cmds(5),
		"journal-b.txtar":       "# many words\n\n# and more\n" + cmds(2) + "-- MEMORY.md --\nexits 0 memcompact version\nx\ny\nz\n",
		"journal-c.txtar":       cmds(2),
		"sweep-only.txtar":      cmds(30),
		"notes-not-a-script.md": "x",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, p := range ShortSample(dir) {
		got = append(got, filepath.Base(p))
	}
	if want := "check-basic.txtar journal-b.txtar sweep-only.txtar"; strings.Join(got, " ") != want {
		t.Errorf("ShortSample = %q, want %q", got, want)
	}
	if ShortSample(filepath.Join(dir, "none")) != nil {
		t.Error("a folder with no scripts gives a sample")
	}
}
