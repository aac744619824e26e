package compact

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/memcompact/memcompact/internal/distill"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/snapshot"
	"github.com/memcompact/memcompact/internal/textfile"
)

// WriteText prints the line that closes a run with nothing to compact:
// no budgeted file exists yet, or (when no FILE was named) every one is
// within budget. Each file's own text is its Report's, printed as the run
// goes; otherwise WriteText prints nothing.
func (res *Result) WriteText(w io.Writer, named bool) {
	if len(res.Files) == 0 {
		fmt.Fprintln(w, "No budgeted file exists yet; nothing to compact.")
	} else if !named && res.Outcome == outcome.Clean && allWithin(res.Files) {
		fmt.Fprintln(w, "Every budgeted file is within budget; nothing to compact.")
	}
}

func allWithin(rs []*Report) bool {
	for _, r := range rs {
		if r.Status != StatusWithin {
			return false
		}
	}
	return true
}

// WriteText prints the outcome of a compaction that ran (compacted,
// aborted, shortfall): the report's message, what the summary would have
// lost or misplaced, and what the compaction kept that a summary would
// have lost. A face prints its hints after it, then WriteDryRunText.
func (r *Report) WriteText(w io.Writer) {
	if r.FellBack != "" {
		fmt.Fprintf(w, "The built-in summarizer wrote the block instead (--fallback builtin): %s\n", r.FellBack)
	}
	fmt.Fprintln(w, r.Message)
	for _, f := range r.Missing {
		fmt.Fprintf(w, "  would lose (line %d, %s): %s\n", f.Line, f.Kind, f.Text)
	}
	for _, s := range r.LostKeep {
		fmt.Fprintf(w, "  would leave the file (must keep): %s\n", s)
	}
	for _, s := range r.Misplaced {
		fmt.Fprintf(w, "  under the wrong parent: %s\n", s)
	}
	for _, s := range r.Unfaithful {
		fmt.Fprintf(w, "  not what the entries say: %s\n", s)
	}
	if r.Status == StatusCompacted {
		for _, s := range r.DeclaredDropped {
			fmt.Fprintf(w, "  declared dropped by the summary (text in %s): %s\n", r.Snapshot, s)
		}
	}
	for _, s := range r.SecretInBlock {
		fmt.Fprintf(w, "  secret in the summary: %s\n", s)
	}
	r.writeFacts(w)
	r.writeKept(w)
	r.writePruned(w)
}

// writePruned prints what the retention rule pruned of the file's
// snapshots, and why it pruned nothing when it could not judge.
func (r *Report) writePruned(w io.Writer) {
	p := r.Pruned
	switch {
	case p == nil:
		return
	case len(p.Removed) > 0:
		fmt.Fprintf(w, "  pruned %s of %s (%s bytes on disk): %s; %d kept, %d of them named by a history block or catalogue\n",
			textfile.Count(len(p.Removed), "old snapshot"), r.File, textfile.N0(int(p.Bytes)), strings.Join(p.Removed, ", "), p.Kept, p.Named)
	case p.Skipped != "":
		fmt.Fprintf(w, "  no snapshot was pruned: %s\n", p.Skipped)
	}
	if p.OverCap {
		fmt.Fprintf(w, "  the snapshots of %s take %s bytes, past the %s-byte cap, because a block or catalogue names them\n",
			r.File, textfile.N0(int(p.Stored)), textfile.N0(int(snapshot.DefaultRetention.CapBytes)))
	}
}

// writeFacts prints the statements the built-in summarizer kept in the
// live file and dropped from it, by kind, and where the dropped ones are.
func (r *Report) writeFacts(w io.Writer) {
	if r.FactsKept == nil && r.FactsDropped == nil || r.Status != StatusCompacted {
		return // a shortfall's best attempt was not written: nothing was kept or dropped
	}
	line := func(m map[string]int) string {
		var parts []string
		for _, k := range distill.StatKinds {
			if m[k] > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", m[k], k))
			}
		}
		if len(parts) == 0 {
			return "none"
		}
		return strings.Join(parts, ", ")
	}
	fmt.Fprintf(w, "  statements kept in the file: %s\n", line(r.FactsKept.byKind()))
	where := "the snapshot"
	if r.Snapshot != "" {
		where = r.Snapshot
	}
	fmt.Fprintf(w, "  statements dropped (their text is in %s): %s\n", where, line(r.FactsDropped.byKind()))
}

// WriteDryRunText prints what a dry run adds to WriteText: the facts that
// would live only in the snapshot, and the history block a compaction
// would write.
func (r *Report) WriteDryRunText(w io.Writer) {
	if len(r.SnapshotOnly) > 0 {
		fmt.Fprintf(w, "Facts that would live only in the snapshot (%d):\n", len(r.SnapshotOnly))
		for _, f := range r.SnapshotOnly {
			fmt.Fprintf(w, "  - %s (line %d): %s\n", f.Kind, f.Line, f.Text)
		}
	}
	if r.Status == StatusCompacted {
		fmt.Fprintf(w, "Dry run: nothing was written. The history block would be:\n%s", r.Block)
	}
}

// writeKept says what a compaction kept that a summary would have lost:
// the secret entries left in place, the lines a model summary missed, the
// mid tier's light summary.
func (r *Report) writeKept(w io.Writer) {
	if len(r.Secrets) > 0 {
		fmt.Fprintf(w, "Kept %d secret %s verbatim in place (never summarized):", len(r.Secrets), textfile.Plural(len(r.Secrets), "entry", "entries"))
		for i, s := range r.Secrets {
			sep := ","
			if i == 0 {
				sep = ""
			}
			fmt.Fprintf(w, "%s line %d %q", sep, s.Line, s.Title)
		}
		fmt.Fprintln(w)
	}
	if m := r.Model; m != nil && m.Repaired && r.Status != StatusAborted {
		switch {
		case len(m.Appended) == 0 && slices.Contains(m.RepairedFor, "missing"):
			fmt.Fprintf(w, "The summary missed what must stay; one repair round brought it back.\n")
		case len(m.Appended) == 0:
			fmt.Fprintf(w, "The summary was sent back once (%s); its second answer was used.\n", repairWords(m.RepairedFor))
		default:
			fmt.Fprintf(w, "The summary missed what must stay even after one repair round; %d %s appended verbatim:\n", len(m.Appended), textfile.Plural(len(m.Appended), "line was", "lines were"))
			for _, l := range m.Appended {
				fmt.Fprintf(w, "  + %s\n", l)
			}
		}
	}
	if r.MidLightened && r.Status == StatusCompacted {
		fmt.Fprintf(w, "The mid tier was lightly summarized: %d duplicate or filler lines removed.\n", r.MidRemoved)
	}
}

// repairWords says what a repair round asked for.
func repairWords(kinds []string) string {
	words := map[string]string{"too-long": "too long for the budget", "misplaced": "statements under the wrong parent", "missing": "lines that must stay were missing"}
	var out []string
	for _, k := range kinds {
		out = append(out, words[k])
	}
	return strings.Join(out, "; ")
}

// WritePlanText prints a planned compaction (--plan): the tiers, the
// secret entries never shown, what must stay, the tier's facts, and
// either what a summarizer would be sent or the rules and text of the
// oldest tier to summarize by hand.
func (r *Report) WritePlanText(w io.Writer) {
	fmt.Fprintf(w, "Plan for %s (%d/%d %s; entries found by %s)\n", r.File, r.SizeBefore, r.Budget, r.Unit, r.Mode)
	tier := func(entries, lines int) string {
		return fmt.Sprintf("%d %s (%d lines)", entries, textfile.Plural(entries, "entry", "entries"), lines)
	}
	fmt.Fprintf(w, "Oldest tier: %s; mid tier: %s; newest tier: %s, kept verbatim.\n",
		tier(r.Oldest.Entries, r.Oldest.Lines), tier(r.Mid.Entries, r.Mid.Lines), tier(r.Newest.Entries, r.Newest.Lines))
	for _, s := range r.Secrets {
		fmt.Fprintf(w, "Not shown, never summarized: the secret entry at line %d %q (%s).\n", s.Line, s.Title, s.Reason)
	}
	fmt.Fprintf(w, "Statements that must stay in the file, word for word (%d):\n", len(r.MustKeep))
	for _, s := range r.MustKeep {
		fmt.Fprintf(w, "  - %s\n", s)
	}
	fmt.Fprintf(w, "Facts of the tier (%d); one the summary leaves out stays only in the snapshot:\n", len(r.Facts))
	for _, f := range r.Facts {
		fmt.Fprintf(w, "  - %s (line %d): %s\n", f.Kind, f.Line, f.Text)
	}
	if r.Preview != "" {
		fmt.Fprintf(w, "Nothing was sent. With --summarizer, this is what would be sent:\n%s----- end -----\n", r.Preview)
		return
	}
	fmt.Fprintf(w, "Write one bullet per entry (its date, its title, its decisions, preferences, corrections, rules and results) to a file, then run:\n  memcompact compact %s --summary FILE --yes\n", r.File)
	fmt.Fprintf(w, "----- rules for the bullets (every summarizer gets them) -----\n%s\n", r.Prompt)
	fmt.Fprintf(w, "----- oldest tier -----\n%s----- end -----\n", r.TierText)
}

// WriteShortfallHints prints what can still bring a file within budget
// after a shortfall: the changes the compaction verified (by planning
// again with them) before suggesting them, as commands to paste.
//
// file is the file as a FILE argument from where compact was run, quoted
// for a shell; root the " --root DIR" flag as given (or ""). Without a
// verified change, the hint raises the budget to the file's size now,
// which brings it within budget by itself.
func (r *Report) WriteShortfallHints(w io.Writer, file, root string) {
	hinted := false
	if r.SuggestNewest != nil {
		fmt.Fprintf(w, "  hint: keep fewer entries verbatim: memcompact set-budget %s %d %s --newest %d%s && memcompact compact %s%s --yes\n", file, r.Budget, r.Unit, *r.SuggestNewest, root, file, root)
		hinted = true
	}
	if r.SuggestBudget > 0 {
		fmt.Fprintf(w, "  hint: or raise the budget: memcompact set-budget %s %d %s%s && memcompact compact %s%s --yes\n", file, r.SuggestBudget, r.Unit, root, file, root)
		hinted = true
	}
	if !hinted {
		fmt.Fprintf(w, "  hint: raise the budget to the file's size now: memcompact set-budget %s %d %s%s\n", file, r.SizeBefore, r.Unit, root)
	}
	if r.Model != nil {
		fmt.Fprintf(w, "  hint: or let the built-in summarizer write the block (it fits what it writes to the budget): memcompact compact %s%s --summarizer builtin --yes\n", file, root)
	}
}

// SecretRefusal is the error and the hint of a save refused because the
// entry holds a secret (ok false for any other result), for the face to
// say: args is FILE (and --root DIR) as given and unsaved the kept entry's
// path from there, both quoted for a shell.
func (res *SaveResult) SecretRefusal(args, unsaved string) (msg, hint string, ok bool) {
	if res.Status != StatusNotSaved || res.Reason != ReasonEntrySecret || len(res.Secrets) == 0 {
		return "", "", false
	}
	s := res.Secrets[0]
	msg = fmt.Sprintf("the entry holds a secret (line %d, %s: %s), so it was not saved into %s; its text is in %s, readable only by you", s.Line, s.Rule, s.Excerpt, res.File, unsaved)
	hint = fmt.Sprintf("leave the value out (say where it lives instead) and save again, or save it as it is: memcompact save %s --entry %s --allow-secret", args, unsaved)
	return msg, hint, true
}

// WriteText prints where a save put the entry, and its hints, each a
// command that works when pasted where save was run: args is FILE (and
// --root DIR) as given and unsaved the kept entry's path from there, both
// quoted for a shell. A refusal for a secret prints nothing here: it is
// the face's to say (SecretRefusal).
func (res *SaveResult) WriteText(w io.Writer, args, unsaved string) {
	switch {
	case res.Status == StatusNotSaved && res.Reason == ReasonEntrySecret:
	case res.Status == StatusNotSaved:
		fmt.Fprintf(w, "The entry was not saved into %s, which changed while it was being compacted; its text is in %s.\n", res.File, unsaved)
		fmt.Fprintf(w, "  hint: save it again: memcompact save %s --entry %s\n", args, unsaved)
	case res.Status == StatusSavedOverBudget:
		fmt.Fprintf(w, "Saved the entry to %s: now %d/%d %s, over budget.\n", res.File, res.Size, res.Budget, res.Unit)
		res.writeNext(w, args)
	case !res.Budgeted:
		fmt.Fprintf(w, "Saved the entry to %s (not in the compaction policy, so no budget applies).\n", res.File)
	case res.Status == StatusSaved && res.Size > res.Budget:
		fmt.Fprintf(w, "Saved the entry to %s: now %d/%d %s. It is now over budget; the next save compacts it first.\n", res.File, res.Size, res.Budget, res.Unit)
	default:
		fmt.Fprintf(w, "Saved the entry to %s: now %d/%d %s.\n", res.File, res.Size, res.Budget, res.Unit)
	}
}

// writeNext prints what would bring a file saved over budget within it.
func (res *SaveResult) writeNext(w io.Writer, args string) {
	n := res.Next
	if n == nil {
		return
	}
	compactIt := fmt.Sprintf("memcompact compact %s --summarizer builtin --yes", args)
	if n.Compacts {
		fmt.Fprintf(w, "  hint: compact it now: %s\n", compactIt)
	}
	if n.SuggestNewest != nil {
		fmt.Fprintf(w, "  hint: keep fewer entries verbatim: memcompact set-budget %s %d %s --newest %d && %s\n", args, res.Budget, res.Unit, *n.SuggestNewest, compactIt)
	}
	if n.SuggestBudget > 0 {
		fmt.Fprintf(w, "  hint: or raise the budget: memcompact set-budget %s %d %s && %s\n", args, n.SuggestBudget, res.Unit, compactIt)
	}
}
