package writeguard

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/check"
	"github.com/memcompact/memcompact/internal/loadcut"
	"github.com/memcompact/memcompact/internal/recall"
	"github.com/memcompact/memcompact/internal/reference"
	"github.com/memcompact/memcompact/internal/textfile"
)

// checkHooks denies an index write that leaves a subject without a recall
// hook (R1) that had one, or adds a subject without one. Offenders are
// counted per link target, so moving a hookless pointer is not a new one.
func checkHooks(c *change) {
	if !c.verdict.Index {
		return
	}
	before, after := c.judged()
	var news []string
	for _, w := range added(before.hookless, after.hookless, func(w recall.WithoutHook) string { return w.Target }) {
		news = append(news, fmt.Sprintf("line %d [%s](%s): %s", w.Line, w.LinkText, w.Target, w.Reason))
	}
	if len(news) == 0 {
		return
	}
	c.deny("hookless",
		"it would leave a subject without a recall hook (R1): "+strings.Join(news, "; "),
		"After each link write what the entry teaches, in words the filename does not already say (\"- [Title](file.md) — the lesson, when it applies\"), so a future session knows when to open it")
}

// checkSharedNotes denies an index write that adds an unattributed shared
// note (R2): one clause over several subjects that say nothing themselves.
func checkSharedNotes(c *change) {
	if !c.verdict.Index {
		return
	}
	before, after := c.judged()
	var news []string
	for _, n := range added(before.notes, after.notes, func(n recall.SharedNote) string { return n.Position + "\x00" + n.Note }) {
		news = append(news, fmt.Sprintf("line %d: %q over %s", n.Line, n.Note, strings.Join(n.Subjects, ", ")))
	}
	if len(news) == 0 {
		return
	}
	c.deny("shared-note",
		"it would add a note shared by several subjects that carry no hook of their own (R2): "+strings.Join(news, "; "),
		"Give each linked subject its own hook, or split the line into one pointer per subject")
}

// checkIndexBudget denies an index write that makes the index larger while
// it is over the size budget its store records (the check's size axis).
// The budget is read from the store as it is; a store without one is not
// judged on this.
func checkIndexBudget(c *change) {
	if !c.verdict.Index {
		return
	}
	beforeUnits, afterUnits := textfile.Units(c.before), textfile.Units(c.after)
	if afterUnits <= beforeUnits {
		return
	}
	ref := reference.Resolve("", c.call.Getenv, c.call.Home)
	ixBefore, _ := c.indexes()
	rep := check.EvaluateParsed(check.Options{
		IndexPath: c.verdict.Path,
		Reference: check.Reference{Display: ref.Display, Path: ref.Path, Text: ref.Text},
		Today:     c.call.Today,
	}, c.file, check.Parsed{Lines: c.linesBefore, Index: ixBefore})
	if rep.Size.State != check.SizeWithin && rep.Size.State != check.SizeOver {
		return
	}
	if afterUnits <= rep.Size.Budget {
		return
	}
	c.deny("budget",
		fmt.Sprintf("it would grow the index to %s characters, over its budget of %s (%s × the %s limit observed %s)",
			textfile.N0(afterUnits), textfile.N0(rep.Size.Budget), textfile.Fixed2(rep.Size.Fraction), textfile.N0(rep.Size.ObservationValue), rep.Size.ObservationDate),
		"Make room first: move detail into entry files and keep one short pointer per subject, or run a sweep ('memcompact inventory') to retire entries; writes that shrink the index are always allowed")
}

// checkFileBudget denies a write that grows a file budgeted by the memory
// root's compaction policy past its budget (or further past it).
func checkFileBudget(c *change) {
	root, err := budget.FindRoot(filepath.Dir(c.verdict.Path))
	if err != nil {
		return // no compaction policy: nothing budgeted
	}
	p, err := budget.Load(root)
	if err != nil {
		c.cannotJudge(fmt.Sprintf("memcompact cannot read the compaction policy of %s (%v), so it cannot check this file's budget", root, err),
			"Tell the user the policy is unreadable ('memcompact budgets "+root+"' shows why); mend it before writing here")
		return
	}
	rel, err := budget.Rel(root, c.verdict.Path)
	if err != nil {
		return
	}
	row, ok := p.Lookup(rel)
	if !ok {
		return
	}
	before, after := budget.Measure(c.before, row.Unit), budget.Measure(c.after, row.Unit)
	if after <= row.Budget || after <= before {
		return
	}
	c.deny("budget",
		fmt.Sprintf("it would grow %s to %d %s, over its budget of %d %s (row %d of %s)", rel, after, row.Unit, row.Budget, row.Unit, row.Line, budget.PolicyRel),
		fmt.Sprintf("Compact it first ('memcompact compact %s' distills its oldest entries into a Compacted History block after a snapshot), then retry", rel))
}

// checkHidden denies an index write after which Claude Code's frontmatter
// rule hides pointers that it showed before: a first line of "---" makes
// everything up to the next "---" vanish from the session, silently. A
// block comment hides only what it encloses, on purpose, so it is allowed.
func checkHidden(c *change) {
	if !c.verdict.Index {
		return
	}
	after := c.loadedAfter()
	if !after.Lost() || len(after.Hidden) == 0 {
		return
	}
	before := c.loadedBefore()
	byFrontmatter := func(rs []loadcut.Subject) []loadcut.Subject {
		var out []loadcut.Subject
		for _, s := range rs {
			if s.By == loadcut.HiddenByFrontmatter {
				out = append(out, s)
			}
		}
		return out
	}
	var lost []string
	for _, s := range added(byFrontmatter(before.Hidden), byFrontmatter(after.Hidden), func(s loadcut.Subject) string { return s.Target }) {
		lost = append(lost, fmt.Sprintf("line %d [%s](%s)", s.Line, s.LinkText, s.Target))
	}
	if len(lost) == 0 {
		return
	}
	n := len(lost)
	if n > 5 {
		lost = append(lost[:5], fmt.Sprintf("and %d more", n-5))
	}
	c.deny("hidden",
		fmt.Sprintf("it would make Claude Code read lines 1-%d of MEMORY.md as frontmatter and drop them, hiding %d pointer(s): %s",
			after.FrontmatterLines, n, strings.Join(lost, ", ")),
		"Do not start MEMORY.md with a '---' line (Claude Code strips everything up to the next '---' as frontmatter); 'memcompact load' shows what a session sees")
}

// checkLoadCut denies an index write after which Claude Code would load
// less of the index than it should: the index becomes cut when it was not,
// a subject falls past the cut that loaded before (or is added past it), or
// more text lies past the cut than before.
func checkLoadCut(c *change) {
	if !c.verdict.Index {
		return
	}
	after := c.loadedAfter()
	if !after.Cut {
		return
	}
	before := c.loadedBefore()
	var lost []string
	for _, s := range added(before.PastCut, after.PastCut, func(s loadcut.Subject) string { return s.Target }) {
		lost = append(lost, fmt.Sprintf("line %d [%s](%s)", s.Line, s.LinkText, s.Target))
	}
	pastBefore := before.UnitsTotal - before.UnitsCounted()
	pastAfter := after.UnitsTotal - after.UnitsCounted()
	if before.Cut && len(lost) == 0 && pastAfter <= pastBefore {
		return
	}
	limit := fmt.Sprintf("%d lines", after.LineLimit)
	if after.Limit == loadcut.LimitUnits {
		limit = fmt.Sprintf("%s characters", textfile.N0(after.UnitLimit))
	}
	msg := fmt.Sprintf("it would leave MEMORY.md at %d lines / %s characters, past Claude Code's load cut (%s): sessions would stop reading at line %d",
		after.LinesTotal, textfile.N0(after.UnitsTotal), limit, after.FirstCutLine)
	if len(lost) > 0 {
		msg += ", losing " + strings.Join(lost, ", ")
	}
	c.deny("load-cut", msg,
		"Shorten the index instead: keep one short pointer line per subject, move detail into entry files, and retire stale entries (record each exit in LEDGER.md); 'memcompact load' shows what is cut")
}
