package drift

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/memcompact/memcompact/internal/jsonout"
	"github.com/memcompact/memcompact/internal/textfile"
)

// JSONVersion is the version of the drift verb's JSON. It changes only
// when a field changes meaning or goes away.
const JSONVersion = 1

// JSONReport is the drift verb's JSON output. result is "clean" (exit 0)
// or "drift" (exit 1). Arrays are never null.
//
//	{
//	  "version": 1, "result": "drift",
//	  "store": "DIR", "index": "DIR/MEMORY.md", "ledger": "DIR/LEDGER.md",
//	  "entries": 12, "pointers": 14,
//	  "orphans":  [{"file": "x.md", "identity": "x@2026-05-01"}],
//	  "exited":   [{"file": "y.md", "identity": "y@2026-01-05", "exit": "promote", "exit_line": 7}],
//	  "dangling": [{"line": 9, "target": "z.md", "reason": "no such file", "hint": "..."}],
//	  "ledger_problems": 0,
//	  "dangling_links": ["a.md: [[deploy-steps]]"]
//	}
//
// A refusal (exit 2) or usage error (exit 3) is JSONError instead.
type JSONReport struct {
	Version        int        `json:"schema_version"`
	Result         string     `json:"result"`
	Store          string     `json:"store"`
	Index          string     `json:"index"`
	Ledger         string     `json:"ledger"`
	Entries        int        `json:"entries"`
	Pointers       int        `json:"pointers"`
	Orphans        []Orphan   `json:"orphans"`
	Exited         []Orphan   `json:"exited"`
	Dangling       []Dangling `json:"dangling"`
	LedgerProblems int        `json:"ledger_problems"`
	DanglingLinks  []string   `json:"dangling_links"` // [[name]] links to no entry: noted, not drift
}

// JSONError is the JSON of a drift run that gave no verdict: result is
// "refused" (exit 2) or "usage-error" (exit 3).
type JSONError struct {
	Version int    `json:"schema_version"`
	Result  string `json:"result"`
	Reason  string `json:"reason"`
}

// JSON returns the report's JSON form.
func (r *Result) JSON() JSONReport {
	result := "clean"
	if r.Drifted() {
		result = "drift"
	}
	return JSONReport{
		Version: JSONVersion, Result: result,
		Store: r.Store, Index: r.Index, Ledger: r.Ledger,
		Entries: r.Entries, Pointers: r.Pointers,
		Orphans:        jsonout.NonNil(r.Orphans),
		Exited:         jsonout.NonNil(r.Exited),
		Dangling:       jsonout.NonNil(r.Dangling),
		LedgerProblems: r.LedgerProblems,
		DanglingLinks:  jsonout.NonNil(r.DanglingLinks),
	}
}

// WriteJSON writes v (a JSONReport or JSONError) as indented JSON.
func WriteJSON(w io.Writer, v any) error {
	return jsonout.Write(w, v)
}

// WriteText writes the report for a person: one line per finding, each
// with what to do about it, then a summary line.
func (r *Result) WriteText(w io.Writer) error {
	idx := filepath.Base(r.Index)
	var err error
	p := func(format string, a ...any) {
		if err == nil {
			_, err = fmt.Fprintf(w, format, a...)
		}
	}
	p("store: %s (%s, %s)\n", r.Store, textfile.Count(r.Entries, "entry file"), textfile.Count(r.Pointers, "pointer"))
	for _, o := range r.Orphans {
		p("orphan: %s (%s): no pointer names it; add a pointer line to %s, or record its exit in LEDGER.md\n", o.File, o.Identity, idx)
	}
	for _, d := range r.Dangling {
		p("dangling: %s:%d: %s: %s", idx, d.Line, d.Target, d.Reason)
		if d.Hint != "" {
			p(" (%s)", d.Hint)
		}
		p("; restore the file or remove the pointer\n")
	}
	for _, o := range r.Exited {
		p("exited: %s (%s): its %s is in force (LEDGER.md:%d), so it is not drift\n", o.File, o.Identity, o.Exit, o.ExitLine)
	}
	for _, l := range r.DanglingLinks {
		p("link: %s names no entry yet (Claude Code reads it as an entry still to write; not drift)\n", l)
	}
	if r.LedgerProblems > 0 {
		p("note: LEDGER.md has %s that could not be read; an exit recorded there excuses nothing ('memcompact inventory' lists them)\n", textfile.Count(r.LedgerProblems, "problem"))
	}
	if r.Drifted() {
		p("drift: %s, %s\n", textfile.Count(len(r.Orphans), "orphan"), textfile.Count(len(r.Dangling), "dangling pointer"))
	} else {
		p("no drift: every entry file has a pointer and every pointer has its file\n")
	}
	return err
}
