package compact

import (
	"fmt"
	"strings"

	"github.com/memcompact/memcompact/internal/distill"
	"github.com/memcompact/memcompact/internal/facts"
	"github.com/memcompact/memcompact/internal/secrets"
	"github.com/memcompact/memcompact/internal/summarize"
	"github.com/memcompact/memcompact/internal/textfile"
	"github.com/memcompact/memcompact/internal/tiers"
)

// verify checks a rewrite, whoever wrote its block (the built-in
// summarizer, a command, an agent); it returns "" or why the rewrite must
// not be written:
//
//   - the newest tier is byte-identical (checked by splitting again);
//   - every must-keep statement of the distilled entries and of an earlier
//     block (distill.MustKeep) is still in the live file;
//   - the block names the new snapshot and every snapshot an earlier
//     block named, so every original line stays reachable;
//   - every code block and table in the block is one of the file's, whole;
//   - a summary that is not the built-in one puts no statement under a
//     parent it does not belong to (misplaced, where that is checkable);
//   - no secret in the block; every secret entry still verbatim;
//   - a summary that is not the built-in one says what the entries say
//     (meaningFaults: grounded, same polarity, same numbers, each fact
//     under its own name, no reversed rule restated, health facts kept);
//   - a lightened mid tier keeps every fact.
//
// Facts of the distilled entries that the block does not carry are not a
// failure: they live on in the snapshot the block names, and the report
// counts them.
func (pl *Plan) verify(newText, block string) string {
	if msg := pl.verifyNewest(newText); msg != "" {
		return msg
	}
	flat := distill.Flat(newText)
	var lost []string
	for _, s := range pl.mustKeep() {
		if !strings.Contains(flat, distill.Flat(s)) && !declaredDropped(s, pl.dropped) {
			lost = append(lost, s)
		}
	}
	if len(lost) > 0 {
		pl.Report.LostKeep = lost
		msg := fmt.Sprintf("%d %s that must stay in the file would leave it (first: %q); nothing was written", len(lost), textfile.Plural(len(lost), "statement", "statements"), lost[0])
		if pl.o.Summary != nil || pl.o.Model != nil || pl.o.Command != "" {
			msg += fmt.Sprintf("; keep each word for word, or declare it in a bullet that starts %q, or add --fallback builtin", summarize.DroppedPrefix)
		}
		return msg
	}
	if pl.o.Summary != nil || pl.o.Model != nil {
		if m := pl.misplaced(pl.bullets); len(m) > 0 {
			pl.Report.Misplaced = m
			return fmt.Sprintf("the summary puts %d %s under the wrong parent (first: %s); nothing was written", len(m), textfile.Plural(len(m), "statement", "statements"), m[0])
		}
	}
	if block != "" {
		for _, s := range append(append([]string(nil), pl.prov.snapshots...), pl.snapRel()) {
			if s != "" && !strings.Contains(block, s) {
				return fmt.Sprintf("the history block would no longer name the snapshot %s; nothing was written", s)
			}
		}
		if g := foreignStructure(block, pl.orig.Text); g != "" {
			return fmt.Sprintf("the history block holds a code block or table that is not in the file (%q); nothing was written", g)
		}
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
	if pl.o.Summary != nil || pl.o.Model != nil || pl.o.Command != "" {
		if f := meaningFaults(sourceTexts(pl.sources(pl.k), pl.o.Rel), withDropped(pl.bullets, pl.dropped)); len(f) > 0 {
			pl.Report.Unfaithful = f
			return fmt.Sprintf("the summary says what the entries do not say (%d %s; first: %s); nothing was written; the built-in summarizer keeps to its entries: run again with --summarizer builtin, or add --fallback builtin", len(f), textfile.Plural(len(f), "fault", "faults"), f[0])
		}
	}
	d, t := pl.doc, pl.tiers
	for i := range pl.secret {
		if !strings.Contains(newText, d.EntryText(i)) {
			return fmt.Sprintf("the secret entry at line %d would not stay verbatim; nothing was written", d.Entries[i].Start+1)
		}
	}
	if pl.lighten {
		var mid strings.Builder
		for i := pl.k; i < t.NewestStart; i++ {
			mid.WriteString(d.EntryText(i))
		}
		if missing := facts.Missing(facts.Extract(mid.String()), newText); len(missing) > 0 {
			pl.Report.Missing = missing
			return "lightening the mid tier would lose facts; nothing was written"
		}
	}
	return ""
}

// verifyNewest checks that the newest tier survives byte for byte.
func (pl *Plan) verifyNewest(newText string) string {
	d, t := pl.doc, pl.tiers
	opt := tiers.Options{EntryHeading: pl.o.EntryHeading}
	if d.Mode == tiers.ModeHeading {
		// The repeated-heading rule counts headings; pin the level so the
		// check compares like with like.
		opt.EntryHeading = strings.Repeat("#", d.Level)
	}
	d2, err := tiers.Split(newText, opt)
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
	return ""
}

// foreignStructure returns the first fenced code block or table of block
// (its lines with the indentation of the bullet removed) that is not,
// whole and byte for byte, in orig; "" if there is none.
func foreignStructure(block, orig string) string {
	orig = textfile.Normalize(orig)
	var group []string
	fence := ""
	check := func() string {
		if len(group) == 0 {
			return ""
		}
		g := strings.Join(dedentLines(group), "\n")
		group = nil
		if !strings.Contains(orig, g) {
			return g
		}
		return ""
	}
	for _, l := range strings.Split(textfile.Normalize(block), "\n") {
		t := strings.TrimSpace(l)
		switch {
		case fence != "":
			group = append(group, l)
			if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				fence = ""
				if g := check(); g != "" {
					return g
				}
			}
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			if g := check(); g != "" {
				return g
			}
			fence = t[:3]
			group = append(group, l)
		case strings.HasPrefix(t, "|") && strings.HasSuffix(t, "|") && len(t) > 1:
			group = append(group, l)
		default:
			if g := check(); g != "" {
				return g
			}
		}
	}
	return check()
}

// dedentLines removes the indentation common to lines.
func dedentLines(lines []string) []string {
	least := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if n := len(l) - len(strings.TrimLeft(l, " ")); least < 0 || n < least {
			least = n
		}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		if least > 0 && len(l) >= least {
			out[i] = l[least:]
		} else {
			out[i] = l
		}
	}
	return out
}

// withDropped is bullets with the declared drops as "Dropped:" bullets
// again, as the summary wrote them.
func withDropped(bullets, dropped []string) []string {
	out := append([]string(nil), bullets...)
	for _, d := range dropped {
		out = append(out, summarize.DroppedPrefix+" "+d)
	}
	return out
}

// declaredDropped reports whether statement s is one a summary declared
// dropped: a "Dropped:" bullet names it (most of its words, or its names
// and most of the bullet's words).
func declaredDropped(s string, dropped []string) bool {
	if len(dropped) == 0 {
		return false
	}
	drops := make([]unit, len(dropped))
	for i, d := range dropped {
		drops[i] = newUnit(d)
	}
	return carriedBy(newUnit(s), drops)
}
