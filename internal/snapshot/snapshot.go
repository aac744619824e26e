// Package snapshot names, writes and lists the copies memcompact takes of a
// memory file before rewriting it, and puts them back: Catalog is the
// snapshots verb, Restore the restore verb.
//
// Snapshots live flat in ROOT/compaction/snapshots/, named after the file's
// base name (its name without the directory and without ".md"), never in
// nested folders:
//
//	main-memory-2026-12-02.md           the first of the day
//	main-memory-2026-12-02-143005.md    the next, with the time HHMMSS
//	main-memory-2026-12-02-143005-v2.md a second one within that second
//
// A snapshot is created with O_EXCL and read back before it is trusted
// (atomicfile.CreateExclusive), so an existing snapshot is never
// overwritten and a partial one is never mistaken for a good one.
//
// Two files with the same base name in different folders (main/notes.md,
// topics/notes.md) share a name sequence; the snapshot's first lines tell
// them apart, and restore asks which file is meant when the name alone does
// not say.
package snapshot

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/lazyre"
	"github.com/memcompact/memcompact/internal/textfile"
)

// Base is the snapshot base name of file: its name without ".md".
func Base(file string) string {
	b := filepath.Base(filepath.FromSlash(file))
	if strings.HasSuffix(strings.ToLower(b), ".md") {
		b = b[:len(b)-3]
	}
	return b
}

// candidate is the k-th name a snapshot of base taken at now may get: the
// date alone, then the time, then -v2, -v3, …
func candidate(base string, now time.Time, today time.Time, k int) string {
	date := today.Format("2006-01-02")
	switch k {
	case 0:
		return fmt.Sprintf("%s-%s.md", base, date)
	case 1:
		return fmt.Sprintf("%s-%s-%s.md", base, date, now.Format("150405"))
	}
	return fmt.Sprintf("%s-%s-%s-v%d.md", base, date, now.Format("150405"), k)
}

// maxTries bounds the -vN sequence; a thousand snapshots of one file in one
// second is a loop, not a workload.
const maxTries = 1000

// Next returns the first name in dir not yet taken for a snapshot of file.
func Next(dir, file string, today, now time.Time) (string, error) {
	base := Base(file)
	for k := 0; k < maxTries; k++ {
		p := filepath.Join(dir, candidate(base, now, today, k))
		if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			return p, nil
		} else if err != nil {
			return "", err
		}
	}
	return "", fmt.Errorf("%s: more than %d snapshots of %s in one second", dir, maxTries, base)
}

// Take writes data as a new snapshot of file in dir at the name want (from
// Next), or at the next free name if another writer took want meanwhile. It
// returns the path written. The bytes are read back and compared.
func Take(dir, file, want string, data []byte, today, now time.Time) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	p := want
	for try := 0; try < 5; try++ {
		err := atomicfile.CreateExclusive(p, data)
		if err == nil {
			return p, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", err
		}
		if p, err = Next(dir, file, today, now); err != nil {
			return "", err
		}
	}
	return "", fmt.Errorf("%s: could not find a free snapshot name", dir)
}

// TakeStored is Take for a compaction's snapshot, stored by content: as
// the changes from the newest snapshot of the same base name when that is
// much smaller (see delta.go), else as a plain copy. Either way the file is
// read back and rebuilt to data's digest before it is trusted; a snapshot
// that does not rebuild is removed and the error says so, so the caller
// leaves its file unchanged.
func TakeStored(dir, file, want string, data []byte, today, now time.Time) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	base := ""
	if l, err := List(dir, Base(file)); err == nil && len(l) > 0 {
		base = l[len(l)-1].Name
	}
	r := NewReader(dir)
	stored := r.encodeFor(base, data)
	p := want
	for try := 0; try < 5; try++ {
		err := atomicfile.CreateExclusive(p, stored)
		if errors.Is(err, fs.ErrExist) {
			if p, err = Next(dir, file, today, now); err != nil {
				return "", err
			}
			continue
		}
		if err != nil {
			return "", err
		}
		back, err := NewReader(dir).Read(filepath.Base(p))
		if err != nil || textfile.Digest(back) != textfile.Digest(data) {
			os.Remove(p)
			if err == nil {
				err = fmt.Errorf("it does not read back as the file's bytes")
			}
			return "", fmt.Errorf("%s: the snapshot written cannot be trusted (%v); it was removed", filepath.Base(p), err)
		}
		return p, nil
	}
	return "", fmt.Errorf("%s: could not find a free snapshot name", dir)
}

// Info describes one snapshot.
type Info struct {
	Path    string    `json:"path"`
	Name    string    `json:"name"`
	Base    string    `json:"base"`
	Taken   time.Time `json:"-"`
	Date    string    `json:"date"` // YYYY-MM-DD, with " HH:MM:SS" when named
	Version int       `json:"version,omitempty"`
	Bytes   int64     `json:"bytes"`
	Lines   int       `json:"lines"`
	// Stored is what the snapshot costs on disk: Bytes for a plain copy,
	// less for one stored as the changes from an earlier snapshot (Delta
	// names it). Damaged says why a snapshot cannot be rebuilt.
	Stored  int64  `json:"stored_bytes"`
	Delta   string `json:"delta_of,omitempty"`
	Damaged string `json:"damaged,omitempty"`
}

var nameRE = lazyre.New(`^(.+)-(\d{4}-\d{2}-\d{2})(?:-(\d{6}))?(?:-v(\d+))?\.md$`)

// ParseName splits a snapshot file name into its base name, time and
// version.
func ParseName(name string) (base string, taken time.Time, hasTime bool, version int, ok bool) {
	m := nameRE().FindStringSubmatch(name)
	if m == nil {
		return "", time.Time{}, false, 0, false
	}
	layout, value := "2006-01-02", m[2]
	if m[3] != "" {
		layout, value, hasTime = "2006-01-02 150405", m[2]+" "+m[3], true
	}
	t, err := time.ParseInLocation(layout, value, time.Local)
	if err != nil {
		return "", time.Time{}, false, 0, false
	}
	if m[4] != "" {
		version, _ = strconv.Atoi(m[4])
	}
	return m[1], t, hasTime, version, true
}

// List returns the snapshots in dir (all of them when base is "", else
// those of that base name), oldest first.
func List(dir, base string) ([]Info, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Info
	r := NewReader(dir)
	for _, e := range ents {
		b, t, hasTime, v, ok := ParseName(e.Name())
		if !ok || (base != "" && b != base) || !e.Type().IsRegular() {
			continue
		}
		in := Info{Path: filepath.Join(dir, e.Name()), Name: e.Name(), Base: b, Taken: t, Version: v, Date: t.Format("2006-01-02")}
		if hasTime {
			in.Date = t.Format("2006-01-02 15:04:05")
		}
		out = append(out, in)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Base != b.Base {
			return a.Base < b.Base
		}
		if !a.Taken.Equal(b.Taken) {
			return a.Taken.Before(b.Taken)
		}
		return a.Version < b.Version
	})
	// Read oldest first, so each delta's base is rebuilt once.
	for i := range out {
		in := &out[i]
		e := r.read(in.Name, 0)
		if e.err != nil {
			if _, err := os.Lstat(in.Path); err == nil {
				in.Damaged = e.err.Error()
			}
			continue
		}
		f := textfile.FromBytes(in.Path, e.data)
		in.Bytes, in.Lines, in.Stored, in.Delta = int64(len(f.Raw)), len(textfile.Lines(f.Text)), int64(e.stored), e.base
	}
	return out, nil
}

// Exists reports whether dir holds any snapshot of file. It is how the
// first compaction of a file is recognized: no snapshot, never compacted.
func Exists(dir, file string) bool {
	l, err := List(dir, Base(file))
	return err == nil && len(l) > 0
}
