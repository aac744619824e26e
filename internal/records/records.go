// Package records reads a memory store's three record files — LEDGER.md
// (what the sweep did), SLATE.md (the assessment state of entries still in
// the index) and ARCHIVE.md (demoted pointers) — and folds them into the
// answers the sweep instruments, the drift report and the write guard need.
//
// # Regions
//
// LEDGER.md and SLATE.md each carry one opening marker and no closing one
// (LedgerMarker, SlateMarker); every line after the marker is a record, to
// the end of the file. A bounded region could not be appended to, so the
// open end is what makes an append a real append. A file is in one of four
// states: absent, unmarked (no marker: nothing is read), duplicated (two or
// more markers: nothing is read, because which region governs has no answer)
// or present. Blank lines and whole-line HTML comments after the marker are
// skipped; nothing else is. A '#' line is a malformed record, not a comment:
// one typed character must not be able to erase an exit record.
//
// # Records
//
// A ledger record is exactly six pipe-separated fields,
//
//	date | status | disposition | identity | reason | destination
//
// and a slate row exactly five,
//
//	date | identity | track | value | detail
//
// each value checked against its own vocabulary (a slate row reading
// "critical | Yes" is malformed). A row that does not parse is kept, counted
// and reported with its file line — never silently skipped — and a slate
// with any malformed row is not trustworthy, so every gate refuses on it.
// Dates are yyyy-MM-dd and may not lie after the as-of date: the freshest row
// governs, so a mistyped future year would outrank every honest row after it.
//
// # Identities
//
// Records name entries by life key, "<name>@<admitted-date>", decoded on the
// last '@'; a name may not contain '@'; "<name>@unknown" is the key of an
// entry whose frontmatter records no admitted date. "sweep" and "ledger" are
// reserved for the sweep's own records. A bare name is never an identity: a
// lesson removed re-earns its place under the same slug, and a name-keyed
// check would answer a question about the second life with a fact about the
// first.
//
// # Folds
//
// Ledger: the effective record per (identity, disposition) is its latest
// row, where status only advances (proposed < executed < reconciled). An
// exit is in force when its effective record is executed or reconciled and
// no later executed (or reconciled) restore of the same life undoes it. Use
// ReadLedger and (*Ledger).ExitInForce.
//
// Slate: the current row per (identity, track) is the one with the latest
// date, a same-date row later in the file replacing an earlier one. Use
// ReadSlate and (*Slate).Current.
//
// The grammar and the messages are those of the reference sweep scripts,
// reproduced exactly because stores swap memcompact in for them.
package records

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/textfile"
)

// The opening markers of the two record regions.
const (
	LedgerMarker = "<!-- memory-ledger-begin -->"
	SlateMarker  = "<!-- memory-slate-begin -->"
)

// Region states.
const (
	StateAbsent     = "absent"     // no such regular file
	StateUnmarked   = "unmarked"   // a file without a marker line: nothing read
	StateDuplicated = "duplicated" // two or more marker lines: nothing read
	StatePresent    = "present"    // exactly one marker: the lines after it are records
)

// Unknown is the admitted part of a life key whose entry records no
// admitted date.
const Unknown = "unknown"

// ReservedNames are the entry names kept for the sweep's own records
// (sweep@<date>, ledger@<date>); no entry may use them.
var ReservedNames = []string{"sweep", "ledger"}

// IsReservedName reports whether name is one of ReservedNames (exact case).
func IsReservedName(name string) bool { return name == "sweep" || name == "ledger" }

// Line is one record line of a region.
type Line struct {
	Num  int    // record number: 1, 2, … in file order, skipped lines not counted
	Line int    // 1-based line of the file
	Text string // the line as written (untrimmed)
}

// Region is the record region of one file.
type Region struct {
	Path    string // as given
	State   string // one of the State constants
	Markers int    // number of marker lines found
	Why     string // for unmarked and duplicated: what is wrong, in the reference's words
	Lines   []Line // the record lines (only when State is present)
}

// ErrUnreadable wraps the error of a record file that exists but could not
// be read (permissions, size). A reader must refuse rather than decide on a
// record it could not fully read, so this is distinct from an absent file.
var ErrUnreadable = errors.New("record file could not be read")

// ReadRegion reads path and finds its region. A path that is not a regular
// file (missing, or a directory) is absent, as in the reference; a regular
// file that cannot be read returns an error wrapping ErrUnreadable.
func ReadRegion(path, marker string) (*Region, error) {
	f, err := textfile.Read(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, textfile.ErrNotRegular) {
			return &Region{Path: path, State: StateAbsent, Why: fmt.Sprintf("no file at '%s'", path)}, nil
		}
		return nil, fmt.Errorf("%w: %w", ErrUnreadable, err)
	}
	return ParseRegion(path, f.Text, marker), nil
}

// ParseRegion finds the region of marker in decoded text (see textfile).
func ParseRegion(path, text, marker string) *Region {
	r := &Region{Path: path}
	lines := textfile.Lines(text)
	at := -1
	for i, l := range lines {
		if trim(l) == marker {
			r.Markers++
			if at < 0 {
				at = i
			}
		}
	}
	switch {
	case r.Markers == 0:
		r.State = StateUnmarked
		r.Why = fmt.Sprintf("no '%s' in '%s'", marker, path)
		return r
	case r.Markers > 1:
		r.State = StateDuplicated
		r.Why = fmt.Sprintf("'%s' carries %d '%s' markers; which region governs has no answer, so no record in this file is read", path, r.Markers, marker)
		return r
	}
	r.State = StatePresent
	n := 0
	for i := at + 1; i < len(lines); i++ {
		t := trim(lines[i])
		if t == "" || (strings.HasPrefix(t, "<!--") && strings.HasSuffix(t, "-->")) {
			continue
		}
		n++
		r.Lines = append(r.Lines, Line{Num: n, Line: i + 1, Text: lines[i]})
	}
	return r
}

// trim is the reference's Trim: Unicode whitespace off both ends.
func trim(s string) string { return index.TrimSpace(s) }

// splitFields splits a record line on every '|' and trims each field. No
// escape is honoured: a pipe inside a field is a wrong field count, reported,
// rather than a fragment silently shifted into the next field.
func splitFields(line string) []string {
	f := strings.Split(line, "|")
	for i := range f {
		f[i] = trim(f[i])
	}
	return f
}
