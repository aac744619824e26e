package compact

import (
	"fmt"
	"strings"

	"github.com/memcompact/memcompact/internal/distill"
	"github.com/memcompact/memcompact/internal/lazyre"
	"github.com/memcompact/memcompact/internal/tiers"
)

var (
	headingRE = lazyre.New(`^ {0,3}(#{1,6})(?:[ \t]|$)`)
	breakRE   = lazyre.New(`^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$`)
)

// assemble renders the new file: the block where the first distilled entry
// was (or where the old block was), distilled entries and the old block
// gone, the mid tier lightened when asked, everything else verbatim.
func (pl *Plan) assemble(snapRel string, lighten bool) (text, block string, removed int) {
	d, t, eol := pl.doc, pl.tiers, pl.eol
	n := len(d.Lines)
	drop := make([]bool, n)
	for _, i := range pl.distill {
		for j := d.Entries[i].Start; j < d.Entries[i].End; j++ {
			drop[j] = true
		}
	}
	if h := d.History; h != nil {
		for j := h.Start; j < h.End; j++ {
			drop[j] = true
		}
	}
	repl := map[int][]string{}
	if lighten {
		for i := t.MidStart; i < t.NewestStart; i++ {
			if _, s := pl.secret[i]; s {
				continue
			}
			e := d.Entries[i]
			kept := distill.Lighten(d.Lines[e.Start:e.End])
			removed += e.Lines() - len(kept)
			repl[e.Start] = kept
			for j := e.Start; j < e.End; j++ {
				drop[j] = true
			}
		}
	}

	anchor := -1
	switch {
	case d.History != nil:
		anchor = d.History.Start
	case len(pl.distill) > 0:
		anchor = pl.sectionAnchor(pl.distill[0])
	}

	out := make([]string, 0, n)
	at := -1
	for i := 0; i < n; i++ {
		if i == anchor {
			at = len(out)
		}
		if r, ok := repl[i]; ok {
			out = append(out, r...)
		}
		if !drop[i] {
			out = append(out, d.Lines[i])
		}
	}
	// A round that distilled entries always writes the block, bullets or
	// not: its provenance line is what names the snapshot holding them.
	if anchor < 0 || (len(pl.distill) == 0 && len(pl.bullets) == 0 && len(pl.oldBody) == 0 && len(pl.prov.snapshots) == 0) {
		return strings.Join(out, ""), "", removed
	}

	var b strings.Builder
	if at > 0 && strings.TrimSpace(out[at-1]) != "" {
		b.WriteString(eol)
	}
	heading := "## Compacted History" + eol
	if h := d.History; h != nil {
		heading = strings.TrimRight(d.Lines[h.Start], "\r\n") + eol
	}
	b.WriteString(heading)
	// No blank line between the provenance line and the bullets: a list
	// may follow a paragraph directly in Markdown, and on a small file
	// every line of the block's fixed overhead counts against the budget.
	b.WriteString(pl.prov.line(len(pl.distill), pl.o.Today.Format("2006-01-02"), snapRel) + eol)
	for _, l := range pl.oldBody {
		b.WriteString(l)
	}
	for _, bl := range pl.bullets {
		// Nested lines are indented under the bullet's text.
		b.WriteString("- " + strings.ReplaceAll(bl, "\n", eol+"  ") + eol)
	}
	if len(pl.dropped) > 0 {
		// What the summarizer declared dropped is named, and where its
		// full text is: an agent reading the file knows to look there.
		b.WriteString("- " + droppedLine(pl.dropped, snapRel) + eol)
	}
	b.WriteString(eol)
	if pl.needsBreak(out, at) {
		b.WriteString("---" + eol + eol)
	}
	block = b.String()
	text = strings.Join(out[:at], "") + block + strings.Join(out[at:], "")
	return text, block, removed
}

// sectionAnchor is where a new block goes, given the first distilled
// entry. When the entries sit under a section heading of their own — list
// items under "## Memories", or "### 2026-…" entries under "## Important
// Memories" — and nothing but that heading's intro and secret entries kept
// in place comes between the heading and the first distilled entry, the
// block goes before that heading: a "## Compacted History" inside the
// section would end it, and the entries after the block would read as
// part of the history. Otherwise the block takes the first distilled
// entry's place.
func (pl *Plan) sectionAnchor(first int) int {
	d := pl.doc
	start := d.Entries[first].Start
	level := d.Level // entries are headings of this level
	switch {
	case d.Mode == tiers.ModeList:
		level = 7 // any heading is a list's section
	case level <= 2:
		return start // "##" entries (or a regexp's): no section to leave
	}
	k := first - 1 // the entry before line j, walking back
	for j := start - 1; j >= 0; j-- {
		for k >= 0 && d.Entries[k].Start > j {
			k--
		}
		if k >= 0 && j < d.Entries[k].End {
			if _, secret := pl.secret[k]; !secret {
				return start
			}
			continue
		}
		l := strings.TrimRight(d.Lines[j], "\r\n")
		if m := headingRE().FindStringSubmatch(l); m != nil {
			if lv := len(m[1]); lv >= 2 && lv < level {
				return j
			}
			return start
		}
	}
	return start
}

// needsBreak reports whether the block must end with a "---" separator: when
// what follows is not a heading that would end it anyway, or when the
// entries it replaces were themselves separated that way (a topic diary).
func (pl *Plan) needsBreak(out []string, at int) bool {
	if at >= len(out) {
		return false
	}
	if len(pl.distill) > 0 {
		e := pl.doc.Entries[pl.distill[len(pl.distill)-1]]
		for j := e.End - 1; j >= e.Start; j-- {
			l := strings.TrimRight(pl.doc.Lines[j], "\r\n")
			if strings.TrimSpace(l) == "" {
				continue
			}
			if breakRE().MatchString(l) {
				return true
			}
			break
		}
	}
	next := strings.TrimRight(out[at], "\r\n")
	if m := headingRE().FindStringSubmatch(next); m != nil && len(m[1]) <= 2 {
		return false
	}
	return true
}

// dedupe drops bullets that repeat, word for word, an earlier bullet or a
// bullet of the existing block. (Near-duplicates are the summarizer's
// business: two lines that differ only in punctuation can differ in a
// fact, and the fact check would then abort the compaction.)
func dedupe(bullets, oldBody []string) []string {
	seen := map[string]bool{}
	for _, l := range oldBody {
		seen[strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "- "))] = true
	}
	var out []string
	for _, b := range bullets {
		b = strings.TrimSpace(b)
		if b == "" || seen[b] {
			continue
		}
		seen[b] = true
		out = append(out, b)
	}
	return out
}

func isBlankOrBreak(l string) bool {
	t := strings.TrimRight(l, "\r\n")
	return strings.TrimSpace(t) == "" || breakRE().MatchString(t)
}

// droppedLine is the block's line for the facts a summary declared
// dropped: each named, and the snapshot that holds their full text.
func droppedLine(dropped []string, snapRel string) string {
	names := make([]string, len(dropped))
	for i, d := range dropped {
		names[i] = strings.TrimRight(strings.ReplaceAll(strings.TrimSpace(d), "\n", " "), ".;")
	}
	return fmt.Sprintf("Dropped by the summarizer (%d, full text in %s): %s.", len(dropped), snapRel, strings.Join(names, "; "))
}
