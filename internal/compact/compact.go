package compact

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/distill"
	"github.com/memcompact/memcompact/internal/entries"
	"github.com/memcompact/memcompact/internal/facts"
	"github.com/memcompact/memcompact/internal/lazyre"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/secrets"
	"github.com/memcompact/memcompact/internal/snapshot"
	"github.com/memcompact/memcompact/internal/summarize"
	"github.com/memcompact/memcompact/internal/textfile"
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
}

// Plan is a compaction worked out in memory. Nothing is written until
// Write.
type Plan struct {
	Report *Report
	Code   outcome.Status // the status this outcome implies

	o        Options
	abs      string
	orig     *textfile.File
	doc      *entries.Doc
	tiers    entries.Tiers
	secret   map[int]string // entry index -> reason, for oldest and mid
	distill  []int          // entry indexes distilled
	bullets  []string       // new bullets
	oldBody  []string       // an existing block's body lines
	oldN     int            // entries an existing block was distilled from
	eol      string
	lighten  bool
	snapDir  string
	snapAbs  string
	newText  string
	required []facts.Fact // facts the block must hold, lines in the original file
	// tierSecrets are the secret values found in the oldest and mid
	// tiers: never a fact to keep, and looked for in the block in every
	// cheap encoding. Held in memory only.
	tierSecrets []string
}

var distilledRE = lazyre.New(`^\*Distilled from (\d+) entr(?:y|ies)\b`)

// Prepare plans the compaction of one file; see the package doc.
func Prepare(ctx context.Context, o Options) *Plan {
	rep := &Report{File: o.Rel, Unit: string(o.Row.Unit), Budget: o.Row.Budget, Secrets: []Secret{}, Summarizer: summarizerName(o)}
	pl := &Plan{Report: rep, o: o, abs: filepath.Join(o.Root, filepath.FromSlash(o.Rel)), snapDir: filepath.Join(o.Root, filepath.FromSlash(budget.SnapshotsRel))}
	f := o.File
	var err error
	if f == nil {
		f, err = textfile.Read(pl.abs)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return pl.refuse(outcome.Refused, "%s does not exist", o.Rel)
	}
	if err != nil {
		return pl.refuse(outcome.Refused, "%v", err)
	}
	body := f.Raw
	if f.HasBOM {
		body = body[len(textfile.BOM):]
	}
	if !utf8.Valid(body) || bytes.IndexByte(body, 0) >= 0 {
		return pl.refuse(outcome.Refused, "%s is not UTF-8 text; rewriting it would change bytes that are not entries", o.Rel)
	}
	pl.orig = f
	text := f.Text
	pl.eol = textfile.EOL(text)
	limit := o.Row.Budget - o.Reserve
	rep.SizeBefore = budget.Measure(text, o.Row.Unit)
	rep.SizeAfter = rep.SizeBefore
	if !o.Explicit && rep.SizeBefore <= limit {
		rep.Status = StatusWithin
		rep.Message = fmt.Sprintf("%s is %d/%d %s, within budget; nothing to do.", o.Rel, rep.SizeBefore, o.Row.Budget, o.Row.Unit)
		return pl
	}

	doc, err := entries.Split(text, entries.Options{EntryHeading: o.EntryHeading})
	if errors.Is(err, entries.ErrNoEntries) {
		rep.Reason = ReasonNoEntries
		return pl.refuse(outcome.Refused, "%s: %v; nothing was changed", o.Rel, err)
	}
	if err != nil {
		return pl.refuse(outcome.Usage, "%v", err)
	}
	pl.doc = doc
	rep.Mode = string(doc.Mode)
	rep.Entries = len(doc.Entries)
	pl.tiers = doc.Tier(o.Row.Newest)
	t := pl.tiers
	rep.Oldest = pl.tierSize(0, t.MidStart)
	rep.Mid = pl.tierSize(t.MidStart, t.NewestStart)
	rep.Newest = pl.tierSize(t.NewestStart, len(doc.Entries))

	pl.secret = map[int]string{}
	for i := 0; i < t.NewestStart; i++ {
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
			rep.Secrets = append(rep.Secrets, Secret{Line: e.Start + 1, Title: secretTitle(doc, e, excerpt), Reason: reason})
		} else if i < t.MidStart {
			pl.distill = append(pl.distill, i)
		}
	}

	// An existing block: its body is kept, its count carried on.
	if h := doc.History; h != nil {
		body := doc.Lines[h.Start+1 : h.End]
		if len(body) > 0 {
			if m := distilledRE().FindStringSubmatch(strings.TrimSpace(body[0])); m != nil {
				pl.oldN, _ = strconv.Atoi(m[1])
				body = body[1:]
			}
		}
		for len(body) > 0 && isBlankOrBreak(body[0]) {
			body = body[1:]
		}
		for len(body) > 0 && isBlankOrBreak(body[len(body)-1]) {
			body = body[:len(body)-1]
		}
		pl.oldBody = body
		if len(body) > 0 {
			last := body[len(body)-1]
			if !strings.HasSuffix(last, "\n") && !strings.HasSuffix(last, "\r") {
				pl.oldBody = append(append([]string(nil), body[:len(body)-1]...), last+pl.eol)
			}
		}
		for _, f := range pl.notSecret(facts.Extract(strings.Join(body, ""))) {
			f.Line += h.Start + 1 + (len(doc.Lines[h.Start+1:h.End]) - len(body))
			pl.required = append(pl.required, f)
		}
	}

	midEntries := 0
	for i := t.MidStart; i < t.NewestStart; i++ {
		if _, s := pl.secret[i]; !s {
			midEntries++
		}
	}
	if len(pl.distill) == 0 && midEntries == 0 {
		if rep.SizeBefore <= limit {
			rep.Status = StatusNothing
			rep.Message = fmt.Sprintf("%s: nothing to compact: %s; it is %d/%d %s.", o.Rel, whyNothing(rep, len(pl.secret)), rep.SizeBefore, o.Row.Budget, o.Row.Unit)
			return pl
		}
		return pl.shortfall(rep.SizeBefore, "nothing can be compacted: "+whyNothing(rep, len(pl.secret)))
	}

	// Distill.
	oldFacts := len(pl.required)
	var srcs []distill.Source
	for _, i := range pl.distill {
		s := distill.Source{Text: textfile.Normalize(doc.EntryText(i))}
		if doc.Mode != entries.ModeList {
			s.Title = doc.Entries[i].Title
		}
		srcs = append(srcs, s)
		for _, f := range pl.notSecret(facts.Extract(doc.EntryText(i))) {
			f.Line += doc.Entries[i].Start
			pl.required = append(pl.required, f)
		}
	}
	if o.PlanOnly {
		rep.Status = StatusPlanned
		rep.TierText = distill.TierText(srcs)
		rep.Facts = append([]facts.Fact{}, pl.required[oldFacts:]...)
		if next, err := snapshot.Next(pl.snapDir, o.Rel, o.Today, o.Now); err == nil {
			pl.snapAbs = next
			rep.Snapshot = pl.snapRel()
		}
		rep.Message = fmt.Sprintf("%s: %d %s to distill (%d lines); %d %s must survive.", o.Rel, len(srcs), textfile.Plural(len(srcs), "entry", "entries"), rep.Oldest.Lines, len(rep.Facts), textfile.Plural(len(rep.Facts), "fact", "facts"))
		return pl
	}
	if len(srcs) > 0 {
		var bullets []string
		switch {
		case o.Summary != nil:
			bullets = o.Summary
			if len(bullets) == 0 {
				return pl.abort("the summary %s has no bullets; nothing was written", o.SummaryName)
			}
		case o.Model != nil:
			b, err := pl.modelBullets(ctx, srcs, pl.required[oldFacts:])
			if err != nil {
				return pl.abort("%v; nothing was written", err)
			}
			bullets = b
		case o.Command != "":
			tier := distill.TierText(srcs)
			if secrets.Contains(tier) {
				return pl.abort("the text for the summarizer would hold a secret; nothing was sent or written")
			}
			b, err := distill.External(ctx, o.Command, tier, o.Timeout)
			if err != nil {
				return pl.abort("%v; nothing was written", err)
			}
			bullets = b
		default:
			if old, ok := bulletLines(pl.oldBody); ok {
				// The earlier block's bullets go first, so that what the
				// tier repeats is merged into them rather than added.
				bullets = distill.Builtin(append([]distill.Source{{Text: old, Kept: true}}, srcs...))
				pl.oldBody = nil
			} else {
				bullets = distill.Builtin(srcs)
			}
		}
		pl.bullets = dedupe(bullets, pl.oldBody)
	}

	// Rewrite; lighten the mid tier only if still over.
	snapAbs, err := snapshot.Next(pl.snapDir, o.Rel, o.Today, o.Now)
	if err != nil {
		return pl.refuse(outcome.Refused, "%v", err)
	}
	pl.snapAbs = snapAbs
	newText, block, _ := pl.assemble(pl.snapRel(), false)
	if budget.Measure(newText, o.Row.Unit) > limit && midEntries > 0 {
		pl.lighten = true
		newText, block, rep.MidRemoved = pl.assemble(pl.snapRel(), true)
		rep.MidLightened = true
	}
	return pl.finish(newText, block)
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
	// Losing a fact is the worse news, so it is checked (and reported)
	// before the budget.
	if msg := pl.verify(newText, block); msg != "" {
		return pl.abort("%s", msg)
	}
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
	return fmt.Sprintf("Compacted %d %s (%d %s) into a %d-%s history block. %s is now %d/%d %s. Snapshot: %s",
		rep.Compacted, textfile.Plural(rep.Compacted, "entry", "entries"), rep.CompactedSize, u, rep.BlockSize, one, rep.File, rep.SizeAfter, rep.Budget, u, rep.Snapshot)
}

// verify checks the rewrite; it returns "" or why the rewrite must not be
// written.
func (pl *Plan) verify(newText, block string) string {
	d, t := pl.doc, pl.tiers
	opt := entries.Options{EntryHeading: pl.o.EntryHeading}
	if d.Mode == entries.ModeHeading {
		// The repeated-heading rule counts headings; pin the level so the
		// check compares like with like.
		opt.EntryHeading = strings.Repeat("#", d.Level)
	}
	d2, err := entries.Split(newText, opt)
	if err != nil {
		return fmt.Sprintf("the rewritten file no longer splits into entries (%v); nothing was written", err)
	}
	k := len(d.Entries) - t.NewestStart
	if len(d2.Entries) < k {
		return "the newest tier would change; nothing was written"
	}
	for j := 0; j < k; j++ {
		if d.EntryText(t.NewestStart+j) != d2.EntryText(len(d2.Entries)-k+j) {
			return fmt.Sprintf("the newest tier would change at entry %q; nothing was written", d.Entries[t.NewestStart+j].Title)
		}
	}
	if missing := facts.Missing(pl.required, block); len(missing) > 0 {
		pl.Report.Missing = missing
		return fmt.Sprintf("the history block would lose %d %s; nothing was written", len(missing), textfile.Plural(len(missing), "fact", "facts"))
	}
	if fs := secrets.Scan(block); len(fs) > 0 {
		for _, f := range fs {
			pl.Report.SecretInBlock = append(pl.Report.SecretInBlock, fmt.Sprintf("block line %d: %s (%s)", f.Line, f.Excerpt, f.Rule))
		}
		return "the history block would hold a secret; nothing was written"
	}
	if fs := secrets.Encoded(block, pl.tierSecrets); len(fs) > 0 {
		for _, f := range fs {
			pl.Report.SecretInBlock = append(pl.Report.SecretInBlock, fmt.Sprintf("block line %d: %s (%s)", f.Line, f.Excerpt, f.Rule))
		}
		return "the history block would hold a secret of the compacted entries, encoded; nothing was written"
	}
	for i := range pl.secret {
		if !strings.Contains(newText, d.EntryText(i)) {
			return fmt.Sprintf("the secret entry at line %d would not stay verbatim; nothing was written", d.Entries[i].Start+1)
		}
	}
	if pl.lighten {
		var mid strings.Builder
		for i := t.MidStart; i < t.NewestStart; i++ {
			mid.WriteString(d.EntryText(i))
		}
		if missing := facts.Missing(facts.Extract(mid.String()), newText); len(missing) > 0 {
			pl.Report.Missing = missing
			return "lightening the mid tier would lose facts; nothing was written"
		}
	}
	return ""
}

// Write takes the snapshot and replaces the file. If another snapshot took
// the planned name meanwhile, the block is re-rendered with the new name
// and verified again.
func (pl *Plan) Write() error {
	if pl.Report.Status != StatusCompacted {
		return fmt.Errorf("compact: nothing to write for %s (%s)", pl.o.Rel, pl.Report.Status)
	}
	// Neither the file nor its snapshot may land outside the root through
	// a symlinked file or directory.
	for _, p := range []string{pl.abs, pl.snapDir} {
		if err := atomicfile.Within(pl.o.Root, p); err != nil {
			return fmt.Errorf("%s: %w; nothing was written", pl.o.Rel, err)
		}
	}
	// A file already changed needs no snapshot: the replace would refuse.
	if err := atomicfile.Unchanged(pl.abs, pl.orig.Digest); err != nil {
		return fmt.Errorf("%s: %w; nothing was written", pl.o.Rel, err)
	}
	got, err := snapshot.Take(pl.snapDir, pl.o.Rel, pl.snapAbs, pl.orig.Raw, pl.o.Today, pl.o.Now)
	if err != nil {
		return fmt.Errorf("snapshot of %s: %w; the file was not changed", pl.o.Rel, err)
	}
	if got != pl.snapAbs {
		pl.snapAbs = got
		newText, block, _ := pl.assemble(pl.snapRel(), pl.lighten)
		if pl.finish(newText, block); pl.Report.Status != StatusCompacted {
			return fmt.Errorf("%s: %s", pl.o.Rel, pl.Report.Message)
		}
	}
	data := pl.newText + pl.o.Append
	if pl.orig.HasBOM {
		data = textfile.BOM + data
	}
	if err := atomicfile.Replace(pl.abs, []byte(data), pl.orig.Digest); err != nil {
		// A refused compaction leaves no snapshot: the file was not
		// changed, so the snapshot would only be a copy of nothing done.
		os.Remove(pl.snapAbs)
		return fmt.Errorf("%s: %w; the file was not changed and no snapshot was kept", pl.o.Rel, err)
	}
	return nil
}

// NewText is the rewritten file (without a BOM and without Append).
func (pl *Plan) NewText() string { return pl.newText }

func (pl *Plan) snapRel() string {
	if pl.snapAbs == "" {
		return ""
	}
	return budget.SnapshotsRel + "/" + filepath.Base(pl.snapAbs)
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
func secretTitle(d *entries.Doc, e entries.Entry, excerpt string) string {
	if d.Mode != entries.ModeList && !secrets.Contains(e.Title) {
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
// summarizer to merge into, when every line of it is a one-line "- "
// bullet or blank; otherwise (a block an agent or a person wrote in its
// own shape) the body is kept as it is and new bullets go after it.
func bulletLines(body []string) (string, bool) {
	var b strings.Builder
	n := 0
	for _, l := range body {
		t := strings.TrimRight(l, "\r\n")
		switch {
		case strings.TrimSpace(t) == "":
			continue
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

func containsAny(s string, subs []string) bool {
	for _, v := range subs {
		if v != "" && strings.Contains(s, v) {
			return true
		}
	}
	return false
}
