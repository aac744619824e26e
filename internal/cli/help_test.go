package cli

import (
	"io/fs"
	"strings"
	"testing"
)

// TestHelpFiles: every verb has a help file whose first line is its
// one-line summary (lowercase, no period) followed by a blank line, every
// {{NAME}} it includes exists, and no help file is left unused.
func TestHelpFiles(t *testing.T) {
	used := map[string]bool{}
	for name := range commands {
		used[name] = true
		lines := strings.Split(help(name), "\n")
		if len(lines) < 3 || lines[0] == "" || lines[1] != "" || strings.HasSuffix(lines[0], ".") || strings.ToLower(lines[0][:1]) != lines[0][:1] {
			t.Errorf("help/%s.txt: want a one-line summary (lowercase, no period), a blank line, then the help", name)
		}
		for _, l := range lines {
			if inc, ok := strings.CutPrefix(l, "{{"); ok {
				inc = strings.TrimSuffix(inc, "}}")
				used[inc] = true
				if _, err := helpFiles.ReadFile("help/" + inc + ".txt"); err != nil {
					t.Errorf("help/%s.txt includes %s: %v", name, l, err)
				}
			}
		}
		if text := helpText(name); strings.Contains(text, "{{") {
			t.Errorf("help/%s.txt: an include is left in the text", name)
		}
	}
	files, _ := fs.Glob(helpFiles, "help/*.txt")
	for _, f := range files {
		if name := strings.TrimSuffix(strings.TrimPrefix(f, "help/"), ".txt"); !used[name] {
			t.Errorf("%s is no verb's help and no verb includes it", f)
		}
	}
}
