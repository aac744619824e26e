package journal

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/memcompact/memcompact/internal/shellword"
)

// WriteText prints what 'journal' recorded: the snapshot taken (or the
// one the store is unchanged since), and each file listed without its
// bytes because it matched a secret rule.
func (r *SnapshotResult) WriteText(w io.Writer) {
	state := "recorded"
	if r.Unchanged {
		state = "unchanged since"
	}
	fmt.Fprintf(w, "%s snapshot %s of %s (%d files)\n", state, r.Manifest.ID, r.Store, len(r.Manifest.Files))
	for _, f := range r.Withheld {
		fmt.Fprintf(w, "  withheld %s (%s): listed, its bytes not kept\n", f.Path, f.Withheld)
	}
}

// WriteText prints the 'journal prune' summary: what was kept, what was
// (or, on a dry run, would be) removed, and the bytes freed and kept.
func (r *PruneResult) WriteText(w io.Writer) {
	verb := "removed"
	if r.DryRun {
		verb = "would remove"
	}
	fmt.Fprintf(w, "journal %s: kept %d snapshot(s); %s %d snapshot(s) and %d object(s), %d bytes; %d bytes kept\n",
		r.Journal, r.Kept, verb, len(r.Removed), r.ObjectsRemoved, r.BytesFreed, r.BytesKept)
}

// WriteText prints the history as 'memcompact history' shows it: one
// block per step with changes (in local time), then the warnings with
// the undo each one suggests.
func (r *HistoryResult) WriteText(w io.Writer) {
	fmt.Fprintf(w, "history of %s: %d snapshot(s), %d with changes\n", r.Store, r.Snapshots, len(r.Steps))
	for _, n := range r.Unread {
		fmt.Fprintf(w, "  (snapshot file %s could not be read and was skipped)\n", n)
	}
	for _, n := range r.UnreadPacks {
		fmt.Fprintf(w, "  (pack %s: nothing could be read from it; an undo that needs it says which files it could not restore)\n", n)
	}
	for _, st := range r.Steps {
		t, _ := time.Parse(time.RFC3339, st.Time)
		fmt.Fprintf(w, "\n%s  %s  (snapshot %s)\n", t.Local().Format("2006-01-02 15:04:05"), st.Cause, st.To)
		for _, c := range st.Changes {
			switch c.Kind {
			case "renamed":
				fmt.Fprintf(w, "  renamed  %s → %s\n", shown(c.From), shown(c.Path))
			case "changed":
				fmt.Fprintf(w, "  changed  %s (%d → %d bytes)\n", shown(c.Path), c.Before, c.After)
			case "removed":
				fmt.Fprintf(w, "  removed  %s (%d bytes)\n", shown(c.Path), c.Before)
			default:
				fmt.Fprintf(w, "  added    %s (%d bytes)\n", shown(c.Path), c.After)
			}
		}
		for _, p := range st.Dropped {
			fmt.Fprintf(w, "  MEMORY.md dropped line %d: %s\n", p.Line, p.Text)
		}
		for _, p := range st.Added {
			fmt.Fprintf(w, "  MEMORY.md added line %d: %s\n", p.Line, p.Text)
		}
		for _, r := range st.Reworded {
			what := "reworded the hook of"
			if r.Stripped {
				what = "stripped the hook of"
			}
			fmt.Fprintf(w, "  MEMORY.md %s %s: %s → %s\n", what, r.Target, r.Before, r.After)
		}
	}
	if len(r.Unprotected) > 0 {
		fmt.Fprintf(w, "\nunprotected: %s\n", UnprotectedNote(r.Unprotected))
	}
	if len(r.Warnings) == 0 {
		return
	}
	fmt.Fprintf(w, "\nwarnings:\n")
	for _, wn := range r.Warnings {
		fmt.Fprintf(w, "- %s (snapshot %s): %s\n", wn.Kind, wn.Snapshot, wn.Message)
		switch {
		case wn.Undo == "":
			fmt.Fprintf(w, "  undo: none (the journal does not hold the bytes)\n")
		case wn.UndoAll != "":
			fmt.Fprintf(w, "  undo (the removed entries and their pointers): %s\n  undo (the whole store as it was before, every other change of that step too): %s\n", wn.Undo, wn.UndoAll)
		default:
			fmt.Fprintf(w, "  undo: %s\n", wn.Undo)
		}
	}
}

// WritePlanText prints the undo's plan, the text shown before asking
// whether to apply it: each file restored or removed, each pointer line
// the index gets back, and what cannot be undone.
func (r *UndoResult) WritePlanText(w io.Writer) {
	p := r.Plan
	fmt.Fprintf(w, "%s:\n", p.title())
	for _, a := range p.Actions {
		switch a.Kind {
		case "delete":
			fmt.Fprintf(w, "  remove   %s (%d bytes; it did not exist then)\n", shown(a.Path), a.Before)
		case "reindex":
			for _, l := range a.Lines {
				fmt.Fprintf(w, "  MEMORY.md gets back: %s\n", l)
			}
		default:
			fmt.Fprintf(w, "  restore  %s (%d → %d bytes)\n", shown(a.Path), a.Before, a.After)
		}
	}
	for _, s := range p.Skipped {
		fmt.Fprintf(w, "  cannot   %s\n", s)
	}
}

// WriteText prints the line after an applied undo: how many files it
// wrote and the command that undoes it. It prints nothing unless the
// store was changed.
func (r *UndoResult) WriteText(w io.Writer) {
	if r.Status == "undone" || r.Status == "partly-undone" {
		fmt.Fprintf(w, "undone: %d file(s) written. To undo this: %s\n", len(r.Plan.Actions),
			shellword.Join([]string{"memcompact", "undo", "--to", r.Safety, "--store", r.Store}))
	}
}

// title is the first line of the plan's preview, in the words of the mode
// the user asked for.
func (p *UndoPlan) title() string {
	switch p.Mode {
	case "removed-since":
		return fmt.Sprintf("bring back the entries removed since snapshot %s, with their pointers", p.Snapshot)
	case "entry":
		return fmt.Sprintf("bring back %s as snapshot %s had it, with its pointers", p.Target, p.Snapshot)
	case "file":
		return fmt.Sprintf("bring back %s as snapshot %s had it", p.Target, p.Snapshot)
	}
	return fmt.Sprintf("bring the whole store back to snapshot %s", p.Snapshot)
}

// shown is a store path as a line of text prints it: quoted, escapes and
// all, when it holds a control character (a newline in a file name would
// otherwise forge a line of the output).
func shown(p string) string {
	if strings.ContainsFunc(p, unicode.IsControl) {
		return strconv.Quote(p)
	}
	return p
}
