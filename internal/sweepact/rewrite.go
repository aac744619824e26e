package sweepact

import (
	"fmt"
	"maps"
	"slices"
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

// Cut is what a rebuild took out of the index for one slot, with what
// restore needs to put it back byte for byte where it was.
type Cut struct {
	Slot Slot
	// Segment is the subject's pointer text exactly as the owner wrote it:
	// the line's bullet and lead, then the subject's own segment (its
	// emphasis, link, hook and trailing punctuation); the whole line when
	// it carried one subject.
	Segment string
	Section string // the "## " heading above it, "" when none
	Orig    string // the whole original line, byte for byte
	// Prev is the original line number of the nearest line above it that
	// the rebuild left as it was (0: none), PrevText that line's text: the
	// anchor restore finds its place by.
	Prev     int
	PrevText string
	// Next and NextText are the same below it: the anchor restore falls
	// back on when the line above was edited since.
	Next     int
	NextText string
	// Ctx are the lines the rebuild dropped with it because its section
	// emptied (the heading and the blank lines after it), by original
	// line number.
	Ctx []CtxLine
}

// CtxLine is an original line dropped with a cut: its 1-based number and
// its text.
type CtxLine struct {
	Num  int    `json:"n"`
	Text string `json:"t"`
}

// rebuild removes the given slots from the parsed index. A line whose
// every subject goes is dropped whole; a line carrying several subjects is
// rebuilt by rebuildLine from its own bytes. A "## " section left with
// nothing but blank lines by the removal loses its heading too. It
// returns the new lines and what was cut, in slot order.
func rebuild(ix *index.Index, drop map[Slot]bool) ([]string, []Cut) {
	type outLine struct {
		text string
		orig int // 1-based original line
	}
	var cuts []Cut
	out := make([]outLine, 0, len(ix.Lines))
	section := ""
	emptied := map[int][]int{} // out positions of headings whose pointers all went → their section's cuts
	headingAt, lostAll := -1, false
	keptInSection := false
	var sectionCuts []int
	closeSection := func() {
		if headingAt >= 0 && lostAll && !keptInSection {
			emptied[headingAt] = sectionCuts
		}
	}
	for i := range ix.Lines {
		l := &ix.Lines[i]
		if l.Heading {
			closeSection()
			section = strings.TrimSpace(l.Text)
			headingAt, lostAll, keptInSection, sectionCuts = len(out), false, false, nil
			out = append(out, outLine{l.Text, l.Num})
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
			out = append(out, outLine{l.Text, l.Num})
			if strings.TrimSpace(l.Text) != "" {
				keptInSection = true
			}
			continue
		}
		lostAll = true
		for _, n := range gone {
			sectionCuts = append(sectionCuts, len(cuts))
			cuts = append(cuts, Cut{Slot: Slot{l.Num, n}, Segment: rebuildLine(l.Text, subs, func(k int) bool { return k == n }), Section: section, Orig: l.Text})
		}
		if len(gone) == len(subs) {
			continue
		}
		out = append(out, outLine{rebuildLine(l.Text, subs, func(k int) bool { return !drop[Slot{l.Num, k}] }), l.Num})
		keptInSection = true
	}
	closeSection()
	final := make([]outLine, 0, len(out))
	for i := 0; i < len(out); i++ {
		if in, ok := emptied[i]; ok {
			// Drop the heading and the blank lines that followed it; the
			// cuts of its section carry them, so restore can put them back.
			ctx := []CtxLine{{out[i].orig, out[i].text}}
			for i+1 < len(out) && strings.TrimSpace(out[i+1].text) == "" && !index.IsHeading(out[i+1].text) {
				i++
				ctx = append(ctx, CtxLine{out[i].orig, out[i].text})
			}
			for _, c := range in {
				cuts[c].Ctx = ctx
			}
			continue
		}
		final = append(final, out[i])
	}
	// Each cut's anchor: the nearest original line above it left as it was.
	var unchanged []int
	lines := make([]string, len(final))
	for i, o := range final {
		lines[i] = o.text
		if o.text == ix.Lines[o.orig-1].Text {
			unchanged = append(unchanged, o.orig)
		}
	}
	for i := range cuts {
		k, _ := slices.BinarySearch(unchanged, cuts[i].Slot.Line)
		if k > 0 {
			cuts[i].Prev = unchanged[k-1]
			cuts[i].PrevText = ix.Lines[unchanged[k-1]-1].Text
		}
		if k < len(unchanged) {
			cuts[i].Next = unchanged[k]
			cuts[i].NextText = ix.Lines[unchanged[k]-1].Text
		}
	}
	return lines, cuts
}

// emphasis are the characters that may open a link's emphasis or code span
// right before its '[': they belong to the link's segment, not to the
// segment before it.
const emphasis = "*_~`"

// segStarts are where each subject link's segment begins on text: at its
// '[', moved back over the emphasis that opens it (never past the bullet
// or the link before).
func segStarts(text string, subs []index.Link) []int {
	starts := make([]int, len(subs))
	floor := index.BulletLen(text)
	for n, k := range subs {
		if n > 0 {
			floor = subs[n-1].End
		}
		p := k.Start
		for p > floor && strings.IndexByte(emphasis, text[p-1]) >= 0 {
			p--
		}
		starts[n] = p
	}
	return starts
}

// segments splits a pointer line into one segment per subject link: from
// its start (segStarts) to the next one's (the last runs to the end of the
// line). Non-subject links stay inside the segment they fall in.
func segments(text string, subs []index.Link) []string {
	starts := segStarts(text, subs)
	segs := make([]string, len(subs))
	for n := range subs {
		end := len(text)
		if n+1 < len(subs) {
			end = starts[n+1]
		}
		segs[n] = text[starts[n]:end]
	}
	return segs
}

// rebuildLine is text with only the subject segments keep says to keep:
// its opening (bullet and lead) and those segments, each byte for byte.
// When the last segment kept was not the line's last, the separator that
// led to the next one (spaces and one of ; , | · or a spaced /) is cut
// off; nothing else is. With every segment kept it is text itself.
func rebuildLine(text string, subs []index.Link, keep func(int) bool) string {
	segs := segments(text, subs)
	var b strings.Builder
	b.WriteString(text[:len(text)-len(strings.Join(segs, ""))])
	last := -1
	for n, seg := range segs {
		if keep(n) {
			b.WriteString(seg)
			last = n
		}
	}
	out := b.String()
	if last >= 0 && last < len(segs)-1 {
		out = out[:len(out)-sepTail(segs[last])]
	}
	return out
}

// sepTail is the length of the separator a segment ends with before the
// next: trailing spaces, then at most one separator mark (; , | or ·, or
// a / with a space before it), then spaces. A hook's own last character
// ("src/", "v2.") is never part of it.
func sepTail(seg string) int {
	i := len(strings.TrimRight(seg, " \t"))
	t := seg[:i]
	switch {
	case strings.HasSuffix(t, ";"), strings.HasSuffix(t, ","), strings.HasSuffix(t, "|"):
		t = t[:len(t)-1]
	case strings.HasSuffix(t, "·"):
		t = t[:len(t)-len("·")]
	case strings.HasSuffix(t, " /"):
		t = t[:len(t)-1]
	}
	return len(seg) - len(strings.TrimRight(t, " \t"))
}

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

// withDuplicateHooks is the index with each folded duplicate pointer's
// hook added to the pointer that stays (the subject's first line), so
// dropping a second pointer to one entry keeps every hook: the plan says
// "apply drops it and keeps every hook on line N", and this is that. A
// hook the line already carries is not added twice. It returns the
// index to rebuild and, per act, the hooks it carried over.
func withDuplicateHooks(ix *index.Index, acts []*act, byName map[string][]Slot) (*index.Index, map[*act][]string) {
	texts := make([]string, len(ix.Lines))
	for i := range ix.Lines {
		texts[i] = ix.Lines[i].Text
	}
	moved := map[*act][]string{}
	for _, a := range acts {
		if a.kind != "duplicates" {
			continue
		}
		dups := map[int]bool{}
		for _, l := range a.sub.DuplicateLines {
			dups[l] = true
		}
		keep := Slot{-1, -1}
		var hooks []string
		for _, sl := range byName[a.sub.Name] {
			switch {
			case dups[sl.Line]:
				l := &ix.Lines[sl.Line-1]
				hooks = append(hooks, slotHook(l.Text, l.Subjects(), sl.Nth))
			case keep.Line < 0:
				keep = sl
			}
		}
		if keep.Line < 0 {
			continue
		}
		text := texts[keep.Line-1]
		subs := parseLine(text)
		var add []string
		for _, h := range hooks {
			if h != "" && !strings.Contains(text, h) && !slices.Contains(add, h) {
				add = append(add, h)
			}
		}
		if len(add) == 0 || keep.Nth >= len(subs) {
			continue
		}
		texts[keep.Line-1] = withHooks(text, subs, keep.Nth, add)
		moved[a] = add
	}
	return index.Parse(texts), moved
}

// slotHook is what a subject's segment says besides its link: the text
// after the link and its closing emphasis, without the separators around
// it; the link's own text when nothing follows it.
func slotHook(text string, subs []index.Link, n int) string {
	starts := segStarts(text, subs)
	end := len(text)
	if n+1 < len(subs) {
		end = starts[n+1]
		end -= sepTail(text[starts[n]:end])
	}
	p := subs[n].End
	for p < end && strings.IndexByte(emphasis, text[p]) >= 0 {
		p++
	}
	rest := strings.TrimSpace(strings.TrimLeft(text[min(p, end):end], " \t—–-:·"))
	if rest == "" {
		return strings.TrimSpace(subs[n].Text)
	}
	return rest
}

// withHooks adds hooks at the end of subject n's segment of text (before
// the separator to the next segment).
func withHooks(text string, subs []index.Link, n int, hooks []string) string {
	starts := segStarts(text, subs)
	end := len(strings.TrimRight(text, " \t"))
	if n+1 < len(subs) {
		end = starts[n+1] - sepTail(text[starts[n]:starts[n+1]])
	}
	sep := "; "
	p := subs[n].End
	for p < end && strings.IndexByte(emphasis, text[p]) >= 0 {
		p++
	}
	if strings.TrimSpace(text[p:end]) == "" {
		sep = " — "
	}
	return text[:end] + sep + strings.Join(hooks, "; ") + text[end:]
}
