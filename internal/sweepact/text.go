package sweepact

import (
	"fmt"
	"io"
	"strings"
)

// WriteText prints an apply that acted: each act, the counts, the
// snapshot and inventory written, the figures before and after, and the
// partition of the store after.
func (r *ApplyResult) WriteText(w io.Writer) {
	r.writeActs(w)
	fmt.Fprintf(w, "%d act(s) taken, each recorded first; %d assessment(s) appended; %d life key(s) bound\n", len(r.Acts), r.Assessed, len(r.Bound))
	fmt.Fprintf(w, "snapshot: %s\ninventory: %s\n", r.Snapshot, r.Artifact)
	fmt.Fprintf(w, "before: %d lines, %d units, %d of %d subjects load\n", r.Before.Lines, r.Before.Units, r.Before.SubjectsLoaded, r.Before.SubjectsTotal)
	fmt.Fprintf(w, "after:  %d lines, %d units, %d of %d subjects load%s\n", r.After.Lines, r.After.Units, r.After.SubjectsLoaded, r.After.SubjectsTotal, loadsWord(r.After.Cut))
	fmt.Fprintln(w, strings.Join(r.Partition.Lines(), "\n"))
	r.writeHeld(w)
	if r.LedgerRepaired > 0 {
		fmt.Fprintf(w, "ledger: %d record(s) of this sweep were gone from LEDGER.md (another writer replaced it during the sweep) and were appended again\n", r.LedgerRepaired)
	}
	switch r.ExitCode() {
	case 0:
		fmt.Fprintln(w, "swept: every subject accounted for")
	default:
		fmt.Fprintln(w, "swept, with findings: the subjects named above stay as they are; nothing was lost")
	}
}

// writeHeld prints each promotion not taken and why: the subject stays.
func (r *ApplyResult) writeHeld(w io.Writer) {
	for _, h := range r.Held {
		fmt.Fprintf(w, "held: promote %s stays in the index — %s (landing row appended to the slate)\n", h.Identity, h.Why)
	}
}

// WriteDryRunText prints an apply's dry run: each act that passed its
// gates and the figures the store would have after them.
func (r *ApplyResult) WriteDryRunText(w io.Writer) {
	r.writeActs(w)
	for _, h := range r.Held {
		fmt.Fprintf(w, "would hold: promote %s — %s\n", h.Identity, h.Why)
	}
	fmt.Fprintf(w, "dry run: %d act(s) pass their gates; after: %d lines, %d units, %d of %d subjects load%s; nothing written\n",
		len(r.Acts), r.After.Lines, r.After.Units, r.After.SubjectsLoaded, r.After.SubjectsTotal, loadsWord(r.After.Cut))
}

// WriteRefusalsText prints the acts a refused apply refused, one a line.
func (r *ApplyResult) WriteRefusalsText(w io.Writer) {
	for _, rf := range r.Refusals {
		fmt.Fprintf(w, "refused: %s %s — %s\n", rf.Disposition, rf.Identity, rf.Detail)
	}
}

func (r *ApplyResult) writeActs(w io.Writer) {
	for _, a := range r.Acts {
		fmt.Fprintf(w, "  %-20s %s\n", a.Disposition, a.Identity)
	}
}

func loadsWord(cut bool) string {
	if cut {
		return " (cut at session start)"
	}
	return " (loads whole)"
}

// WriteText prints a restore: the entry put back, where, and the body
// file moved back, if any.
func (res *RestoreResult) WriteText(w io.Writer) {
	fmt.Fprintf(w, "restored %s (undoing its %s) at line %d: %s\n", res.Identity, res.Disposition, res.Line, res.Pointer)
	if res.More > 0 {
		fmt.Fprintf(w, "and %d more pointer line(s) of it, each where it was\n", res.More)
	}
	if res.BodyFrom != "" {
		fmt.Fprintf(w, "body moved back from %s\n", res.BodyFrom)
	}
}

// WriteText prints how many decisions a review saved to the plan at path
// and how many are still pending.
func (res *ReviewResult) WriteText(w io.Writer, path string) {
	fmt.Fprintf(w, "%d decision(s) saved to %s; %d still pending\n", res.Decided, path, res.Pending)
}

// WriteText prints an admission: the pointer line written and where, and
// the slate's critical row when one was appended.
func (res *AdmitResult) WriteText(w io.Writer) {
	fmt.Fprintf(w, "admitted %s at line %d: %s\n", res.Identity, res.Line, res.Pointer)
	if res.Critical != "" {
		fmt.Fprintf(w, "critical: %s (slate row appended)\n", res.Critical)
	}
}

// WriteText prints an adoption: the diff, then either what was written
// and the snapshot taken, or that nothing was written without --yes.
func (res *AdoptResult) WriteText(w io.Writer) {
	fmt.Fprint(w, res.Diff)
	if !res.Written {
		fmt.Fprintln(w, "\nnothing written; run again with --yes to adopt")
		return
	}
	fmt.Fprintf(w, "\nadopted: %s and %s written; snapshot %s\n", res.Index, res.Policy, res.Snapshot)
}
