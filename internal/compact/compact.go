package compact

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/distill"
	"github.com/memcompact/memcompact/internal/facts"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/secrets"
	"github.com/memcompact/memcompact/internal/snapshot"
	"github.com/memcompact/memcompact/internal/summarize"
	"github.com/memcompact/memcompact/internal/textfile"
	"github.com/memcompact/memcompact/internal/tiers"
)

// Options says what to compact and how.
type Options struct {
	Root string     // the memory root (absolute)
	Rel  string     // the file, root-relative
	Row  budget.Row // its policy row

	// File is the file as the caller has already read it (save, which
	// joins its entry to that text), or nil to have Prepare read it. The
	// digest checked before the replace is then that of the text the plan
	// was made from.
	File *textfile.File

	EntryHeading string // overrides the entry rule (see package entries)

	// The summarizer: Summary (an agent's bullets, from --summary) wins,
	// then Command (an external command), else the built-in one.
	Summary     []string
	SummaryName string
	Command     string
	Timeout     time.Duration
	// Model, when set, is the summarizer (a model, or Command run through
	// package summarize): its bullets are checked, repaired once, and
	// what is still missing appended verbatim, or the compaction aborts
	// with Strict.
	Model  summarize.Model
	Strict bool

	Explicit bool   // named on the command line: compact even within budget
	Reserve  int    // units to leave free below the budget (save's entry)
	Append   string // text written after the compacted file (save's entry)

	Today, Now time.Time

	// PlanOnly stops after the tiers are known: the report then carries
	// the oldest tier's text and the facts that must survive (--plan).
	PlanOnly bool

	// Steps keeps the design's one step: the oldest tier as the design
	// draws it, distilled once, and a shortfall if that is not enough.
	// Without it the oldest tier grows and the block condenses until the
	// file fits (see tiering.go).
	Steps bool

	// AllowLoss lets the search go past the last level when even that
	// does not fit: statements that must stay live (priority facts,
	// decisions, instructions) may then leave the file for the snapshot,
	// counted in the report. Without it such a file is a shortfall that
	// says how many would be lost and the budget that keeps them.
	AllowLoss bool

	noSuggest bool           // set while a suggestion is being verified
	cache     *distill.Cache // entries read once, shared by the suggestions' plans
	consent   *consent       // asked before Model is first given a tier; nil: not needed
	once      *summarized    // shared by plans of the same tier (save's two): the summarizer runs once
}

// summarized is a summarizer's answer for the design's oldest tier, kept
// for a second plan of the same file: save plans again without the
// entry's reserve, and a model or a command must not be asked twice (it
// costs, it may answer differently, and a repair round would repeat).
type summarized struct {
	done    bool
	bullets []string
	err     error
	model   *ModelRun
	lost    []string
}

// summarize runs f once per summarized; a later plan gets its answer and
// the report parts it filled.
func (pl *Plan) summarize(f func() ([]string, error)) ([]string, error) {
	s := pl.o.once
	if s == nil {
		return f()
	}
	if !s.done {
		s.bullets, s.err = f()
		s.model, s.lost, s.done = pl.Report.Model, pl.Report.LostKeep, true
	} else {
		pl.Report.Model, pl.Report.LostKeep = s.model, s.lost
	}
	return s.bullets, s.err
}

// Plan is a compaction worked out in memory. Nothing is written until
// Write.
type Plan struct {
	Report *Report
	Code   outcome.Status // the status this outcome implies

	o          Options
	abs        string
	orig       *textfile.File
	doc        *tiers.Doc
	tiers      tiers.Tiers
	secret     map[int]string // entry index -> reason, for oldest and mid
	distill    []int          // entry indexes distilled
	bullets    []string       // new bullets
	dropped    []string       // facts the summary declares dropped ("Dropped: …"), without the prefix
	oldBody    []string       // an existing block's body lines, kept as they are (a block not ours)
	kept       string         // an existing block's bullets, distilled again with the tier (ours)
	prov       provenance     // what an existing block was distilled from
	provErr    error          // a catalogue the block names that cannot be read
	level      int            // the built-in summarizer's level of the chosen attempt
	k          int            // entries [0, k) are the oldest tier
	parents    []string       // entry index -> the section heading above it
	tried      map[[2]int]*attempt
	blockFacts []facts.Fact         // the facts of an existing block's body
	entryFacts map[int][]facts.Fact // entry index -> its facts, lines in the file
	entrySrc   []distill.Source     // entry index -> the entry as a summarizer's source
	own        *owners              // who owns what, for misplaced (read once)
	eol        string
	lighten    bool
	snapDir    string
	snapAbs    string
	newText    string
	required   []facts.Fact // facts the block must hold, lines in the original file
	// tierSecrets are the secret values found in the oldest and mid
	// tiers: never a fact to keep, and looked for in the block in every
	// cheap encoding. Held in memory only.
	tierSecrets []string
}

// Prepare plans the compaction of one file; see the package doc.
func Prepare(ctx context.Context, o Options) *Plan {
	rep := &Report{File: o.Rel, Unit: string(o.Row.Unit), Budget: o.Row.Budget, Secrets: []Secret{}, Summarizer: summarizerName(o)}
	pl := &Plan{Report: rep, o: o, abs: filepath.Join(o.Root, filepath.FromSlash(o.Rel)), snapDir: filepath.Join(o.Root, filepath.FromSlash(budget.SnapshotsRel))}
	if done := pl.read(); done != nil {
		return done
	}
	limit := o.Row.Budget - o.Reserve
	rep.SizeBefore = budget.Measure(pl.orig.Text, o.Row.Unit)
	rep.SizeAfter = rep.SizeBefore
	if !o.Explicit && rep.SizeBefore <= limit && !overCeiling(pl.orig.Text, o.Row) {
		rep.Status = StatusWithin
		rep.Message = fmt.Sprintf("%s is %d/%d %s, within budget; nothing to do.", o.Rel, rep.SizeBefore, o.Row.Budget, o.Row.Unit)
		return pl
	}
	if done := pl.split(); done != nil {
		return done
	}
	pl.findSecrets()
	pl.readBlock()
	if pl.provErr != nil {
		return pl.refuse(outcome.Refused, "%s: %v; nothing was written", o.Rel, pl.provErr)
	}
	if done := pl.nothingToCompact(limit); done != nil {
		return done
	}
	if o.PlanOnly {
		return pl.plan()
	}
	if o.Summary != nil || o.Command != "" || o.Model != nil {
		return pl.outside(ctx)
	}
	return pl.search()
}

// read reads the file (unless the caller already has), refusing one that
// does not exist or is not UTF-8 text. It returns the refused plan, or
// nil to go on.
func (pl *Plan) read() *Plan {
	f, rel := pl.o.File, pl.o.Rel
	var err error
	if f == nil {
		f, err = textfile.Read(pl.abs)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return pl.refuse(outcome.Refused, "%s does not exist", rel)
	}
	if err != nil {
		return pl.refuse(outcome.Refused, "%v", err)
	}
	body := f.Raw
	if f.HasBOM {
		body = body[len(textfile.BOM):]
	}
	if !utf8.Valid(body) || bytes.IndexByte(body, 0) >= 0 {
		return pl.refuse(outcome.Refused, "%s is not UTF-8 text; rewriting it would change bytes that are not entries", rel)
	}
	pl.orig, pl.eol = f, textfile.EOL(f.Text)
	return nil
}

// split splits the file into entries and tiers, refusing one with no
// recognizable entries. It returns the refused plan, or nil to go on.
func (pl *Plan) split() *Plan {
	rep := pl.Report
	doc, err := tiers.Split(pl.orig.Text, tiers.Options{EntryHeading: pl.o.EntryHeading})
	if errors.Is(err, tiers.ErrNoEntries) {
		rep.Reason = ReasonNoEntries
		rep.SuggestEntryHeading = pl.entryHeadingThatWorks()
		return pl.refuse(outcome.Refused, "%s: %v; nothing was changed", pl.o.Rel, err)
	}
	if err != nil {
		return pl.refuse(outcome.Usage, "%v", err)
	}
	pl.doc = doc
	rep.Mode = string(doc.Mode)
	rep.Entries = len(doc.Entries)
	pl.tiers = doc.Tier(pl.o.Row.Newest)
	t := pl.tiers
	rep.Oldest = pl.tierSize(0, t.MidStart)
	rep.Mid = pl.tierSize(t.MidStart, t.NewestStart)
	rep.Newest = pl.tierSize(t.NewestStart, len(doc.Entries))
	pl.parents = parentsOf(doc)
	return nil
}

// entryHeadingThatWorks is the shallowest heading level ("#" to "######")
// that splits the file into entries with some older than the newest tier,
// or "".
func (pl *Plan) entryHeadingThatWorks() string {
	if pl.o.EntryHeading != "" {
		return ""
	}
	for lv := 1; lv <= 6; lv++ {
		h := strings.Repeat("#", lv)
		doc, err := tiers.Split(pl.orig.Text, tiers.Options{EntryHeading: h})
		if err == nil && len(doc.Entries) > 0 && doc.Tier(pl.o.Row.Newest).NewestStart > 0 {
			return h
		}
	}
	return ""
}

// findSecrets marks the entries of the oldest and mid tiers that hold a
// secret (or sit under a secret heading): they are never summarized. The
// secret values themselves are kept in memory, to be looked for in the
// block.
func (pl *Plan) findSecrets() {
	doc := pl.doc
	pl.secret = map[int]string{}
	for i := 0; i < pl.tiers.NewestStart; i++ {
		e := doc.Entries[i]
		reason, excerpt := "", ""
		fs, vals := secrets.ScanValues(doc.EntryText(i))
		pl.tierSecrets = append(pl.tierSecrets, vals...)
		if e.SecretHeading {
			reason = "heading"
		} else if len(fs) > 0 {
			reason, excerpt = fs[0].Rule, fs[0].Excerpt
		}
		if reason != "" {
			pl.secret[i] = reason
			pl.Report.Secrets = append(pl.Report.Secrets, Secret{Line: e.Start + 1, Title: secretTitle(doc, e, excerpt), Reason: reason})
		}
	}
}

// nothingToCompact ends the plan when neither the oldest nor the mid tier
// has an entry that may be summarized: nothing to do within limit, a
// shortfall above it. It returns nil to go on.
func (pl *Plan) nothingToCompact(limit int) *Plan {
	rep, t, o := pl.Report, pl.tiers, pl.o
	midEntries := 0
	for i := t.MidStart; i < t.NewestStart; i++ {
		if _, s := pl.secret[i]; !s {
			midEntries++
		}
	}
	pl.setTier(t.MidStart)
	if len(pl.distill) > 0 || midEntries > 0 {
		return nil
	}
	if rep.SizeBefore <= limit {
		rep.Status = StatusNothing
		rep.Message = fmt.Sprintf("%s: nothing to compact: %s; it is %d/%d %s.", o.Rel, whyNothing(rep, len(pl.secret)), rep.SizeBefore, o.Row.Budget, o.Row.Unit)
		return pl
	}
	return pl.shortfall(rep.SizeBefore, "nothing can be compacted: "+whyNothing(rep, len(pl.secret)))
}

// plan is --plan: the oldest tier's text, the facts that must survive,
// and the facts the built-in summary would leave only in the snapshot.
func (pl *Plan) plan() *Plan {
	o, rep := pl.o, pl.Report
	pl.setTier(pl.tiers.MidStart)
	srcs := pl.sources(pl.tiers.MidStart)
	rep.Status = StatusPlanned
	rep.TierText = distill.TierText(srcs)
	rep.Facts = pl.tierFacts()
	rep.MustKeep = distill.MustKeep(srcs)
	bullets := distill.Distill(srcs, distill.LevelSignal)
	rep.SnapshotOnly = facts.Missing(rep.Facts, strings.Join(bullets, "\n"))
	if next, err := snapshot.Next(pl.snapDir, o.Rel, o.Today, o.Now); err == nil {
		pl.snapAbs = next
		rep.Snapshot = pl.snapRel()
	}
	rep.Message = fmt.Sprintf("%s: %d %s to distill (%d lines); %d %s must stay live; %d of %d %s would live only in the snapshot.",
		o.Rel, len(pl.distill), textfile.Plural(len(pl.distill), "entry", "entries"), rep.Oldest.Lines,
		len(rep.MustKeep), textfile.Plural(len(rep.MustKeep), "statement", "statements"),
		len(rep.SnapshotOnly), len(rep.Facts), textfile.Plural(len(rep.Facts), "fact", "facts"))
	return pl
}

// outside distills the design's oldest tier once with an agent's summary
// or an external command: their bullets are written for that tier.
func (pl *Plan) outside(ctx context.Context) *Plan {
	o := pl.o
	pl.setTier(pl.tiers.MidStart)
	if len(pl.distill) > 0 {
		var bullets []string
		switch {
		case o.Summary != nil:
			bullets = o.Summary
			if len(bullets) == 0 {
				return pl.abort("the summary %s has no bullets; nothing was written", o.SummaryName)
			}
		case o.Model != nil:
			if err := o.consent.allow(); err != nil {
				pl.Report.Reason = outcome.ReasonOf(err)
				return pl.refuse(outcome.Refused, "%s: %v", o.Rel, err)
			}
			b, err := pl.summarize(func() ([]string, error) { return pl.modelBullets(ctx, pl.tierOnly()) })
			if err != nil {
				return pl.abort("%v; nothing was written", err)
			}
			bullets = b
		default:
			tier := distill.TierText(pl.tierOnly())
			if secrets.Contains(tier) {
				return pl.abort("the text for the summarizer would hold a secret; nothing was sent or written")
			}
			b, err := pl.summarize(func() ([]string, error) { return summarize.External(ctx, o.Command, tier, o.Timeout) })
			if err != nil {
				return pl.abort("%v; nothing was written", err)
			}
			bullets = b
		}
		if pl.kept != "" {
			pl.oldBody = keptLines(pl.kept, pl.eol)
			pl.kept = ""
		}
		stated, dropped := summarize.SplitDropped(bullets)
		pl.bullets, pl.dropped = dedupe(stated, pl.oldBody), dropped
		pl.Report.DeclaredDropped = dropped
	}
	if err := pl.nextSnapshot(); err != nil {
		return pl.refuse(outcome.Refused, "%v", err)
	}
	a := pl.assembleBest(pl.tiers.MidStart)
	return pl.finish(a.text, a.block)
}

// finish verifies newText and fills the report.
func (pl *Plan) finish(newText, block string) *Plan {
	o, rep := pl.o, pl.Report
	rep.SizeAfter = budget.Measure(newText, o.Row.Unit)
	rep.Compacted = len(pl.distill)
	rep.CompactedSize = 0
	for _, i := range pl.distill {
		rep.CompactedSize += budget.Measure(pl.doc.EntryText(i), o.Row.Unit)
	}
	rep.BlockSize = budget.Measure(block, o.Row.Unit)
	rep.Block = block
	rep.Snapshot = pl.snapRel()
	// Losing what must stay is the worse news, so it is checked (and
	// reported) before the budget.
	if msg := pl.verify(newText, block); msg != "" {
		return pl.abort("%s", msg)
	}
	rep.SnapshotOnly = facts.Missing(pl.required, newText)
	if limit := o.Row.Budget - o.Reserve; rep.SizeAfter > limit {
		// What an empty summary would leave: above the budget, no
		// summarizer can help, only more than one compaction can.
		floor := rep.SizeAfter - rep.BlockSize
		if h := pl.doc.History; h != nil {
			floor += budget.Measure(pl.doc.Text(h.Start, h.End), o.Row.Unit)
		}
		pl.shortfall(rep.SizeAfter, "")
		rep.Floor = floor
		return pl
	}
	pl.newText = newText
	rep.Status = StatusCompacted
	rep.Message = pl.summaryLine()
	return pl
}

// summaryLine is the design's report line.
func (pl *Plan) summaryLine() string {
	rep, u := pl.Report, pl.o.Row.Unit
	one := strings.TrimSuffix(string(u), "s")
	if rep.Compacted == 0 {
		return fmt.Sprintf("Lightened the mid tier (%d lines removed); no entry was distilled. %s is now %d/%d %s. Snapshot: %s",
			rep.MidRemoved, rep.File, rep.SizeAfter, rep.Budget, u, rep.Snapshot)
	}
	line := fmt.Sprintf("Compacted %d %s (%d %s) into a %d-%s history block. %s is now %d/%d %s. Snapshot: %s",
		rep.Compacted, textfile.Plural(rep.Compacted, "entry", "entries"), rep.CompactedSize, u, rep.BlockSize, one, rep.File, rep.SizeAfter, rep.Budget, u, rep.Snapshot)
	if n := len(rep.DeclaredDropped); n > 0 {
		line += fmt.Sprintf(" (the summary declared dropped %d %s; the block names %s, and the snapshot holds %s)",
			n, textfile.Plural(n, "fact", "facts"), textfile.Plural(n, "it", "them"), textfile.Plural(n, "its text", "their text"))
	}
	return line
}

func (pl *Plan) tierSize(from, to int) Tier {
	t := Tier{Entries: to - from}
	for i := from; i < to; i++ {
		t.Lines += pl.doc.Entries[i].Lines()
	}
	return t
}

func (pl *Plan) refuse(code outcome.Status, format string, a ...any) *Plan {
	pl.Report.Status = StatusRefused
	pl.Report.Message = fmt.Sprintf(format, a...)
	pl.Code = code
	return pl
}

func (pl *Plan) abort(format string, a ...any) *Plan {
	pl.Report.Status = StatusAborted
	pl.Report.Message = fmt.Sprintf("%s: compaction aborted: ", pl.o.Rel) + fmt.Sprintf(format, a...)
	pl.Code = outcome.Defects
	return pl
}

func (pl *Plan) shortfall(best int, why string) *Plan {
	rep, o := pl.Report, pl.o
	limit := o.Row.Budget - o.Reserve
	rep.Status = StatusShortfall
	rep.SizeAfter = rep.SizeBefore
	rep.Shortfall = best - limit
	rep.Block = ""
	rep.Snapshot = ""
	if why == "" {
		lines := 0
		for _, i := range pl.distill {
			lines += pl.doc.Entries[i].Lines()
		}
		why = fmt.Sprintf("distilling the oldest tier (%d %s, %d lines)", len(pl.distill), textfile.Plural(len(pl.distill), "entry", "entries"), lines)
		if rep.MidLightened {
			why += fmt.Sprintf(" and lightening the mid tier (%d lines removed)", rep.MidRemoved)
		}
		why += fmt.Sprintf(" would leave it at %d/%d %s", best, limit, o.Row.Unit)
	}
	rep.Message = fmt.Sprintf("%s is still over budget: %s, %d %s over; nothing was written.", o.Rel, why, rep.Shortfall, unitWord(rep.Shortfall, o.Row.Unit))
	if o.Reserve > 0 {
		rep.Message = strings.TrimSuffix(rep.Message, ".") + fmt.Sprintf(" (the budget less %d %s for the new entry).", o.Reserve, o.Row.Unit)
	}
	pl.Code = outcome.Defects
	return pl
}

// secretTitle names a secret entry in a report without showing the secret:
// a heading entry by its heading (or the scanner's redacted excerpt if the
// heading itself holds the secret), a list item by the excerpt only.
func secretTitle(d *tiers.Doc, e tiers.Entry, excerpt string) string {
	if d.Mode != tiers.ModeList && !secrets.Contains(e.Title) {
		return e.Title
	}
	if excerpt != "" {
		return excerpt
	}
	if fs := secrets.Scan(e.Title); len(fs) > 0 {
		return fs[0].Excerpt
	}
	return "a list item under a secrets heading"
}

func whyNothing(rep *Report, secrets int) string {
	switch {
	case rep.Entries == rep.Newest.Entries:
		return fmt.Sprintf("all %d %s are in the newest tier (last %d)", rep.Entries, textfile.Plural(rep.Entries, "entry", "entries"), rep.Newest.Entries)
	case secrets > 0:
		return fmt.Sprintf("the entries outside the newest tier hold secrets and stay verbatim (%d)", secrets)
	}
	return "no entry outside the newest tier"
}

func summarizerName(o Options) string {
	switch {
	case o.Summary != nil:
		return "summary:" + o.SummaryName
	case o.Model != nil && o.Command == "":
		return "model:" + o.Model.Name()
	case o.Command != "":
		return "command:" + o.Command
	}
	return "builtin"
}

// bulletLines returns an existing block's body as text for the built-in
// summarizer to distill again, when every line of it is a "- " bullet, a
// line indented under one, or blank; otherwise (a block an agent or a person wrote in its
// own shape) the body is kept as it is and new bullets go after it.
func bulletLines(body []string) (string, bool) {
	var b strings.Builder
	n := 0
	for _, l := range body {
		t := strings.TrimRight(l, "\r\n")
		switch {
		case strings.TrimSpace(t) == "":
			continue
		case n > 0 && (strings.HasPrefix(t, "  ") || strings.HasPrefix(t, "\t")):
		case !strings.HasPrefix(t, "- "):
			return "", false
		}
		b.WriteString(t + "\n")
		n++
	}
	return b.String(), n > 0
}

// unitWord is "line" or "char" for one, the unit as written otherwise.
func unitWord(n int, u budget.Unit) string {
	if n == 1 {
		return strings.TrimSuffix(string(u), "s")
	}
	return string(u)
}

// notSecret drops the facts that are or hold a secret: a secret is never
// a fact the block must keep (nor listed by --plan).
func (pl *Plan) notSecret(fs []facts.Fact) []facts.Fact {
	out := fs[:0]
	for _, f := range fs {
		if !secrets.Contains(f.Text) && !containsAny(f.Text, pl.tierSecrets) {
			out = append(out, f)
		}
	}
	return out
}

// parentsOf names, for each entry, the nearest heading above it that is
// not itself an entry: the section a list item or an entry sits under.
func parentsOf(d *tiers.Doc) []string {
	out := make([]string, len(d.Entries))
	inEntry := make([]bool, len(d.Lines))
	for _, e := range d.Entries {
		for j := e.Start; j < e.End; j++ {
			inEntry[j] = true
		}
	}
	cur, k := "", 0
	for i := 0; i < len(d.Lines) && k < len(d.Entries); i++ {
		if i == d.Entries[k].Start {
			out[k] = cur
			k++
		}
		if !inEntry[i] && headingRE().MatchString(d.Lines[i]) {
			cur = strings.TrimSpace(strings.TrimRight(d.Lines[i], "\r\n"))
		}
	}
	return out
}

func containsAny(s string, subs []string) bool {
	for _, v := range subs {
		if v != "" && strings.Contains(s, v) {
			return true
		}
	}
	return false
}
