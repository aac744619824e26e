package compact

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/distill"
	"github.com/memcompact/memcompact/internal/facts"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/snapshot"
	"github.com/memcompact/memcompact/internal/textfile"
	"github.com/memcompact/memcompact/internal/tiers"
)

// The design draws the oldest tier at 30% of the file and distills it
// once. That is the first attempt; the outcome the design exists for is a
// file within its budget, so when the first attempt does not reach it the
// search goes on, each step still writing nothing:
//
//  1. the oldest tier grows whole entry by whole entry toward the newest
//     tier, never into it, with the built-in summarizer's lightest level
//     (the smallest tier that fits is chosen: as little as possible is
//     distilled);
//  2. then the same at each higher level, which also condenses the bullets
//     of an existing block (only what must stay live, then one line per
//     month, then one line per year for entries with nothing to keep);
//  3. only when even the whole of the file outside the newest tier,
//     condensed as far as it goes, leaves the file over budget does it
//     stop: the newest tier, the preamble and the secret entries alone do
//     not fit. The report then names one change that works — a smaller
//     newest tier or a larger budget — after checking, by planning again
//     with it, that it does.
//
// At each step the mid tier that is left is lightened too if that is
// what it takes.

// CharsPerLine is the character ceiling of a lines budget, per budgeted
// line: a file budgeted in lines may hold at most Budget × CharsPerLine
// characters. Without it a lines budget holds while the lines grow long
// (a year's "Kept: …" line gains every round's statements), and the file
// a session loads grows without bound.
const CharsPerLine = 160

// ceiling is the character ceiling of the file's budget, 0 for none (a
// chars budget is its own).
func ceiling(row budget.Row) int {
	if row.Unit != budget.Lines {
		return 0
	}
	return row.Budget * CharsPerLine
}

// overCeiling reports whether text passes the character ceiling of row.
func overCeiling(text string, row budget.Row) bool {
	c := ceiling(row)
	return c > 0 && utf8.RuneCountInString(text) > c
}

// attempt is one way of rewriting the file.
type attempt struct {
	k, level int // entries [0, k) distilled at level
	lighten  bool
	text     string
	block    string
	removed  int
	size     int
	over     bool // past the character ceiling of a lines budget
	distill  []int
	bullets  []string
	stats    distill.Stats
}

// search finds the lightest attempt that fits the budget.
func (pl *Plan) search() *Plan {
	if err := pl.nextSnapshot(); err != nil {
		return pl.refuse(outcome.Refused, "%v", err)
	}
	limit := pl.o.Row.Budget - pl.o.Reserve
	// A file within its budget, compacted because it was named, is never
	// made larger: the block's heading and provenance lines cost more
	// than a few short entries save.
	within := pl.Report.SizeBefore <= limit && !overCeiling(pl.orig.Text, pl.o.Row)
	if within {
		limit = pl.Report.SizeBefore
	}
	fits := func(a *attempt) bool { return a.size <= limit && !a.over }
	lo, hi := pl.tiers.MidStart, pl.tiers.NewestStart
	levels := distill.Levels
	if within {
		levels = 1 // nothing is dropped from a file within its budget
	}
	if pl.o.AllowLoss {
		levels = distill.LevelLoss + 1
	}
	if a := pl.try(lo, 0); fits(a) || pl.o.Steps {
		return pl.take(a) // the design's own step is enough
	}
	var best *attempt
	for lv := 0; lv < levels; lv++ {
		a := pl.try(hi, lv)
		if best == nil || a.size < best.size || a.size == best.size && best.over && !a.over {
			best = a
		}
		if !fits(a) {
			continue
		}
		l, h := lo, hi // try(h) fits
		for l < h {
			m := (l + h) / 2
			if fits(pl.try(m, lv)) {
				h = m
			} else {
				l = m + 1
			}
		}
		return pl.take(pl.try(h, lv))
	}
	if within {
		rep := pl.Report
		rep.Status, rep.SizeAfter = StatusNothing, rep.SizeBefore
		rep.Message = fmt.Sprintf("%s: nothing to compact: distilling its older entries would not make it smaller than %d %s; it is %d/%d %s.", pl.o.Rel, rep.SizeBefore, pl.o.Row.Unit, rep.SizeBefore, pl.o.Row.Budget, pl.o.Row.Unit)
		return pl
	}
	if pl.take(best); pl.Report.Status == StatusAborted {
		return pl
	}
	return pl.cannotFit(best)
}

// try plans attempt (k, level), the mid tier lightened only if needed.
func (pl *Plan) try(k, level int) *attempt {
	if pl.tried == nil {
		pl.tried = map[[2]int]*attempt{}
	}
	if a := pl.tried[[2]int{k, level}]; a != nil {
		return a
	}
	pl.setTier(k)
	pl.level = level
	pl.bullets = nil
	var stats distill.Stats
	if len(pl.distill) > 0 || pl.kept != "" {
		if pl.o.cache == nil {
			pl.o.cache = distill.NewCache()
		}
		var bl []string
		bl, stats = pl.o.cache.DistillStats(pl.sources(k), level)
		pl.bullets = dedupe(bl, pl.oldBody)
	}
	a := pl.assembleBest(k)
	a.level, a.stats = level, stats
	pl.tried[[2]int{k, level}] = a
	return a
}

// assembleBest assembles the file with entries [0, k) replaced by the
// block, lightening the mid tier only if the file is over budget without.
func (pl *Plan) assembleBest(k int) *attempt {
	a := &attempt{k: k, distill: pl.distill, bullets: pl.bullets}
	a.text, a.block, _ = pl.assemble(pl.snapRel(), false)
	a.size = budget.Measure(a.text, pl.o.Row.Unit)
	a.over = overCeiling(a.text+pl.o.Append, pl.o.Row)
	if (a.size > pl.o.Row.Budget-pl.o.Reserve || a.over) && k < pl.tiers.NewestStart {
		text, block, removed := pl.assemble(pl.snapRel(), true)
		if size := budget.Measure(text, pl.o.Row.Unit); size < a.size || a.over && len(text) < len(a.text) {
			a.text, a.block, a.removed, a.size, a.lighten = text, block, removed, size, true
			a.over = overCeiling(a.text+pl.o.Append, pl.o.Row)
		}
	}
	return a
}

// take makes a the plan, verified.
func (pl *Plan) take(a *attempt) *Plan {
	pl.setTier(a.k)
	pl.distill, pl.bullets, pl.level, pl.lighten = a.distill, a.bullets, a.level, a.lighten
	pl.Report.MidLightened, pl.Report.MidRemoved = a.lighten, a.removed
	pl.Report.Level = a.level
	pl.Report.FactsKept, pl.Report.FactsDropped = countsOf(a.stats.Kept), countsOf(a.stats.Dropped)
	if pl.Report.FactsKept == nil && pl.Report.FactsDropped != nil {
		pl.Report.FactsKept = &FactCounts{}
	}
	if pl.Report.FactsDropped == nil && pl.Report.FactsKept != nil {
		pl.Report.FactsDropped = &FactCounts{}
	}
	if a.k > pl.tiers.MidStart {
		pl.Report.Grown = a.k - pl.tiers.MidStart
	}
	pl.finish(a.text, a.block)
	if d := pl.Report.FactsDropped; pl.Report.Status == StatusCompacted && a.level >= distill.LevelLoss && d != nil && d.Priority+d.Decision > 0 {
		n := d.Priority + d.Decision
		pl.Report.Message += fmt.Sprintf(" (--allow-loss: %d %s that must stay live, %d of them priority, moved to the snapshot.)", n, textfile.Plural(n, "statement", "statements"), d.Priority)
	}
	return pl
}

// setTier makes entries [0, k) the oldest tier: pl.distill holds those
// that are not secrets, pl.required their facts and an old block's.
func (pl *Plan) setTier(k int) {
	pl.k = k
	pl.distill = nil
	for i := 0; i < k; i++ {
		if _, s := pl.secret[i]; !s {
			pl.distill = append(pl.distill, i)
		}
	}
	pl.required = append([]facts.Fact(nil), pl.blockFacts...)
	if pl.entryFacts == nil {
		pl.entryFacts = map[int][]facts.Fact{}
	}
	for _, i := range pl.distill {
		fs, ok := pl.entryFacts[i]
		if !ok {
			fs = pl.notSecret(facts.Extract(pl.doc.EntryText(i)))
			for j := range fs {
				fs[j].Line += pl.doc.Entries[i].Start
			}
			pl.entryFacts[i] = fs
		}
		pl.required = append(pl.required, fs...)
	}
}

// tierFacts are the facts of the distilled entries alone.
func (pl *Plan) tierFacts() []facts.Fact {
	return append([]facts.Fact{}, pl.required[len(pl.blockFacts):]...)
}

// sources are the summarizer's input for a tier of k entries: an old
// block's bullets first, then the tier's entries, then the later entries
// (read only for reversals). Secret entries are never among them.
func (pl *Plan) sources(k int) []distill.Source {
	d := pl.doc
	if pl.entrySrc == nil {
		pl.entrySrc = make([]distill.Source, len(d.Entries))
		for i := range d.Entries {
			src := distill.Source{Text: textfile.Normalize(d.EntryText(i)), Parent: pl.parents[i]}
			if d.Mode != tiers.ModeList {
				src.Title = d.Entries[i].Title
			}
			src.People = distill.PeopleFile(pl.o.Rel) || distill.PeopleFile(src.Parent) || personEntry(src)
			pl.entrySrc[i] = src
		}
	}
	srcs := make([]distill.Source, 0, len(d.Entries)+1)
	if pl.kept != "" {
		srcs = append(srcs, distill.Source{Text: pl.kept, Kept: true, Parent: pl.soleParent(), People: distill.PeopleFile(pl.o.Rel)})
	}
	for i, src := range pl.entrySrc {
		if _, s := pl.secret[i]; s {
			continue
		}
		src.Later = i >= k
		srcs = append(srcs, src)
	}
	return srcs
}

// tierOnly are the sources of the design's oldest tier alone: what an
// external or model summarizer is given.
func (pl *Plan) tierOnly() []distill.Source {
	var out []distill.Source
	for _, s := range pl.sources(pl.tiers.MidStart) {
		if !s.Kept && !s.Later {
			out = append(out, s)
		}
	}
	return out
}

// soleParent is the section every list entry of the file sits under, when
// the file has exactly one section besides its title and the Compacted
// History block: then the bullets of an earlier block came from it too,
// and a repeat of one may merge into it (never across parents). "" when
// that cannot be known.
func (pl *Plan) soleParent() string {
	d := pl.doc
	if d.Mode != tiers.ModeList || len(pl.parents) == 0 || pl.parents[0] == "" {
		return ""
	}
	for _, p := range pl.parents {
		if p != pl.parents[0] {
			return ""
		}
	}
	inEntry := make([]bool, len(d.Lines))
	for _, e := range d.Entries {
		for j := e.Start; j < e.End; j++ {
			inEntry[j] = true
		}
	}
	for i, l := range d.Lines {
		m := headingRE().FindStringSubmatch(l)
		if m == nil || inEntry[i] || len(m[1]) == 1 || d.History != nil && i == d.History.Start {
			continue
		}
		if strings.TrimSpace(strings.TrimRight(l, "\r\n")) != pl.parents[0] {
			return ""
		}
	}
	return pl.parents[0]
}

// nextSnapshot names the snapshot the block will point to.
func (pl *Plan) nextSnapshot() error {
	next, err := snapshot.Next(pl.snapDir, pl.o.Rel, pl.o.Today, pl.o.Now)
	if err != nil {
		return err
	}
	pl.snapAbs = next
	return nil
}

// cannotFit reports that the newest tier, the preamble and the secret
// entries alone do not fit, and the one change that works, verified.
func (pl *Plan) cannotFit(best *attempt) *Plan {
	o, rep := pl.o, pl.Report
	rep.Floor = best.size
	newest := rep.Newest.Entries
	why := fmt.Sprintf("even with everything before the newest tier distilled as far as it goes, it would be %d/%d %s: the newest tier (last %d %s), the preamble and the secret entries do not fit",
		best.size, o.Row.Budget-o.Reserve, o.Row.Unit, newest, textfile.Plural(newest, "entry", "entries"))
	if pl.newestOnly() <= o.Row.Budget-o.Reserve {
		why = fmt.Sprintf("even with everything before the newest tier distilled as far as it goes, it would be %d/%d %s: beside the newest tier (last %d %s), the statements that must stay in the file (%d) do not fit",
			best.size, o.Row.Budget-o.Reserve, o.Row.Unit, newest, textfile.Plural(newest, "entry", "entries"), len(distill.MustKeep(pl.sources(pl.tiers.NewestStart))))
	}
	if !o.AllowLoss && !o.noSuggest && pl.newestOnly() <= o.Row.Budget-o.Reserve {
		if lost := pl.lossToFit(); lost > 0 {
			why += fmt.Sprintf(" (--allow-loss would fit it by moving %d %s that must stay live to the snapshot)", lost, textfile.Plural(lost, "statement", "statements"))
		}
	}
	pl.shortfall(best.size, why)
	if best.over && best.size <= o.Row.Budget-o.Reserve {
		// Within the lines, past the character ceiling.
		chars := utf8.RuneCountInString(best.text + o.Append)
		rep.Shortfall = chars - ceiling(o.Row)
		rep.Message = fmt.Sprintf("%s is still over budget: even with everything before the newest tier distilled as far as it goes, it would be %d/%d %s but %d characters, past the ceiling of a %d-line budget (%d characters, %d a line): the statements that must stay in the file do not fit in it, %d characters over; nothing was written.",
			o.Rel, best.size, o.Row.Budget-o.Reserve, o.Row.Unit, chars, o.Row.Budget, ceiling(o.Row), CharsPerLine, rep.Shortfall)
	}
	if o.noSuggest {
		return pl
	}
	// The changes suggested keep every statement that must stay live,
	// --allow-loss or not: a budget that keeps them is what the user is
	// told first.
	b := best.size + o.Reserve
	if o.AllowLoss {
		b = pl.keepAllBudget(b)
	}
	if pl.works(func(x *Options) { x.Row.Budget, x.AllowLoss = b, false }) {
		rep.SuggestBudget = b
	}
	// The largest newest tier that fits, checked by planning with it.
	lo, hi, found := 0, newest-1, -1
	for lo <= hi {
		m := (lo + hi) / 2
		if pl.works(func(x *Options) { x.Row.Newest, x.AllowLoss = m, false }) {
			found, lo = m, m+1
		} else {
			hi = m - 1
		}
	}
	if found >= 0 {
		rep.SuggestNewest = &found
	}
	return pl
}

// works reports whether a compaction with the options changed by change
// would bring the file within budget.
func (pl *Plan) works(change func(*Options)) bool {
	o := pl.o
	o.noSuggest, o.PlanOnly, o.Explicit = true, false, true
	if o.File == nil {
		o.File = pl.orig
	}
	change(&o)
	return Prepare(context.Background(), o).Report.Status == StatusCompacted
}

// readBlock reads an existing Compacted History block: its provenance,
// its facts, and its body — bullets this summarizer can distill again,
// or a body in another shape, kept as it is.
func (pl *Plan) readBlock() {
	h := pl.doc.History
	if h == nil {
		return
	}
	body := pl.doc.Lines[h.Start+1 : h.End]
	skipped := 0
	for len(body) > 0 {
		if p, ok := parseProvenance(body[0]); ok {
			pl.prov.add(p)
			body, skipped = body[1:], skipped+1
			continue
		}
		if isBlankOrBreak(body[0]) && len(pl.prov.snapshots) > 0 {
			body, skipped = body[1:], skipped+1
			continue
		}
		break
	}
	read := func(rel string) (string, error) {
		f, err := textfile.Read(filepath.Join(pl.o.Root, filepath.FromSlash(rel)))
		if err != nil {
			return "", err
		}
		return f.Text, nil
	}
	pl.provErr = pl.prov.useCatalogue(catalogueRel(budget.SnapshotsRel, pl.o.Rel), read)
	for len(body) > 0 && isBlankOrBreak(body[0]) {
		body, skipped = body[1:], skipped+1
	}
	for len(body) > 0 && isBlankOrBreak(body[len(body)-1]) {
		body = body[:len(body)-1]
	}
	for _, f := range pl.notSecret(facts.Extract(strings.Join(body, ""))) {
		f.Line += h.Start + 1 + skipped
		pl.blockFacts = append(pl.blockFacts, f)
	}
	if old, ok := bulletLines(body); ok {
		pl.kept = old
		return
	}
	pl.oldBody = keptLines(strings.Join(body, ""), pl.eol)
}

// keptLines are text's lines, each with a terminator.
func keptLines(text, eol string) []string {
	lines := textfile.SplitKeep(text)
	if n := len(lines); n > 0 && !strings.HasSuffix(lines[n-1], "\n") && !strings.HasSuffix(lines[n-1], "\r") {
		lines[n-1] += eol
	}
	return lines
}

// newestOnly is the size of the file with nothing but its preamble, its
// secret entries, its newest tier and an empty block: what no summary can
// shrink.
func (pl *Plan) newestOnly() int {
	d := pl.doc
	var b strings.Builder
	b.WriteString(d.Text(0, d.Preamble))
	b.WriteString("## Compacted History" + pl.eol + pl.prov.line(len(pl.distill), pl.o.Today.Format("2006-01-02"), pl.snapRel()) + pl.eol + pl.eol)
	for i := range pl.secret {
		b.WriteString(d.EntryText(i))
	}
	for i := pl.tiers.NewestStart; i < len(d.Entries); i++ {
		b.WriteString(d.EntryText(i))
	}
	return budget.Measure(b.String(), pl.o.Row.Unit)
}

// mustKeep is what verification requires to stay in the live file: the
// must-keep statements of the tier and of an earlier block, or, when the
// user allowed the loss, nothing (the statements left out are counted in
// the report and stay in the snapshot the block names).
func (pl *Plan) mustKeep() []string {
	if pl.o.AllowLoss && pl.level >= distill.LevelLoss {
		return nil
	}
	return distill.MustKeep(pl.sources(pl.k))
}

// lossToFit is how many must-keep statements a compaction allowed to lose
// them would move to the snapshot to fit, checked by planning it; 0 when
// even that does not fit.
func (pl *Plan) lossToFit() int {
	o := pl.o
	o.AllowLoss, o.noSuggest, o.cache, o.once = true, true, nil, nil
	lp := Prepare(context.Background(), o)
	if lp.Report.Status != StatusCompacted || lp.Report.FactsDropped == nil {
		return 0
	}
	d := lp.Report.FactsDropped
	return d.Priority + d.Decision
}

// keepAllBudget is the smallest size at which the file compacts with
// nothing that must stay live lost: the best attempt without --allow-loss,
// or at least b.
func (pl *Plan) keepAllBudget(b int) int {
	o := pl.o
	o.AllowLoss, o.noSuggest, o.cache, o.once = false, true, nil, nil
	if lp := Prepare(context.Background(), o); lp.Report.Floor+o.Reserve > b {
		return lp.Report.Floor + o.Reserve
	}
	return b
}
