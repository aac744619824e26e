package loadcut

import (
	"fmt"
	"io"
	"strings"

	"github.com/memcompact/memcompact/internal/textfile"
)

// WriteText prints the outcome as the load verb's text report, and the
// loaded text after it when the request asked for it.
func (o *Outcome) WriteText(out io.Writer) error {
	w := &errWriter{w: out}
	indexPath, r := o.Index, o.Result
	if r.MemoryOff != "" {
		fmt.Fprintf(w, "RESULT: memory is off: Claude Code loads no memory here (%s)\n", r.MemoryOff)
	} else if r.IndexSkipped != "" {
		fmt.Fprintf(w, "RESULT: memory stores mounted: this MEMORY.md does not load (%s)\n", r.IndexSkipped)
		if o.Store != nil {
			for _, m := range o.Store.MemoryStores {
				fmt.Fprintf(w, "store %s (%s, %s): %s: %s\n", m.Mount, m.Scope, m.Mode, m.Dir, m.Gives)
			}
			if o.Store.MemoryStoresError != "" {
				fmt.Fprintf(w, "store: none mounted: Claude Code rejects the value (%s)\n", o.Store.MemoryStoresError)
			}
		}
	} else if r.Cut {
		fmt.Fprintln(w, "RESULT: cut")
	} else if r.Lost() {
		fmt.Fprintln(w, "RESULT: entries hidden")
	} else {
		fmt.Fprintln(w, "RESULT: loads whole")
	}
	over := func(b bool) string {
		if b {
			return " - OVER"
		}
		return ""
	}
	fmt.Fprintf(w, "index: %s\n", indexPath)
	if r.FileLines > 0 {
		var removed []string
		if r.FrontmatterLines > 0 {
			removed = append(removed, fmt.Sprintf("frontmatter (%d lines)", r.FrontmatterLines))
		}
		if r.CommentLines > 0 {
			removed = append(removed, fmt.Sprintf("block comments (%d lines)", r.CommentLines))
		}
		fmt.Fprintf(w, "file: %s lines, %s units; Claude Code removes %s and counts the rest\n",
			textfile.N0(r.FileLines), textfile.N0(r.FileUnits), strings.Join(removed, " and "))
	}
	fmt.Fprintf(w, "lines: %s of %s loaded (limit %s)%s\n", textfile.N0(r.LinesLoaded), textfile.N0(r.LinesTotal), textfile.N0(r.LineLimit), over(r.LinesOver))
	fmt.Fprintf(w, "units: %s of %s loaded (limit %s UTF-16 code units)%s\n", textfile.N0(r.UnitsCounted()), textfile.N0(r.UnitsTotal), textfile.N0(r.UnitLimit), over(r.UnitsOver))
	if r.CRLFFolded > 0 {
		fmt.Fprintf(w, "line ends: the limit counts the CR of each CRLF; Claude Code then turns CRLF into LF, so the session receives %s units\n", textfile.N0(r.UnitsLoaded))
	}
	switch {
	case r.MemoryOff != "":
		fmt.Fprintln(w, "off: none of the index loads, whatever its size; the limits below would apply with memory on")
	case r.IndexSkipped != "":
		fmt.Fprintln(w, "stores: none of the index loads, whatever its size; the limits above apply once $CLAUDE_MEMORY_STORES is unset")
	}
	switch r.Limit {
	case LimitSize:
		fmt.Fprintf(w, "cut: the file is over %s bytes; Claude Code loads none of it\n", textfile.N0(MaxBytes))
	case LimitLines:
		fmt.Fprintf(w, "cut: the line limit ends the load; from line %d on, nothing is loaded\n", r.FirstCutLine)
	case LimitUnits:
		fmt.Fprintf(w, "cut: the unit limit ends the load at the last line break before unit %s; from line %d on, nothing is loaded\n", textfile.N0(r.UnitLimit), r.FirstCutLine)
	}
	if r.Escaped > 0 {
		fmt.Fprintf(w, `escaped: Claude Code writes %d tag opener(s) as "<\" (<system-reminder> as <\system-reminder>), so memory cannot pass for its own messages`+"\n", r.Escaped)
	}
	if len(r.Hidden) > 0 {
		fmt.Fprintf(w, "subjects hidden before any limit: %d of %d\n", len(r.Hidden), r.SubjectsTotal)
		for _, s := range r.Hidden {
			fmt.Fprintf(w, "  line %-4d %s [%s] (by %s)\n", s.Line, s.Target, s.LinkText, s.By)
		}
	}
	fmt.Fprintf(w, "subjects past the cut: %d of %d\n", len(r.PastCut), r.SubjectsTotal)
	if len(r.PastCut) > 0 {
		fmt.Fprintf(w, "\npast the cut, nearest first:\n")
		for _, s := range r.PastCut {
			fmt.Fprintf(w, "  line %-4d %s [%s]\n", s.Line, s.Target, s.LinkText)
		}
	}
	if o.Store != nil {
		fmt.Fprintf(w, "store: %s\n", o.Store.Describe())
		if o.Store.IndexContent != nil {
			what := "the index text is $" + o.Store.IndexFrom + ", not the file"
			if *o.Store.IndexContent == "" {
				what = "$" + o.Store.IndexFrom + " is set but empty: Claude Code loads no index"
			}
			fmt.Fprintf(w, "  %s\n", what)
		}
		for _, why := range o.Store.Rejected {
			fmt.Fprintf(w, "  ignored: %s\n", why)
		}
	}
	if o.WithText {
		fmt.Fprintf(w, "\nwhat Claude Code loads:\n%s\n", r.Text)
	}
	return w.err
}

// errWriter keeps the first write error, so a report of many lines checks
// it once.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}
