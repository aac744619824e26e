package budget

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/textfile"
)

// Layout of a memory root.
const (
	Dir          = "compaction"
	PolicyRel    = "compaction/compaction-policy.md"
	SnapshotsRel = "compaction/snapshots"
)

// ErrNoRoot is returned by FindRoot when no directory up from the start
// holds a policy.
var ErrNoRoot = errors.New("no memory root: no directory from here upward holds " + PolicyRel)

// FindRoot returns the nearest directory, from start upward, that holds
// compaction/compaction-policy.md.
func FindRoot(start string) (string, error) {
	dir, err := filepath.Abs(start)
	if err != nil {
		return "", err
	}
	for {
		if fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(PolicyRel))); err == nil && fi.Mode().IsRegular() {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", ErrNoRoot
		}
		dir = up
	}
}

// Load reads and parses root's policy.
func Load(root string) (*Policy, error) {
	p, _, err := loadFile(root)
	return p, err
}

// loadFile is Load that also returns the policy file as read, for a caller
// that rewrites it: the digest it hands atomicfile.Replace is then that of
// the very bytes it parsed, and the file is read once.
func loadFile(root string) (*Policy, *textfile.File, error) {
	path := filepath.Join(root, filepath.FromSlash(PolicyRel))
	f, err := textfile.Read(path)
	if err != nil {
		return nil, nil, err
	}
	p, err := parse(path, f.Raw)
	return p, f, err
}

// Rel returns file (relative to the working directory, or absolute) as a
// "/"-separated path relative to root, or an error if it lies outside root.
func Rel(root, file string) (string, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return "", err
	}
	r, err := filepath.Rel(root, abs)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		// Compare with symlinks resolved too, so a root reached through a
		// link still contains its files.
		if rr, e1 := filepath.EvalSymlinks(root); e1 == nil {
			if ra, e2 := filepath.EvalSymlinks(filepath.Dir(abs)); e2 == nil {
				if r2, e3 := filepath.Rel(rr, filepath.Join(ra, filepath.Base(abs))); e3 == nil && r2 != ".." && !strings.HasPrefix(r2, ".."+string(filepath.Separator)) {
					return filepath.ToSlash(r2), nil
				}
			}
		}
		return "", fmt.Errorf("%s is not under the memory root %s", file, root)
	}
	return filepath.ToSlash(r), nil
}

// File is one budgeted file.
type File struct {
	Rel     string // root-relative, "/"-separated
	Row     *Row
	Missing bool // an exact row whose file does not exist
}

// Files expands the table: each exact row's file (even if missing), then
// each glob's matches not already budgeted by an exact row or an earlier
// glob, sorted. Directories and anything under compaction/ are skipped.
// unmatched lists glob rows that matched no file.
func (p *Policy) Files(root string) (files []File, unmatched []*Row) {
	claimed := map[string]bool{}
	for i := range p.Rows {
		r := &p.Rows[i]
		if !r.isGlob() && !Excluded(r.Pattern) {
			claimed[r.Pattern] = true
		}
	}
	for i := range p.Rows {
		r := &p.Rows[i]
		if Excluded(r.Pattern) {
			continue
		}
		if !r.isGlob() {
			_, err := os.Stat(filepath.Join(root, filepath.FromSlash(r.Pattern)))
			files = append(files, File{Rel: r.Pattern, Row: r, Missing: errors.Is(err, fs.ErrNotExist)})
			continue
		}
		matches, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(r.Pattern)))
		var rels []string
		for _, m := range matches {
			rel, err := filepath.Rel(root, m)
			if err != nil {
				continue
			}
			rel = filepath.ToSlash(rel)
			// memcompact's own temporary and lock files, and its
			// .memcompact folder, are never memory files, whatever a glob
			// like dir/* or */* says.
			if atomicfile.IsInternal(rel) {
				continue
			}
			if fi, err := os.Stat(m); err != nil || fi.IsDir() || claimed[rel] || Excluded(rel) {
				continue
			}
			if ok, _ := path.Match(r.Pattern, rel); !ok {
				continue
			}
			claimed[rel] = true
			rels = append(rels, rel)
		}
		sort.Strings(rels)
		if len(rels) == 0 {
			unmatched = append(unmatched, r)
		}
		for _, rel := range rels {
			files = append(files, File{Rel: rel, Row: r})
		}
	}
	return files, unmatched
}

// Measure is text's size in unit, by the textfile counting rule.
func Measure(text string, unit Unit) int {
	if unit == Chars {
		return textfile.Units(text)
	}
	return len(textfile.Lines(text))
}
