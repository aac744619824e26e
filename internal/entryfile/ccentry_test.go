package entryfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	e := Parse("a.md", "---\nname: retry-policy\ndescription: how retries back off\nmetadata:\n  type: feedback\n  pinned: true\n---\n\nSee [[deploy-steps]] and [[ missing | alias ]].\n")
	if !e.Frontmatter || e.Name != "retry-policy" || e.Description != "how retries back off" || e.Type != "feedback" || !e.Pinned {
		t.Errorf("%+v", e)
	}
	if strings.Join(e.Links, ",") != "deploy-steps,missing" {
		t.Errorf("links %v", e.Links)
	}
	if e := Parse("b.md", "no frontmatter [[x]]\n"); e.Frontmatter || len(e.Links) != 1 {
		t.Errorf("%+v", e)
	}
	if e := Parse("c.md", "---\n: bad yaml [\n---\nbody\n"); e.Frontmatter {
		t.Errorf("bad YAML read as frontmatter: %+v", e)
	}
}

// writer writes files under dir, making their folders.
func writer(t *testing.T, dir string) func(rel, s string) {
	return func(rel, s string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestReadAndDangling(t *testing.T) {
	dir := t.TempDir()
	write := writer(t, dir)
	write("MEMORY.md", "- [a](a.md)\n")
	write("a.md", "---\nname: alpha\ndescription: a\n---\n[[beta]] [[team-rule]] [[nowhere]]\n")
	write("beta.md", "b\n")
	write("team/rule.md", "---\nname: team-rule\ndescription: shared\n---\nx\n")
	es := Read(dir)
	if len(es) != 3 || es[2].Path != "team/rule.md" {
		t.Fatalf("%+v", es)
	}
	if d := Dangling(es); strings.Join(d, ";") != "a.md: [[nowhere]]" {
		t.Errorf("dangling %v", d)
	}
}
