package sweepact

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSurfaceOf pins which destinations a promotion may name: the files
// Claude Code loads as instructions, outside the memory folder, inside
// their project.
func TestSurfaceOf(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	proj := filepath.Join(root, "proj")
	mem := filepath.Join(home, ".claude", "projects", "-proj", "memory")
	for _, d := range []string{mem, filepath.Join(proj, ".claude", "rules"), filepath.Join(root, "elsewhere"), filepath.Join(proj, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "elsewhere", "x.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "elsewhere", "x.md"), filepath.Join(proj, ".claude", "rules", "linked.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "elsewhere"), filepath.Join(proj, "docs")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		dest, project, why string
	}{
		{filepath.Join(proj, "CLAUDE.md"), proj, ""},
		{filepath.Join(proj, "CLAUDE.local.md"), proj, ""},
		{filepath.Join(proj, ".claude", "CLAUDE.md"), proj, ""},
		{filepath.Join(proj, ".claude", "rules", "testing.md"), proj, ""},
		{filepath.Join(proj, ".claude", "rules", "go", "style.md"), proj, ""},
		{filepath.Join(home, ".claude", "CLAUDE.md"), filepath.Join(home, ".claude"), ""},
		{filepath.Join(mem, "CLAUDE.md"), "", "inside the memory folder"},
		{filepath.Join(mem, "sub", "CLAUDE.md"), "", "inside the memory folder"},
		{filepath.Join(proj, "README.md"), "", "not a file Claude Code loads as instructions"},
		{filepath.Join(proj, ".claude", "rules", "notes.txt"), "", "not a file Claude Code loads as instructions"},
		{filepath.Join(proj, ".claude", "rules", "linked.md"), proj, "is a symlink to"},
		{filepath.Join(proj, "docs", "CLAUDE.md"), "", "outside its project"}, // a subfolder linked out of the repository
		{"", "", "names no destination"},
	} {
		project, why := surfaceOf(c.dest, mem, home)
		if (c.why == "") != (why == "") || !strings.Contains(why, c.why) {
			t.Errorf("surfaceOf(%s): why %q, want one saying %q", c.dest, why, c.why)
		}
		if c.why == "" && project != c.project {
			t.Errorf("surfaceOf(%s): project %q, want %q", c.dest, project, c.project)
		}
	}
}
