package doctor

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/memcompact/memcompact/internal/textfile"
)

// maxNoteItems bounds each list in the session note: the note is read at
// the start of every session and must stay short.
const maxNoteItems = 5

// SessionNote is the short note a session-start hook gives the agent about
// its store: entries past the load cut, files over budget, subjects without
// a recall hook, unattributed shared notes, secrets. It is "" when there is
// nothing the agent should know.
func SessionNote(r *Report) string { return SessionNoteWith(r, "", nil) }

// SessionNoteWith is SessionNote with the lines first (the journal's:
// a deletion since the last session, files it cannot protect) leading
// the list, for the store dir; r may be nil (no diagnosis).
func SessionNoteWith(r *Report, dir string, first []string) string {
	items := append([]string(nil), first...)
	if r == nil || r.Result != "problems" {
		switch len(items) {
		case 0:
			return ""
		case 1:
			return "memcompact: this project's memory store (" + dir + "): " + items[0]
		}
		return "memcompact: this project's memory store (" + dir + ") needs attention:\n- " + strings.Join(items, "\n- ")
	}
	if r.Load.Cut {
		past := r.Load.PastCut
		item := fmt.Sprintf("MEMORY.md is longer than Claude Code loads (%d lines, %d characters; the limit is %d lines or %d characters): everything from line %d on was NOT loaded into this session",
			r.Load.LinesTotal, r.Load.UnitsTotal, r.Load.LineLimit, r.Load.UnitLimit, r.Load.FirstCutLine)
		if len(past) > 0 {
			names := mostOf(len(past), maxNoteItems, func(i int) string { return fmt.Sprintf("%s (line %d)", past[i].Target, past[i].Line) })
			item += fmt.Sprintf(", including %d entr%s: %s", len(past), textfile.Plural(len(past), "y", "ies"), strings.Join(names, ", "))
		}
		item += fmt.Sprintf(". Read %s from line %d when those may matter, and shorten the index (one short pointer per entry) when you next edit it", r.Index, r.Load.FirstCutLine)
		if a := r.SweepReach; a != nil {
			item += fmt.Sprintf("; or offer the user a sweep: 'memcompact sweep plan %s' proposes one that brings it to %d lines, %d characters, %d of %d subjects loading, every exit recorded and reversible", r.Index, a.Lines, a.Units, a.SubjectsLoaded, a.SubjectsTotal)
		}
		items = append(items, item)
	}
	if r.OverBudget > 0 {
		var names []string
		for _, f := range r.BudgetFiles {
			if f.Status == "OVER" {
				names = append(names, fmt.Sprintf("%s (%d/%d %s)", f.File, f.Size, f.Budget, f.Unit))
			}
		}
		items = append(items, fmt.Sprintf("over budget: %s. Compact before adding to %s ('memcompact compact FILE')", strings.Join(most(names, maxNoteItems), ", "), textfile.Plural(len(names), "it", "them")))
	}
	if r.WithoutHook > 0 {
		names := mostOf(len(r.Hookless), maxNoteItems, func(i int) string {
			w := r.Hookless[i]
			return fmt.Sprintf("[%s](%s) line %d", w.LinkText, w.Target, w.Line)
		})
		items = append(items, fmt.Sprintf("%d pointer%s say%s nothing the filename does not (no recall hook): %s. When you touch them, add after the link what the entry teaches",
			r.WithoutHook, textfile.Plural(r.WithoutHook, "", "s"), textfile.Plural(r.WithoutHook, "s", ""), strings.Join(names, ", ")))
	}
	if r.SharedNotes > 0 {
		names := mostOf(len(r.Notes), maxNoteItems, func(i int) string { return fmt.Sprintf("line %d", r.Notes[i].Line) })
		items = append(items, fmt.Sprintf("%d line%s share one note over several entries (%s): give each entry its own pointer and hook",
			r.SharedNotes, textfile.Plural(r.SharedNotes, "", "s"), strings.Join(names, ", ")))
	}
	if r.Secrets > 0 {
		var names []string
		for _, f := range r.SecretFindings {
			names = append(names, fmt.Sprintf("%s:%d (%s)", filepath.Base(f.File), f.Line, f.Rule))
		}
		items = append(items, fmt.Sprintf("memory holds %d secret%s: %s. Do not repeat them; suggest the user move them out ('memcompact secrets')",
			r.Secrets, textfile.Plural(r.Secrets, "", "s"), strings.Join(most(names, maxNoteItems), ", ")))
	}
	if r.Orphans > 0 || r.Dangling > 0 {
		items = append(items, fmt.Sprintf("drift: %d entry file(s) no pointer names, %d pointer(s) to missing files ('memcompact drift')", r.Orphans, r.Dangling))
	}
	if len(items) == 0 {
		return ""
	}
	return "memcompact: this project's memory store (" + r.Store + ") needs attention:\n- " + strings.Join(items, "\n- ")
}
