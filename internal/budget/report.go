package budget

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/memcompact/memcompact/internal/textfile"
)

// The structs in this file are memcompact's JSON output for budgets (and
// the budget part of init's); field names are a stable protocol.

// SchemaVersion is the version of the JSON written by the budget verbs.
const SchemaVersion = 1

// Status values.
const (
	StatusOK      = "OK"
	StatusOver    = "OVER"
	StatusMissing = "MISSING"
	StatusError   = "ERROR"
)

// FileStatus is one budgeted file measured against its budget.
type FileStatus struct {
	File    string `json:"file"`    // root-relative path
	Size    int    `json:"size"`    // in Unit
	Budget  int    `json:"budget"`  // in Unit
	Unit    Unit   `json:"unit"`    // "lines" or "chars"
	Status  string `json:"status"`  // OK, OVER, MISSING or ERROR
	Pattern string `json:"pattern"` // the policy row's File cell
	RowLine int    `json:"row_line"`
	Newest  int    `json:"newest"`          // entries kept verbatim
	Error   string `json:"error,omitempty"` // why the file could not be measured
}

// Report is the budgets report of a root.
type Report struct {
	SchemaVersion int          `json:"schema_version"`
	Root          string       `json:"root"`
	Policy        string       `json:"policy"`
	Files         []FileStatus `json:"files"`
	Unmatched     []string     `json:"unmatched_globs"` // glob rows that match no file
	Over          int          `json:"over"`
	Errors        int          `json:"errors"`
}

// Check measures every budgeted file of root against p.
func Check(root string, p *Policy) *Report {
	rep := &Report{SchemaVersion: SchemaVersion, Root: root, Policy: PolicyRel, Files: []FileStatus{}, Unmatched: []string{}}
	files, unmatched := p.Files(root)
	for _, u := range unmatched {
		rep.Unmatched = append(rep.Unmatched, u.Pattern)
	}
	for _, f := range files {
		s := FileStatus{File: f.Rel, Budget: f.Row.Budget, Unit: f.Row.Unit, Pattern: f.Row.Pattern, RowLine: f.Row.Line, Newest: f.Row.Newest}
		tf, err := textfile.Read(filepath.Join(root, filepath.FromSlash(f.Rel)))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			s.Status = StatusMissing
		case err != nil:
			s.Status, s.Error = StatusError, err.Error()
			rep.Errors++
		default:
			s.Size = Measure(tf.Text, f.Row.Unit)
			s.Status = StatusOK
			if s.Size > s.Budget {
				s.Status = StatusOver
				rep.Over++
			}
		}
		rep.Files = append(rep.Files, s)
	}
	return rep
}

// Text renders the report, one line per file:
//
//	main/main-memory.md: 312/500 lines (OK)
func (r *Report) Text() string {
	var b strings.Builder
	for _, f := range r.Files {
		switch f.Status {
		case StatusMissing:
			fmt.Fprintf(&b, "%s: missing (budget %d %s)\n", f.File, f.Budget, f.Unit)
		case StatusError:
			fmt.Fprintf(&b, "%s: cannot be measured: %s (budget %d %s)\n", f.File, f.Error, f.Budget, f.Unit)
		default:
			fmt.Fprintf(&b, "%s: %d/%d %s (%s)\n", f.File, f.Size, f.Budget, f.Unit, f.Status)
		}
	}
	for _, u := range r.Unmatched {
		fmt.Fprintf(&b, "%s: no matching files\n", u)
	}
	measured := 0
	for _, f := range r.Files {
		if f.Status == StatusOK || f.Status == StatusOver {
			measured++
		}
	}
	switch {
	case r.Over > 0:
		fmt.Fprintf(&b, "%d of %d budgeted files over budget; run 'memcompact compact' to bring them back.\n", r.Over, measured)
	case measured == 0:
		fmt.Fprintf(&b, "No budgeted file exists yet.\n")
	default:
		fmt.Fprintf(&b, "Every budgeted file (%d) is within budget.\n", measured)
	}
	return b.String()
}
