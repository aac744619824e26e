package sweepact

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/records"
)

// The comment lines ARCHIVE.md carries under a cut pointer, and under a
// restore note: what restore needs to put a pointer back where it was,
// byte for byte. They are indented HTML comments, so Markdown shows
// nothing and no reader takes them for pointer lines; their JSON escapes
// '<' and '>', so a comment never closes early.
const (
	cutMetaPrefix      = "<!-- memcompact:cut "
	restoredMetaPrefix = "<!-- memcompact:restored "
	metaSuffix         = " -->"
)

// cutMeta is one cut as ARCHIVE.md records it.
type cutMeta struct {
	Sweep    string    `json:"sweep"`          // the digest (12) of the index the sweep rewrote
	Line     int       `json:"line"`           // 1-based original line
	N        int       `json:"n"`              // ordinal among that line's subject links
	Orig     string    `json:"orig,omitempty"` // the whole original line, when not the pointer line itself
	From     string    `json:"from,omitempty"` // the section heading above it
	Prev     int       `json:"prev,omitempty"` // the anchor line's original number
	PrevText string    `json:"prev_text,omitempty"`
	Next     int       `json:"next,omitempty"` // the anchor below, when the one above is gone
	NextText string    `json:"next_text,omitempty"`
	Ctx      []CtxLine `json:"ctx,omitempty"`

	visible string // the archive line above the comment
}

// restoredMeta marks one cut restored.
type restoredMeta struct {
	Sweep string `json:"sweep"`
	Line  int    `json:"line"`
	N     int    `json:"n"`
}

func sweepID(s *store) string { return short(s.index.Digest) }

func encodeCutMeta(c Cut, sweep string) string {
	m := cutMeta{Sweep: sweep, Line: c.Slot.Line, N: c.Slot.Nth, From: c.Section, Prev: c.Prev, PrevText: c.PrevText, Next: c.Next, NextText: c.NextText, Ctx: c.Ctx}
	if c.Orig != c.Segment {
		m.Orig = c.Orig
	}
	b, _ := json.Marshal(m) // json.Marshal escapes <, > and &
	return "  " + cutMetaPrefix + string(b) + metaSuffix
}

func encodeRestoredMeta(m restoredMeta) string {
	b, _ := json.Marshal(m)
	return "  " + restoredMetaPrefix + string(b) + metaSuffix
}

// decodeMeta reads a comment line of prefix into v.
func decodeMeta(line, prefix string, v any) bool {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, prefix) || !strings.HasSuffix(t, metaSuffix) {
		return false
	}
	return json.Unmarshal([]byte(t[len(prefix):len(t)-len(metaSuffix)]), v) == nil
}

// archiveMeta is what ARCHIVE.md records of cuts and restores.
type archiveMeta struct {
	cuts     []cutMeta
	restored map[restoredMeta]bool
}

func readArchiveMeta(lines []string) archiveMeta {
	am := archiveMeta{restored: map[restoredMeta]bool{}}
	for i, l := range lines {
		var c cutMeta
		if i > 0 && decodeMeta(l, cutMetaPrefix, &c) {
			c.visible = lines[i-1]
			if c.Orig == "" {
				c.Orig = c.visible
			}
			am.cuts = append(am.cuts, c)
			continue
		}
		var r restoredMeta
		if decodeMeta(l, restoredMetaPrefix, &r) {
			am.restored[r] = true
		}
	}
	return am
}

// newestCut is the last recorded cut whose pointer names name.
func (am archiveMeta) newestCut(name string) (cutMeta, bool) {
	for i := len(am.cuts) - 1; i >= 0; i-- {
		c := am.cuts[i]
		for _, sub := range records.Subjects([]string{c.visible}) {
			if strings.EqualFold(sub.Name, name) {
				return c, true
			}
		}
	}
	return cutMeta{}, false
}

// sweepState is one sweep's cuts as they stand now: which original lines
// it took out whole, which of their slots are back.
type sweepState struct {
	orig     map[int]string       // original line → its text
	cut      map[int]map[int]bool // original line → its slots cut
	restored map[int]map[int]bool // original line → its slots restored
	ctx      map[int]string       // original lines dropped with an emptied section
	ctxOf    map[int][]int        // ctx line → the pointer lines of its section
}

func (am archiveMeta) sweepState(id string) *sweepState {
	st := &sweepState{orig: map[int]string{}, cut: map[int]map[int]bool{}, restored: map[int]map[int]bool{}, ctx: map[int]string{}, ctxOf: map[int][]int{}}
	for _, c := range am.cuts {
		if c.Sweep != id {
			continue
		}
		st.orig[c.Line] = c.Orig
		if st.cut[c.Line] == nil {
			st.cut[c.Line], st.restored[c.Line] = map[int]bool{}, map[int]bool{}
		}
		st.cut[c.Line][c.N] = true
		if am.restored[restoredMeta{id, c.Line, c.N}] {
			st.restored[c.Line][c.N] = true
		}
		for _, x := range c.Ctx {
			st.ctx[x.Num] = x.Text
			if !slices.Contains(st.ctxOf[x.Num], c.Line) {
				st.ctxOf[x.Num] = append(st.ctxOf[x.Num], c.Line)
			}
		}
	}
	return st
}

// subjectCount is how many subject links an original line carries.
func subjectCount(text string) int {
	return len(index.Parse([]string{text}).Lines[0].Subjects())
}

// whole reports whether the sweep took original line x out whole.
func (st *sweepState) whole(x int) bool {
	if _, ok := st.ctx[x]; ok {
		return true
	}
	cut, ok := st.cut[x]
	return ok && len(cut) == subjectCount(st.orig[x])
}

// present reports whether original line x is in the index now: never
// taken out whole, or brought back (a pointer line with a slot restored;
// a dropped heading or blank line with a pointer of its section back).
func (st *sweepState) present(x int) bool {
	if !st.whole(x) {
		return true
	}
	if _, ok := st.ctx[x]; ok {
		for _, l := range st.ctxOf[x] {
			if len(st.restored[l]) > 0 {
				return true
			}
		}
		return false
	}
	return len(st.restored[x]) > 0
}

// lineNow is original line x's text with the slots present now (plus
// extra, when ≥ 0).
func (st *sweepState) lineNow(x, extra int) string {
	text := st.orig[x]
	subs := index.Parse([]string{text}).Lines[0].Subjects()
	return rebuildLine(text, subs, func(n int) bool {
		return n == extra || !st.cut[x][n] || st.restored[x][n]
	})
}

// placeCut puts cut c back into lines (the index now), byte for byte where
// it was: the sweep's other cuts and restores tell which of the original
// lines between its anchor and it are present, so restoring every cut of a
// sweep, in any order, gives back the index the sweep rewrote. ok is false
// when the anchor is not where it was and cannot be found (the index was
// edited around it since): the caller falls back to the section.
func placeCut(lines []string, c cutMeta, st *sweepState) ([]string, int, bool) {
	// a: the index of the anchor above now (-1: the file's start); when
	// it was edited since, the anchor below tells where it would be.
	a, ok := st.anchor(lines, c.Prev, c.PrevText)
	if !ok && c.Next > 0 {
		var b int
		if b, ok = st.anchor(lines, c.Next, c.NextText); ok {
			a = b - 1
			for y := c.Prev + 1; y < c.Next; y++ {
				if st.present(y) {
					a--
				}
			}
		}
	}
	if !ok {
		return nil, 0, false
	}
	pos := func(x int) int {
		p := a + 1
		for y := c.Prev + 1; y < x; y++ {
			if st.present(y) {
				p++
			}
		}
		return p
	}
	out := slices.Clone(lines)
	if st.present(c.Line) {
		// Part of its line is still there (or came back): rebuild it.
		now := st.lineNow(c.Line, -1)
		p := pos(c.Line)
		if p >= len(out) || out[p] != now {
			if p = nearest(out, now, p); p < 0 {
				return nil, 0, false
			}
		}
		out[p] = st.lineNow(c.Line, c.N)
		return out, p, true
	}
	// Its line went whole: bring back the section lines dropped with it,
	// then the line.
	var ctx []int
	for x := range st.ctx {
		if slices.Contains(st.ctxOf[x], c.Line) && !st.present(x) {
			ctx = append(ctx, x)
		}
	}
	st.restored[c.Line][c.N] = true // from here on the line and its section count as present
	at := 0
	for _, x := range slices.Sorted(slices.Values(append(ctx, c.Line))) {
		text := st.ctx[x]
		if x == c.Line {
			text = st.lineNow(x, -1)
		}
		p := min(pos(x), len(out))
		out = slices.Insert(out, p, text)
		if x == c.Line {
			at = p
		}
	}
	return out, at, true
}

// anchor finds original line x (of text) in lines: where the sweep's
// cuts and restores put it, or the nearest line with its text. x 0 is the
// file's start (-1).
func (st *sweepState) anchor(lines []string, x int, text string) (int, bool) {
	if x <= 0 {
		return -1, true
	}
	want := x - 1
	for y := 1; y < x; y++ {
		if !st.present(y) {
			want--
		}
	}
	i := nearest(lines, text, want)
	return i, i >= 0
}

// nearest is the index of the line equal to text closest to want, or -1.
func nearest(lines []string, text string, want int) int {
	best := -1
	for i, l := range lines {
		if l == text && (best < 0 || abs(i-want) < abs(best-want)) {
			best = i
		}
	}
	return best
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// parseLine is the subject links of one line.
func parseLine(text string) []index.Link {
	return index.Parse([]string{text}).Lines[0].Subjects()
}
