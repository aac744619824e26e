package writeguard

import (
	"path/filepath"
	"testing"

	"github.com/memcompact/memcompact/internal/hookjson"
)

// TestApplied: the verdict hands the hook's journal the bytes it judged,
// and nothing when they are not the file's bytes or the call did not apply.
func TestApplied(t *testing.T) {
	index := "# Memory\n\n- [Bot](reference_bot.md) — how the release bot is set up\n"
	for _, c := range []struct {
		name, file, old, new string
		ok                   bool
		want                 string
	}{
		{"an edit", index, "release bot", "release robot", true, "# Memory\n\n- [Bot](reference_bot.md) — how the release robot is set up\n"},
		{"a stale edit", index, "no such text", "x", false, ""},
		{"a byte-order mark", "\ufeff" + index, "release bot", "release robot", false, ""},
		{"invalid UTF-8", index + "\xff\n", "release bot", "release robot", false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := testStore(t, map[string]string{"MEMORY.md": c.file, "reference_bot.md": "the bot\n"})
			v := judge(filepath.Join(dir, "MEMORY.md"), "Edit", hookjson.ToolInput{OldString: str(c.old), NewString: str(c.new)})
			cur, after, ok := v.Applied()
			if ok != c.ok {
				t.Fatalf("Applied ok = %v, want %v", ok, c.ok)
			}
			if ok && (string(cur) != c.file || string(after) != c.want) {
				t.Errorf("Applied = %q, %q", cur, after)
			}
		})
	}
	if _, _, ok := judge(filepath.Join(t.TempDir(), "notes.txt"), "Write", hookjson.ToolInput{Content: str("x")}).Applied(); ok {
		t.Error("a file outside any store was applied")
	}
}
