package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrOutside reports a write that symlinks would carry out of the memory
// root or store it belongs to.
var ErrOutside = errors.New("leads outside the memory root through a symlink; not writing there")

// Within reports (as a nil error) whether a write to path stays inside
// root once every symlink on the way is followed: a symlinked directory or
// file inside root that points elsewhere is refused, so no write ever lands
// outside root. A link whose target is inside root is fine (the write
// keeps the link). Parts of path that do not exist yet are taken as they
// would be created.
func Within(root, path string) error {
	rr, err := filepath.EvalSymlinks(root)
	if err == nil {
		// resolveExisting answers an absolute path; so must the root.
		rr, err = filepath.Abs(rr)
	}
	if err != nil {
		return err
	}
	rp, err := resolveExisting(path)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(rr, rp)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return &fs.PathError{Op: "write", Path: path, Err: fmt.Errorf("%w (it resolves to %s)", ErrOutside, rp)}
	}
	return nil
}

// resolveExisting follows the symlinks of the longest existing prefix of
// path and appends the rest unchanged.
func resolveExisting(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	rest := ""
	for p := abs; ; p = filepath.Dir(p) {
		r, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(r, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		if fi, lerr := os.Lstat(p); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			// A dangling link: where it would create the file is not known
			// to be inside root.
			return "", &fs.PathError{Op: "write", Path: path, Err: errors.New("a dangling symlink; not writing through it")}
		}
		if filepath.Dir(p) == p {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(p), rest)
	}
}

// Inside reports whether path, as named (made absolute, before any symlink
// is followed), lies inside root. A writer checks Within for such a path;
// a path named outside root is where its owner chose to write.
func Inside(root, path string) (bool, error) {
	ar, err := filepath.Abs(root)
	if err != nil {
		return false, err
	}
	ap, err := filepath.Abs(path)
	if err != nil {
		return false, err
	}
	rel, err := filepath.Rel(ar, ap)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel), nil
}
