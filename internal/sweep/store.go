// Package sweep holds the read-only instruments an owner-present sweep runs
// over a memory store: the inventory (the pre-sweep enumeration artifact),
// the four disposition gates, and the partition check that reconciles the
// artifact against the post-sweep store. None of them writes to the store;
// the inventory's artifact is written by the caller.
//
// They reproduce the reference sweep scripts' verdicts exactly (identities,
// orderings, messages), because stores swap memcompact in for them, and add
// one check the reference only describes: the partition's decision-grain
// lens (Strict).
package sweep

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/textfile"
)

// Paths locates a store's files. The record files default to LEDGER.md,
// SLATE.md and ARCHIVE.md beside the resolved index; an explicit path is
// used, and echoed, as given.
type Paths struct {
	Index   string // absolute path of the index
	Dir     string // its directory
	Ledger  string
	Slate   string
	Archive string
}

// ResolvePaths resolves the index to an absolute path and fills in the
// default record paths for the empty ones.
func ResolvePaths(indexPath, ledger, slate, archive string) (Paths, error) {
	abs, err := filepath.Abs(indexPath)
	if err != nil {
		return Paths{}, err
	}
	p := Paths{Index: abs, Dir: filepath.Dir(abs), Ledger: ledger, Slate: slate, Archive: archive}
	if strings.TrimSpace(p.Ledger) == "" {
		p.Ledger = filepath.Join(p.Dir, "LEDGER.md")
	}
	if strings.TrimSpace(p.Slate) == "" {
		p.Slate = filepath.Join(p.Dir, "SLATE.md")
	}
	if strings.TrimSpace(p.Archive) == "" {
		p.Archive = filepath.Join(p.Dir, "ARCHIVE.md")
	}
	return p, nil
}

// IsFile reports whether path names a regular file (following symlinks). A
// directory does not count, as in the reference.
func IsFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

// isDir reports whether path names a directory (following symlinks): the
// one kind of directory entry a listing of files leaves out. A dangling
// link is not a directory.
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// Warning is a note about the store that changes no verdict: a malformed
// record's file and line, a link that leads outside the store. The CLI
// prints warnings on stderr, so the verdict on stdout stays the reference's.
type Warning struct {
	File string
	Line int // 0 when the warning is about the whole file
	Msg  string
}

func (w Warning) String() string {
	if w.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", w.File, w.Line, w.Msg)
	}
	return fmt.Sprintf("%s: %s", w.File, w.Msg)
}

// RecordWarnings lists every malformed record and a duplicated marker, with
// file and line, so no unreadable row is ever silent.
func RecordWarnings(l *records.Ledger, s *records.Slate) []Warning {
	var ws []Warning
	if l != nil {
		if l.State() == records.StateDuplicated {
			ws = append(ws, Warning{File: l.Path(), Msg: l.Region.Why})
		}
		for _, r := range l.Malformed {
			ws = append(ws, Warning{File: l.Path(), Line: r.Line, Msg: "unreadable ledger record: " + r.Why})
		}
	}
	if s != nil {
		if s.State() == records.StateDuplicated {
			ws = append(ws, Warning{File: s.Path(), Msg: s.Region.Why})
		}
		for _, r := range s.Malformed {
			ws = append(ws, Warning{File: s.Path(), Line: r.Line, Msg: "unreadable slate row: " + r.Why})
		}
	}
	return ws
}

// readIndexLines reads the index through textfile.
func readIndex(path string) (*textfile.File, []string, error) {
	f, err := textfile.Read(path)
	if err != nil {
		return nil, nil, err
	}
	return f, textfile.Lines(f.Text), nil
}
