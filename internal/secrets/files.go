package secrets

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/filecache"
	"github.com/memcompact/memcompact/internal/lockfile"
	"github.com/memcompact/memcompact/internal/textfile"
)

// FileFinding is a Finding in a file.
type FileFinding struct {
	File string `json:"file"`
	Finding
}

// Skip is a file a scan passed over, and why (a binary file in a walked
// directory). A skip is a note, not a failure.
type Skip struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// FileError is a file that could not be read.
type FileError struct {
	Path  string `json:"path"`
	Error string `json:"error"`
}

// Report is the result of scanning files.
type Report struct {
	Scanned  []string      // files read and scanned, in order
	Findings []FileFinding // ordered by file, then line
	Skipped  []Skip
	Errors   []FileError

	cache *filecache.Cache
	stats *filecache.Stats // the run's stat of each file (nil: stat each time)
	memo  *Memo            // the run's scan of each text (nil: scan each time)
	reads *textfile.Reads  // the run's read of each file (nil: read each time)
}

// ScanFiles scans each path: a file is read and scanned; a directory is
// walked (hidden directories such as .git are not entered, and symbolic
// links to directories are not followed, so a walk always ends, and
// memcompact's temporary and lock files are passed over, see ownFile), and
// each text file in it is scanned. A file that looks binary (a NUL byte in its
// first 8 KB) is skipped with a note. A path that does not exist or cannot
// be read is recorded in Errors. The caller decides what a missing path
// means; ScanFiles never stops early.
func ScanFiles(paths []string) *Report { return ScanFilesWith(paths, ScanOptions{NoCache: true}) }

// ScanOptions adjust ScanFilesWith.
type ScanOptions struct {
	// NoCache scans every file afresh. Otherwise a file whose size,
	// modification time or content digest says it is unchanged since an
	// earlier scan is not scanned again (see cache.go).
	NoCache bool
	// Stats is the run's stat of each file, shared with the other parts
	// of the run (nil: stat here).
	Stats *filecache.Stats
	// Memo shares each text's scan with the run's other parts (nil: scan
	// here).
	Memo *Memo
	// Reads is the run's read of each file, shared likewise (nil: read
	// here).
	Reads *textfile.Reads
}

// ScanFilesWith is ScanFiles with options.
func ScanFilesWith(paths []string, opt ScanOptions) *Report {
	rep := &Report{stats: opt.Stats, memo: opt.Memo, reads: opt.Reads}
	if !opt.NoCache {
		rep.cache = openCache(paths)
		defer rep.cache.Save()
	}
	for _, p := range paths {
		fi, err := rep.stats.Stat(p)
		if err != nil {
			rep.Errors = append(rep.Errors, FileError{Path: p, Error: errText(err)})
			continue
		}
		if !fi.IsDir() {
			rep.scanFile(p, false)
			continue
		}
		var files []string
		// A store that is a symlink to a folder is followed, as Claude
		// Code follows it: WalkDir does not follow its root, but does a
		// root that ends in a separator.
		root := p
		if li, err := os.Lstat(p); err == nil && li.Mode()&fs.ModeSymlink != 0 {
			root = p + string(filepath.Separator)
		}
		err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				rep.Errors = append(rep.Errors, FileError{Path: path, Error: errText(err)})
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if path != root && len(d.Name()) > 1 && d.Name()[0] == '.' {
					return fs.SkipDir
				}
				return nil
			}
			if ownFile(d.Name()) {
				return nil
			}
			if d.Type()&fs.ModeSymlink != 0 {
				if st, err := os.Stat(path); err == nil && st.IsDir() {
					return nil
				}
			}
			files = append(files, path)
			return nil
		})
		if err != nil {
			rep.Errors = append(rep.Errors, FileError{Path: p, Error: errText(err)})
		}
		sort.Strings(files)
		for _, f := range files {
			rep.scanFile(f, true)
		}
	}
	return rep
}

// ownFile reports a file a walk passes over because memcompact wrote it
// for itself: a temporary file (a copy of a memory file, or crash debris
// of one, whose findings would be the real file's twice, or a half) or the
// lock. A recovered foreign write (atomicfile.RecoveredPrefix) is another
// program's text and is scanned; the .memcompact folder is skipped with
// every hidden folder.
func ownFile(name string) bool {
	return atomicfile.IsTemp(name) || name == lockfile.Name
}

// binarySniff is how much of a file is looked at to decide it is binary.
const binarySniff = 8 << 10

func (rep *Report) scanFile(path string, walked bool) {
	if rep.cached(path) {
		return
	}
	f, err := rep.reads.Read(path)
	if err != nil {
		if walked && errors.Is(err, textfile.ErrNotRegular) {
			rep.Skipped = append(rep.Skipped, Skip{Path: path, Reason: "not a regular file"})
			return
		}
		rep.Errors = append(rep.Errors, FileError{Path: path, Error: errText(err)})
		return
	}
	if bytes.IndexByte(f.Raw[:min(len(f.Raw), binarySniff)], 0) >= 0 {
		rep.Skipped = append(rep.Skipped, Skip{Path: path, Reason: "binary file"})
		rep.remember(path, f, cached{Binary: true})
		return
	}
	if c, ok := rep.recall(path, f); ok {
		rep.add(path, f.Text, c)
		return
	}
	c := cached{Hits: []cachedHit{}}
	for _, h := range rep.memo.hits(f.Text) {
		c.Hits = append(c.Hits, cachedHit{Rule: h.rule, Start: h.start, End: h.end})
	}
	rep.remember(path, f, c)
	rep.add(path, f.Text, c)
}

// add reports a file's scan.
func (rep *Report) add(path, text string, c cached) {
	if c.Binary {
		rep.Skipped = append(rep.Skipped, Skip{Path: path, Reason: "binary file"})
		return
	}
	rep.Scanned = append(rep.Scanned, path)
	for _, fd := range render(text, c.hits()) {
		rep.Findings = append(rep.Findings, FileFinding{File: path, Finding: fd})
	}
}

// errText is an error's message without the Go error chain's repetition of
// the path when the caller already shows it.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}
