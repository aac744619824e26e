package torture

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestNoWriteEscapesThroughSymlinks points a directory or a file inside the
// memory root at a folder outside it and runs every writing verb at it.
// Nothing outside the root may change, and each refusal says why.
func TestNoWriteEscapesThroughSymlinks(t *testing.T) {
	type tc struct {
		name  string
		link  string // inside the root, relative
		to    string // outside, relative to the outside folder
		stdin string
		args  []string
	}
	cases := []tc{
		{"compact via symlinked dir", "topics", "topics", "", []string{"compact", "topics/t.md", "--yes"}},
		{"save via symlinked dir", "topics", "topics", entry(40, "new"), []string{"save", "topics/t.md", "--yes"}},
		{"compact via symlinked file", "topics/t.md", "topics/t.md", "", []string{"compact", "topics/t.md", "--yes"}},
		{"save via symlinked file", "topics/t.md", "topics/t.md", entry(40, "new"), []string{"save", "topics/t.md", "--yes"}},
		{"snapshot via symlinked snapshots dir", "compaction/snapshots", "snapshots", "", []string{"compact", "topics/t.md", "--yes"}},
		{"set-budget via symlinked compaction dir", "compaction", "compaction", "", []string{"set-budget", "topics/t.md", "77", "lines"}},
		{"restore via symlinked dir", "topics", "topics", "", []string{"restore", "t-2026-01-01.md", "--yes"}},
	}
	escapes := 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root, _ := newRoot(t, 40, 9)
			write(t, filepath.Join(root, "compaction", "snapshots", "t-2026-01-01.md"), "# Diary\n\n"+entry(1, "old"))
			out := t.TempDir()
			// Move what the link replaces outside, then link to it.
			src := filepath.Join(root, c.link)
			dst := filepath.Join(out, c.to)
			os.MkdirAll(filepath.Dir(dst), 0o755)
			if err := os.Rename(src, dst); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(dst, src); err != nil {
				t.Skip("symlinks unsupported:", err)
			}
			before := tree(t, out)
			r := mc(t, root, c.stdin, nil, c.args...)
			after := tree(t, out)
			if before != after {
				escapes++
				t.Errorf("%v wrote outside the root (exit %d):\nbefore:\n%s\nafter:\n%s", c.args, r.code, before, after)
			}
			if r.code == 0 {
				t.Errorf("%v exit 0 though its write would leave the root: %s", c.args, r.stdout)
			} else if !strings.Contains(r.stdout+r.stderr, "outside the memory root") {
				t.Logf("%v exit %d: %s%s", c.args, r.code, r.stdout, r.stderr)
			}
		})
	}
	t.Logf("FIGURE symlinks: %d writing runs through symlinked files and directories, %d writes outside the root", len(cases), escapes)
}

// tree is a listing of every file under dir with its digest.
func tree(t *testing.T, dir string) string {
	var lines []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		b, _ := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		lines = append(lines, fmt.Sprintf("%s %x", rel, sha256.Sum256(b)))
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
