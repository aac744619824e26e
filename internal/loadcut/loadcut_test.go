package loadcut

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/memcompact/memcompact/internal/testshared"

	"github.com/memcompact/memcompact/internal/textfile"
)

// store builds an index: a title, a section heading, then n pointer lines,
// each padded with filler so that the line is exactly width UTF-16 units
// (without its terminator), joined by eol. pad is the padding character
// (its UTF-16 width must divide the padding).
func mkindex(n, width int, eol, pad string) (string, []Subject) {
	var b strings.Builder
	b.WriteString("# Memory" + eol + "## Entries" + eol)
	var subs []Subject
	for i := 1; i <= n; i++ {
		line := fmt.Sprintf("- [entry %d](feedback_%04d.md) — hook ", i, i)
		w := jsLen(line)
		padW := len(utf16.Encode([]rune(pad)))
		for w+padW <= width {
			line += pad
			w += padW
		}
		for w < width {
			line += "x"
			w++
		}
		b.WriteString(line + eol)
		subs = append(subs, Subject{Line: i + 2, Target: fmt.Sprintf("feedback_%04d.md", i), Dest: fmt.Sprintf("feedback_%04d.md", i), LinkText: fmt.Sprintf("entry %d", i)})
	}
	return b.String(), subs
}

func TestCompute(t *testing.T) {
	type want struct {
		limit        string
		firstCut     int // file line
		pastFrom     int // index into subjects of the first one past the cut; -1 none
		linesLoaded  int
		unitsLoaded  int
		linesOver    bool
		unitsOver    bool
		subjectTotal int
	}
	cases := []struct {
		name  string
		build func() (string, []Subject)
		want  want
	}{
		{
			// 2 header lines + 198 pointers = 200 lines: all loads.
			name:  "exactly 200 lines",
			build: func() (string, []Subject) { return mkindex(198, 40, "\n", "y") },
			want:  want{limit: LimitNone, pastFrom: -1, linesLoaded: 200, unitsLoaded: 8 + 1 + 10 + 1 + 198*41 - 1, subjectTotal: 198},
		},
		{
			name:  "line 201 is cut",
			build: func() (string, []Subject) { return mkindex(199, 40, "\n", "y") },
			want:  want{limit: LimitLines, firstCut: 201, pastFrom: 198, linesLoaded: 200, unitsLoaded: 8 + 1 + 10 + 1 + 198*41 - 1, linesOver: true, subjectTotal: 199},
		},
		{
			name:  "line 201 is cut, CRLF (the CR of line 200 is loaded)",
			build: func() (string, []Subject) { return mkindex(199, 40, "\r\n", "y") },
			want:  want{limit: LimitLines, firstCut: 201, pastFrom: 198, linesLoaded: 200, unitsLoaded: 22 + 198*42 - 1, linesOver: true, subjectTotal: 199},
		},
		{
			name:  "line 201 is cut, non-BMP padding",
			build: func() (string, []Subject) { return mkindex(199, 40, "\n", "🚀") },
			want:  want{limit: LimitLines, firstCut: 201, pastFrom: 198, linesLoaded: 200, unitsLoaded: 8 + 1 + 10 + 1 + 198*41 - 1, linesOver: true, subjectTotal: 199},
		},
		{
			name: "blank lines at the ends do not count",
			build: func() (string, []Subject) {
				s, subs := mkindex(198, 40, "\n", "y")
				for i := range subs {
					subs[i].Line += 3
				}
				return "\n \n\t\n" + s + "\n\n\n   \n", subs
			},
			want: want{limit: LimitNone, pastFrom: -1, linesLoaded: 200, unitsLoaded: 8 + 1 + 10 + 1 + 198*41 - 1, subjectTotal: 198},
		},
		{
			// 300 lines of 150 units: the unit limit bites long before line
			// 200. Header 20 units; pointer k's LF at 20 + 151k - 1 <= 25000
			// gives k = 165 (24,934).
			name:  "both over, units first",
			build: func() (string, []Subject) { return mkindex(298, 150, "\n", "y") },
			want:  want{limit: LimitUnits, firstCut: 168, pastFrom: 165, linesLoaded: 167, unitsLoaded: 24934, linesOver: true, unitsOver: true, subjectTotal: 298},
		},
		{
			// 300 lines of 100 units: over on both counts, but after the
			// line cut 200 lines are 20 + 198*101 - 1 units, under the limit.
			name:  "both over, lines first",
			build: func() (string, []Subject) { return mkindex(298, 100, "\n", "y") },
			want:  want{limit: LimitLines, firstCut: 201, pastFrom: 198, linesLoaded: 200, unitsLoaded: 20 + 198*101 - 1, linesOver: true, unitsOver: true, subjectTotal: 298},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text, subs := c.build()
			r := Compute(text, DefaultLines, DefaultUnits)
			w := c.want
			if r.Limit != w.limit || r.Cut != (w.limit != LimitNone) || r.FirstCutLine != w.firstCut {
				t.Errorf("limit %s cut %v first cut line %d; want %s, %d", r.Limit, r.Cut, r.FirstCutLine, w.limit, w.firstCut)
			}
			if r.LinesLoaded != w.linesLoaded || r.UnitsCounted() != w.unitsLoaded || r.LinesOver != w.linesOver || r.UnitsOver != w.unitsOver {
				t.Errorf("loaded %d lines %d units (over %v %v); want %d, %d (%v %v)", r.LinesLoaded, r.UnitsCounted(), r.LinesOver, r.UnitsOver, w.linesLoaded, w.unitsLoaded, w.linesOver, w.unitsOver)
			}
			if r.SubjectsTotal != w.subjectTotal {
				t.Errorf("subjects total %d, want %d", r.SubjectsTotal, w.subjectTotal)
			}
			var wantPast []Subject
			if w.pastFrom >= 0 {
				wantPast = subs[w.pastFrom:]
			}
			if fmt.Sprint(r.PastCut) != fmt.Sprint(wantPast) && !(len(r.PastCut) == 0 && len(wantPast) == 0) {
				t.Errorf("past the cut:\n%v\nwant:\n%v", head(r.PastCut), head(wantPast))
			}
			if o := oracle(text, DefaultLines, DefaultUnits); o != r.UnitsCounted() {
				t.Errorf("oracle keeps %d units, Compute %d", o, r.UnitsCounted())
			}
		})
	}
}

// TestUnitStraddle builds stores of 125 pointer lines (127 lines, under the
// line limit) whose length is exactly 25,000 units, and one unit more: the
// first loads whole, the second loses exactly its last subject, cut at the
// newline ending pointer 124.
func TestUnitStraddle(t *testing.T) {
	cases := []struct {
		name, eol, pad string
		width, last    int // width of pointers 1..124, and of pointer 125 at exactly 25,000
		loadedIfCut    int
	}{
		// LF: header 20 units, each line width+1; 20 + 124*200 - 1 = 24,819
		// before the last line's LF, 24,819 + 1 + 180 = 25,000.
		{"LF", "\n", "y", 199, 180, 24819},
		// CRLF: the CR counts. Header 22; 22 + 124*200 - 2 = 24,820 up to the
		// last CR, + 2 + 178 = 25,000. The cut keeps the CR of line 124.
		{"CRLF", "\r\n", "y", 198, 178, 24821},
		// Non-BMP padding: two units per emoji, same arithmetic as LF.
		{"non-BMP", "\n", "🚀", 199, 180, 24819},
	}
	for _, c := range cases {
		for extra := 0; extra <= 1; extra++ {
			t.Run(fmt.Sprintf("%s/%d", c.name, 25000+extra), func(t *testing.T) {
				text, subs := mkindex(124, c.width, c.eol, c.pad)
				lastText, lastSubs := mkindex(125, c.last+extra, c.eol, c.pad)
				lastLines := strings.SplitAfter(lastText, c.eol)
				text += strings.TrimSuffix(lastLines[len(lastLines)-2], c.eol) + c.eol
				subs = append(subs, lastSubs[124])
				r := Compute(text, DefaultLines, DefaultUnits)
				if r.UnitsTotal != 25000+extra {
					t.Fatalf("built %d units, want %d", r.UnitsTotal, 25000+extra)
				}
				if extra == 0 {
					if r.Cut || len(r.PastCut) != 0 || r.UnitsCounted() != 25000 || r.LinesLoaded != 127 {
						t.Errorf("at exactly the limit: %+v", r)
					}
					return
				}
				if !r.Cut || r.Limit != LimitUnits || r.UnitsCounted() != c.loadedIfCut || r.LinesLoaded != 126 || r.FirstCutLine != 127 {
					t.Errorf("one past the limit: %+v", r)
				}
				if fmt.Sprint(r.PastCut) != fmt.Sprint(subs[124:]) {
					t.Errorf("past the cut %v, want %v", r.PastCut, subs[124:])
				}
				if o := oracle(text, DefaultLines, DefaultUnits); o != r.UnitsCounted() {
					t.Errorf("oracle keeps %d units, Compute %d", o, r.UnitsCounted())
				}
			})
		}
	}
}

func head(s []Subject) []Subject {
	if len(s) > 3 {
		return s[:3]
	}
	return s
}

func TestComputeSmall(t *testing.T) {
	cases := []struct {
		name         string
		text         string
		lines, units int
		limit        string
		past         string // targets past the cut, space-separated
		firstCut     int
	}{
		{"empty", "", 200, 25000, LimitNone, "", 0},
		{"only blank", "\n\n  \n", 200, 25000, LimitNone, "", 0},
		{"small limits, lines", "## s\n- [a](a.md) — x\n- [b](b.md) — y\n", 2, 1000, LimitLines, "b.md", 3},
		{"several subjects on a cut line, link order", "## s\n- [a](a.md) — x\n- [b](b.md) — y, [c](c.md) — z\n", 2, 1000, LimitLines, "b.md c.md", 3},
		{"unit cut at a newline exactly at the limit", "## s\n- [a](a.md)\n- [b](b.md)\n", 1000, 16, LimitUnits, "b.md", 3},
		{"unit cut one short of that newline", "## s\n- [a](a.md)\n- [b](b.md)\n", 1000, 15, LimitUnits, "a.md b.md", 2},
		{"no newline: hard cut mid-line", "- [a](a.md) - [b](b.md) xxxxxxxxxx", 1000, 12, LimitUnits, "b.md", 1},
		{"hard cut keeps a link that fits", "- [a](a.md) - [b](b.md)", 1000, 11, LimitUnits, "b.md", 1},
		{"lone CR does not end a line for the harness", "## s\r- [a](a.md)\r- [b](b.md)\r", 2, 1000, LimitNone, "", 0},
		{"BOM trimmed, U+0085 not", "\uFEFF\n## s\n- [a](a.md)\n\u0085", 2, 1000, LimitLines, "", 4},
		{"BOM trimmed, U+0085 not: within", "\uFEFF\n## s\n- [a](a.md)\n\u0085", 3, 1000, LimitNone, "", 0},
		{"limits below 1 mean none", "## s\n- [a](a.md)\n- [b](b.md)\n", 0, 0, LimitNone, "", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Compute(c.text, c.lines, c.units)
			var past []string
			for _, s := range r.PastCut {
				past = append(past, s.Target)
			}
			if r.Limit != c.limit || strings.Join(past, " ") != c.past || r.FirstCutLine != c.firstCut {
				t.Errorf("got limit %s, past %q, first cut %d; want %s, %q, %d (%+v)", r.Limit, past, r.FirstCutLine, c.limit, c.past, c.firstCut, r)
			}
			if o := oracle(c.text, c.lines, c.units); o != r.UnitsCounted() {
				t.Errorf("oracle keeps %d units, Compute %d", o, r.UnitsCounted())
			}
		})
	}
}

// oracle is Claude Code's truncation written over UTF-16 code units, the
// way JavaScript sees the string, independently of Compute's byte-offset
// implementation. It returns how many units are kept. It cuts the text
// left once frontmatter and block comments are gone (tested on their own).
func oracle(text string, lines, units int) int {
	v := newView(text)
	v.stripFrontmatter()
	v.stripComments()
	u := utf16.Encode([]rune(string(v.s)))
	s, e := 0, len(u)
	for s < e && jsSpace(rune(u[s])) {
		s++
	}
	for e > s && jsSpace(rune(u[e-1])) {
		e--
	}
	t := u[s:e]
	n := 1
	for _, c := range t {
		if c == '\n' {
			n++
		}
	}
	if lines > 0 && n > lines {
		seen := 0
		for i, c := range t {
			if c == '\n' {
				seen++
				if seen == lines {
					t = t[:i]
					break
				}
			}
		}
	}
	if units > 0 && len(t) > units {
		cut := -1
		for i := min(units, len(t)-1); i >= 0; i-- {
			if t[i] == '\n' {
				cut = i
				break
			}
		}
		if cut > 0 {
			t = t[:cut]
		} else {
			t = t[:units]
			// Compute cannot keep half a surrogate pair; neither do we here.
			if len(t) > 0 && utf16.IsSurrogate(rune(t[len(t)-1])) && t[len(t)-1] < 0xDC00 {
				t = t[:len(t)-1]
			}
		}
	}
	return len(t)
}

// FuzzCompute checks Compute against the oracle on arbitrary text and
// small limits, and that every subject past the cut really lies after it.
func FuzzCompute(f *testing.F) {
	f.Add("## s\n- [a](a.md) — x\n- [b](b.md) — y\n", 2, 20)
	f.Add("\uFEFF  \r\n## s\r\n- [🚀](a.md)\r- [b](b.md)\n\n", 1, 7)
	f.Add("- [a](a.md) - [b](b.md) xxxxxxxxxx", 5, 12)
	f.Add("\n\n\n", 1, 1)
	f.Add("a\xffb\n- [x](y.md)", 1, 3)
	f.Fuzz(func(t *testing.T, text string, lines, units int) {
		lines, units = lines%300, units%400
		r := Compute(text, lines, units)
		if o := oracle(text, lines, units); o != r.UnitsCounted() {
			t.Fatalf("oracle keeps %d units, Compute %d (%+v)", o, r.UnitsCounted(), r)
		}
		if r.Cut != (len(r.PastCut) > 0 || r.Limit != LimitNone) && len(r.PastCut) > 0 {
			t.Fatalf("subjects past a cut that did not happen: %+v", r)
		}
		if !r.Cut && (r.Limit != LimitNone || r.FirstCutLine != 0) {
			t.Fatalf("no cut but limit %s, first cut line %d", r.Limit, r.FirstCutLine)
		}
		for i := 1; i < len(r.PastCut); i++ {
			if r.PastCut[i].Line < r.PastCut[i-1].Line {
				t.Fatalf("past-cut subjects out of order: %+v", r.PastCut)
			}
		}
		if len(r.PastCut) > r.SubjectsTotal {
			t.Fatalf("more past the cut than subjects: %+v", r)
		}
	})
}

func BenchmarkCompute(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		text, _ := mkindex(n, 80, "\n", "y")
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				Compute(text, DefaultLines, DefaultUnits)
			}
		})
	}
}

// TestRealStores runs Compute on every real store in the shared corpus:
// no panic, agreement with the oracle, and the cuts pinned. Four of the 40
// stores lose entries at session start, and three of those four are cut by
// the unit limit, not the line limit everyone watches: long pointer lines
// reach 25,000 units well before line 200 (one loses 169 of 226 subjects).
func TestRealStores(t *testing.T) {
	indexes, _ := filepath.Glob(filepath.Join(testshared.RealStores(t), "*", "MEMORY.md"))
	if len(indexes) == 0 {
		t.Fatal("the real-store corpus holds no MEMORY.md")
	}
	for _, p := range indexes {
		f, err := textfile.Read(p)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		r := Compute(f.Text, DefaultLines, DefaultUnits)
		checkIdentityView(t, f.Text, DefaultLines, DefaultUnits)
		checkIdentityView(t, f.Text, 40, 3000)
		if o := oracle(f.Text, DefaultLines, DefaultUnits); o != r.UnitsCounted() {
			t.Errorf("%s: oracle keeps %d units, Compute %d", p, o, r.UnitsCounted())
		}
		name := filepath.Base(filepath.Dir(p))
		got := ""
		if r.Cut {
			got = fmt.Sprintf("%s %d %d/%d", r.Limit, r.FirstCutLine, len(r.PastCut), r.SubjectsTotal)
		}
		if want := wantCut[name]; got != want {
			t.Errorf("%s: cut %q, want %q", name, got, want)
		}
	}
}

// wantCut is each cut real store: limit, first line lost, subjects lost of
// subjects linked.
var wantCut = map[string]string{
	"1000ssam__claude-config":                          "lines 201 12/109",
	"Warrenpoobear__claude-memory":                     "units 101 169/226",
	"davidtleess__dg-cockpit":                          "units 77 42/111",
	"khursheedkhanaiforgood-ai__claude-memory-private": "units 119 13/87",
}

// TestCRLFUnitsLoaded: Claude Code counts a CRLF file's CRs against the
// limit, then turns each CRLF into LF; units_loaded is what the session
// receives, and the folded CRs are counted beside it.
func TestCRLFUnitsLoaded(t *testing.T) {
	for _, c := range []struct {
		name, text string
		folded     int
	}{
		{"LF", "# Memory\n- [a](a.md)\n- [b](b.md)\n", 0},
		{"CRLF", "# Memory\r\n- [a](a.md)\r\n- [b](b.md)\r\n", 2},
		{"lone CR", "# Memory\r- [a](a.md)\r\n", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Compute(c.text, DefaultLines, DefaultUnits)
			if r.UnitsLoaded != jsLen(r.Text) || r.CRLFFolded != c.folded || r.UnitsCounted() != r.UnitsTotal {
				t.Errorf("units_loaded %d, text %d units, folded %d (want %d), counted %d of %d", r.UnitsLoaded, jsLen(r.Text), r.CRLFFolded, c.folded, r.UnitsCounted(), r.UnitsTotal)
			}
		})
	}
}
