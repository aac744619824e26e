package writeguard

import (
	"fmt"
	"strings"

	"github.com/memcompact/memcompact/internal/loadcut"
	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/sweepact"
	"github.com/memcompact/memcompact/internal/textfile"
)

// Claude Code 2.1.x reminds the agent after any write to MEMORY.md at
// reminderFraction or more of its read limit (bytes or lines, whichever is
// nearer) to rewrite it under targetFraction of that limit now, "merge or
// drop stale entries". The guard blocks the mass rewrite that invites
// (pointers dropped with no exit recorded, entries pushed past the cut),
// so a denial on an index this full names the path that works instead.
const (
	capacityBytes    = loadcut.DefaultUnits // the client's byte limit for MEMORY.md
	reminderFraction = 0.8
	targetFraction   = 0.7
	shownDemotions   = 5
)

// capacityGuidance adds to a denied write on an index at or past Claude
// Code's reminder threshold the way to shrink it that the guard allows:
// the sweep's plan, walked with the owner, and its top proposals by name.
func capacityGuidance(c *change) {
	if !c.verdict.Index || !c.verdict.Deny() {
		return
	}
	frac := func(text string) float64 {
		return max(float64(len(text))/capacityBytes, float64(len(textfile.Lines(text)))/loadcut.DefaultLines)
	}
	if max(frac(c.before), frac(c.after)) < reminderFraction {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Claude Code asks for this index under %.1fKB or %d lines (%d%% of its read limit); a rewrite that drops pointers or pushes entries past the cut is blocked, so shrink it this way instead: "+
		"run the sweep's plan (MCP tool sweep_plan with this index, or 'memcompact sweep plan %s'), walk its proposals with the owner, "+
		"then apply the owner's decisions (MCP tool sweep_apply with confirm: true, or 'memcompact sweep apply'), which records each exit in LEDGER.md and moves the pointer to ARCHIVE.md",
		float64(capacityBytes)*targetFraction/1024, int(loadcut.DefaultLines*targetFraction), int(targetFraction*100), c.verdict.Path)
	if top := topProposals(c); len(top) > 0 {
		fmt.Fprintf(&b, ". The plan's first proposals: %s", strings.Join(top, "; "))
	}
	b.WriteString(". Shortening pointer lines (one short line per entry, detail in the entry file) is always allowed.")
	c.verdict.Guidance = b.String()
}

// topProposals names the sweep plan's first proposals that leave the
// index (demote, promote, remove), largest first; when the plan cannot
// be made, one line that says why.
func topProposals(c *change) []string {
	pl, err := sweepact.RunPlan(sweepact.PlanRequest{Index: c.verdict.Path, AsOf: records.DateOf(c.call.Today), TargetUnits: int(capacityBytes * targetFraction)})
	if err != nil {
		// Guidance only: the denial stands on its own problems, and the
		// agent is told why no proposals are named.
		return []string{fmt.Sprintf("none named, since the plan could not be made (%v)", err)}
	}
	var subs []sweepact.Subject
	for _, s := range pl.Subjects {
		switch s.Disposition {
		case "demote", "promote", "remove-obsolete":
			subs = append(subs, s)
		}
	}
	// Largest first: the proposals that free the most of the index.
	for i := 1; i < len(subs); i++ {
		for j := i; j > 0 && subs[j].Units > subs[j-1].Units; j-- {
			subs[j], subs[j-1] = subs[j-1], subs[j]
		}
	}
	var out []string
	for i, s := range subs {
		if i == shownDemotions {
			out = append(out, fmt.Sprintf("and %d more", len(subs)-i))
			break
		}
		out = append(out, fmt.Sprintf("%s %s (line %d)", s.Disposition, s.Identity, s.Line))
	}
	return out
}
