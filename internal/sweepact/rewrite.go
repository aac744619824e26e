package sweepact

import (
	"fmt"
	"maps"
	"strings"

	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/recall"
	"github.com/memcompact/memcompact/internal/records"
)

// Slot names one subject link on the index: its 1-based line and its
// ordinal among that line's subject links (0-based).
type Slot struct {
	Line int
	Nth  int
}

// Cut is what a rebuild took out of the index for one slot: the subject's
// own segment (its link and its clause, verbatim), the heading of the
// section it sat in, and whether its whole line went.
type Cut struct {
	Slot    Slot
	Segment string // "- " + the segment, a pointer line of its own
	Section string // the "## " heading above it, "" when none
}

// separators are what may trail a segment that is no longer last on its
// line; they are trimmed so a rebuilt line does not end in a dangling ";".
const separators = " \t;,·|/"

// rebuild removes the given slots from the parsed index. A line whose
// every subject goes is dropped whole; a line carrying several subjects is
// rebuilt from its opening (bullet and any leading text) and the
// survivors' segments, each verbatim. A "## " section left with nothing but blank lines by the
// removal loses its heading too. It returns the new lines and what was
// cut, in slot order.
func rebuild(ix *index.Index, drop map[Slot]bool) ([]string, []Cut) {
	var cuts []Cut
	out := make([]string, 0, len(ix.Lines))
	section := ""
	emptied := map[int]bool{} // out positions of headings whose pointers all went
	headingAt, lostAll := -1, false
	keptInSection := false
	closeSection := func() {
		if headingAt >= 0 && lostAll && !keptInSection {
			emptied[headingAt] = true
		}
	}
	for i := range ix.Lines {
		l := &ix.Lines[i]
		if l.Heading {
			closeSection()
			section = strings.TrimSpace(l.Text)
			headingAt, lostAll, keptInSection = len(out), false, false
			out = append(out, l.Text)
			continue
		}
		subs := l.Subjects()
		var gone []int
		for n := range subs {
			if drop[Slot{l.Num, n}] {
				gone = append(gone, n)
			}
		}
		if len(gone) == 0 {
			out = append(out, l.Text)
			if strings.TrimSpace(l.Text) != "" {
				keptInSection = true
			}
			continue
		}
		lostAll = true
		segs := segments(l.Text, subs)
		bullet := l.Text[:index.BulletLen(l.Text)]
		for _, n := range gone {
			cuts = append(cuts, Cut{Slot: Slot{l.Num, n}, Segment: "- " + trimSegment(segs[n]), Section: section})
		}
		if len(gone) == len(subs) {
			continue
		}
		lead := l.Text[len(bullet):subs[0].Start]
		var b strings.Builder
		b.WriteString(bullet)
		b.WriteString(lead)
		keptSegs := 0
		for n := range subs {
			if drop[Slot{l.Num, n}] {
				continue
			}
			if keptSegs > 0 && !strings.HasSuffix(b.String(), " ") {
				b.WriteString(" ")
			}
			b.WriteString(segs[n])
			keptSegs++
		}
		out = append(out, strings.TrimRight(b.String(), separators))
		keptInSection = true
	}
	closeSection()
	if len(emptied) == 0 {
		return out, cuts
	}
	final := make([]string, 0, len(out))
	for i := 0; i < len(out); i++ {
		if emptied[i] {
			// Drop the heading and the blank lines that followed it.
			for i+1 < len(out) && strings.TrimSpace(out[i+1]) == "" && !isHeadingNext(out, i+1) {
				i++
			}
			continue
		}
		final = append(final, out[i])
	}
	return final, cuts
}

func isHeadingNext(out []string, i int) bool { return index.IsHeading(out[i]) }

// segments splits a pointer line into one segment per subject link: from
// the link's '[' to the next subject link's '[' (the last runs to the end
// of the line). Non-subject links stay inside the segment they fall in.
func segments(text string, subs []index.Link) []string {
	segs := make([]string, len(subs))
	for n, k := range subs {
		end := len(text)
		if n+1 < len(subs) {
			end = subs[n+1].Start
		}
		segs[n] = text[k.Start:end]
	}
	return segs
}

func trimSegment(s string) string { return strings.TrimRight(s, separators) }

// hookState is what judging a rebuild needs of the index before it: how
// many hooked links each target had, and the shared notes it carried.
// Its check refuses a rebuild that would trim a hook (R1: a surviving
// subject that had a recall hook before has none after) or fold subjects
// under one note (R2: a shared note the old index did not carry).
type hookState struct {
	hooked map[string]int
	notes  map[string]bool
}

func judgeHooks(ix *index.Index) hookState {
	subs, notes := recall.Judge(ix)
	h := hookState{hooked: map[string]int{}, notes: map[string]bool{}}
	for _, s := range subs {
		if s.HasHook {
			h.hooked[s.Target]++
		}
	}
	for _, n := range notes {
		h.notes[n.Note] = true
	}
	return h
}

// check judges the rebuilt index against the one before (see hookState).
func (h hookState) check(after *index.Index) error {
	aSubs, aNotes := recall.Judge(after)
	had := maps.Clone(h.hooked)
	for _, s := range aSubs {
		if s.HasHook {
			had[s.Target]--
		}
	}
	for _, s := range aSubs {
		if !s.HasHook && had[s.Target] > 0 {
			return fmt.Errorf("line %d: rebuilding it would leave '%s' without its recall hook (R1): %s", s.Line, s.Target, s.Reason)
		}
	}
	for _, n := range aNotes {
		if !h.notes[n.Note] {
			return fmt.Errorf("line %d: rebuilding it would put several subjects under one note (R2): %q", n.Line, n.Note)
		}
	}
	return nil
}

// slotsByName lists each entry name's subject links on the index.
func slotsByName(ix *index.Index) map[string][]Slot {
	out := map[string][]Slot{}
	for i := range ix.Lines {
		l := &ix.Lines[i]
		for n, k := range l.Subjects() {
			name := records.LinkName(k)
			out[name] = append(out[name], Slot{l.Num, n})
		}
	}
	return out
}
