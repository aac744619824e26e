package hookrun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/companion"
	"github.com/memcompact/memcompact/internal/entryfile"
	"github.com/memcompact/memcompact/internal/entryfile/yamlfm" // the tests read frontmatters beyond entryfile's own YAML with yaml.v3, as memcompact-full does
)

// TestRunYAMLUnavailable: when the YAML parser cannot be reached (a
// memcompact-hook whose memcompact-full is gone), a session start over a
// store holding a frontmatter beyond entryfile's own YAML is allowed with a
// note that says why, as for the Markdown parser, not reported as a bug;
// without one the parser is never asked.
func TestRunYAMLUnavailable(t *testing.T) {
	defer entryfile.Use(yamlfm.Decode)
	entryfile.Use(func([]string) ([]entryfile.Fields, error) {
		return nil, companion.Unavailablef("the YAML parser is not available: no memcompact-full beside memcompact-hook")
	})
	f := newFixture(t)
	res := f.run(t, EventSessionStart, f.start("a"))
	checkResult(t, res, EventSessionStart, "", "", "")
	folded := "---\nname: folded\ndescription: >\n  two\n  lines\n---\nBody.\n"
	if err := os.WriteFile(filepath.Join(f.store, "feedback_folded.md"), []byte(folded), 0o644); err != nil {
		t.Fatal(err)
	}
	res = f.run(t, EventSessionStart, f.start("b"))
	notes := strings.Join(res.Notes, "\n")
	if res.Context != "" || !strings.Contains(notes, "no memcompact-full beside memcompact-hook") ||
		!strings.Contains(notes, "allowing") || !strings.Contains(notes, companion.InstallHint) || strings.Contains(notes, "bug") {
		t.Errorf("context %q, notes %q", res.Context, notes)
	}
}
