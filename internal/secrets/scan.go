package secrets

import (
	"regexp/syntax"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The scan is linear in the text whatever the text holds. Three things
// make it so:
//
//   - one keyword pass (keywordPass) over the whole text finds where each
//     rule's keywords are;
//   - a rule's pattern then runs only on windows around those positions:
//     the keyword's line, widened by as many lines as the pattern can span
//     (measured from the pattern itself, see reach), the windows of nearby
//     positions merged so no byte is matched twice by one rule;
//   - on a line longer than longLine bytes (a minified file, a base64
//     blob) a window is cut to the pattern's width either side of the
//     keyword, and never more than maxReach bytes, so a 20 MB line with a
//     keyword every few KB costs a few KB of matching per keyword.
//
// The rules without keywords (bare entropy, secret sections) are
// hand-written single passes.
//
// The one way this differs from gitleaks' detector, which runs a rule over
// the whole text once any of its keywords is anywhere in it: a match that
// lies wholly outside the lines around every occurrence of its rule's
// keywords (or, on a long line, more than longBefore bytes before one or
// its pattern's width after one) is not found. Real secrets carry their
// keyword (ghp_, hooks.slack.com, "api_key ="); TestGitleaksDifferential
// checks that both find the same secrets over a planted corpus of every
// rule, the real stores and ordinary look-alikes.
const (
	longLine = 16 << 10
	maxReach = 4 << 10
	// manyLines is how far past its keyword's line a pattern that can
	// span any number of lines (a private key) is run: a 4096-bit key in
	// PEM is about 50 lines.
	manyLines = 200
	// longBefore is how far before its keyword a match on a long line is
	// looked for.
	longBefore = 128
)

// rule is one keyword-gated detector.
type rule struct {
	id       string
	keywords []string // lower case; a rule without keywords runs everywhere
	lines    int      // lines a match can reach beyond its keyword's line
	width    int      // bytes a match can reach either side of its keyword
	inMatch  bool     // every keyword is spelled in the pattern, so a match holds one
	// near, when set, gives the window around one keyword occurrence, or
	// false when no match can use it (a cheap necessary condition).
	near func(sc *scanner, k kwHit) (span, bool)
	// run finds the hits in text[lo:hi] (a window of whole lines, or a
	// cut of a long line). With first set it may stop at the first hit.
	run func(sc *scanner, lo, hi int, first bool) []hit

	// prep, when set, fills lines, width and near on first use.
	prep func(r *rule)
	once sync.Once
}

// ready runs the rule's prep once.
func (r *rule) ready() {
	if r.prep != nil {
		r.once.Do(func() { r.prep(r) })
	}
}

// scanner is one scan's shared state.
type scanner struct {
	text  string
	lower []byte // asciiLower(text), made on first use (see lowered)
	li    *lineIndex
}

func newScanner(text string) *scanner {
	return &scanner{text: text, li: newLineIndex(text)}
}

// lowered is the text with its ASCII letters lower-cased, made the first
// time a rule's pattern needs it: the keyword pass reads capitals through
// its byte classes, and most scans of a memory file run no pattern.
func (sc *scanner) lowered() []byte {
	if sc.lower == nil {
		sc.lower = asciiLower(sc.text)
	}
	return sc.lower
}

// span is a byte range of the text.
type span struct{ lo, hi int }

// windows turns a rule's keyword positions into the merged windows its
// pattern must see.
func (sc *scanner) windows(r *rule, pos []kwHit) []span {
	if len(pos) == 0 {
		return nil
	}
	r.ready()
	var ws []span
	for _, p := range pos {
		if r.near == nil {
			ws = append(ws, sc.window(r, p.start))
		} else if w, ok := r.near(sc, p); ok {
			ws = append(ws, w)
		}
	}
	sort.Slice(ws, func(i, j int) bool { return ws[i].lo < ws[j].lo })
	var out []span
	for _, w := range ws {
		if k := len(out); k > 0 && w.lo <= out[k-1].hi {
			out[k-1].hi = max(out[k-1].hi, w.hi)
			continue
		}
		out = append(out, w)
	}
	return out
}

// window is the range a match around a keyword at p can occupy.
func (sc *scanner) window(r *rule, p int) span {
	li := sc.li
	n := li.line(p)
	ls, le := li.starts[n-1], li.next(n)
	if le-ls > longLine {
		// Gitleaks' patterns put their keyword at or near the start of a
		// match (a prefix, or at most 100 bytes of name before it).
		return span{max(ls, p-longBefore), min(le, p+min(r.width, maxReach))}
	}
	first, last := max(1, n-r.lines), min(len(li.starts), n+r.lines)
	lo, hi := li.starts[first-1], li.next(last)
	if r.inMatch {
		// A match holding the keyword lies within the pattern's width of
		// it: long lines around it need not be read.
		return span{max(lo, p-r.width), min(hi, p+r.width+2)}
	}
	// A keyword that names the secret from elsewhere on its line
	// ("airtable … pat…"): the whole lines, at most maxReach beyond the
	// keyword's own.
	return span{max(lo, ls-maxReach), min(hi, le+maxReach)}
}

// allLines is the window set of a rule without keywords: the whole text,
// in pieces no longer than a long line.
func (sc *scanner) allLines() []span {
	var out []span
	for lo := 0; lo < len(sc.text); {
		hi := min(len(sc.text), lo+longLine)
		out = append(out, span{lo, hi})
		lo = hi
	}
	return out
}

// next returns the offset where line n+1 starts (the end of line n with
// its terminator), or the text's length for the last line.
func (li *lineIndex) next(n int) int {
	if n < len(li.starts) {
		return li.starts[n]
	}
	return len(li.text)
}

// reach measures a pattern: how many line breaks a match can hold and how
// many bytes it can be long, -1 meaning unbounded.
func reach(re *syntax.Regexp) (nl, width int) {
	add := func(a, b int) int {
		if a < 0 || b < 0 {
			return -1
		}
		return a + b
	}
	mul := func(a, n int) int {
		if a < 0 || n < 0 && a > 0 {
			return -1
		}
		if n < 0 {
			return 0
		}
		return a * n
	}
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if r == '\n' {
				nl++
			}
			width += runeWidth(r, re.Flags)
		}
		return nl, width
	case syntax.OpCharClass:
		w := 0
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i] <= '\n' && '\n' <= re.Rune[i+1] {
				nl = 1
			}
			w = max(w, runeWidth(re.Rune[i+1], 0))
		}
		return nl, w
	case syntax.OpAnyChar:
		return 1, 4
	case syntax.OpAnyCharNotNL:
		return 0, 4
	case syntax.OpCapture, syntax.OpQuest:
		return reach(re.Sub[0])
	case syntax.OpStar, syntax.OpPlus:
		n, w := reach(re.Sub[0])
		return mul(n, -1), mul(w, -1)
	case syntax.OpRepeat:
		n, w := reach(re.Sub[0])
		return mul(n, re.Max), mul(w, re.Max)
	case syntax.OpConcat:
		for _, s := range re.Sub {
			n, w := reach(s)
			nl, width = add(nl, n), add(width, w)
		}
		return nl, width
	case syntax.OpAlternate:
		for _, s := range re.Sub {
			n, w := reach(s)
			if n < 0 || nl < 0 {
				nl = -1
			} else {
				nl = max(nl, n)
			}
			if w < 0 || width < 0 {
				width = -1
			} else {
				width = max(width, w)
			}
		}
		return nl, width
	}
	return 0, 0
}

// runeWidth is the most bytes r takes in UTF-8, counting the case-folded
// forms a (?i) literal also matches (the Kelvin sign for k, ſ for s).
func runeWidth(r rune, flags syntax.Flags) int {
	w := utf8.RuneLen(r)
	if flags&syntax.FoldCase != 0 {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			w = max(w, utf8.RuneLen(f))
		}
	}
	return max(w, 1)
}

// patternReach is reach for a parsed pattern, with unbounded figures
// replaced by the scan's limits.
func patternReach(re *syntax.Regexp) (lines, width int) {
	lines, width = reach(re)
	if lines < 0 || lines > manyLines {
		lines = manyLines
	}
	if width < 0 || width > maxReach {
		width = maxReach
	}
	return lines, width
}

// allRules is every keyword-gated rule: gitleaks' first, then memcompact's
// own. Built once per process, on the first scan.
var allRules = sync.OnceValues(buildRules)

// Prepare builds the rules and their keyword pass now, once per process,
// so a caller that knows a scan is coming can have them built on another
// processor while it reads what it will scan.
func Prepare() { allRules() }

func buildRules() ([]*rule, *keywordPass) {
	var rs []*rule
	rs = append(rs, gitleaksRuleSet()...)
	rs = append(rs, ownRules()...)
	return rs, newKeywordPass(rs)
}

// dedupe keeps, of hits whose secrets overlap, the best-ranked one, so a
// token named by gitleaks is not reported again as a key name or as
// entropy. Among equal ranks the earlier, longer secret wins. It is
// O(n log n): each hit is checked against its neighbours among the kept.
func dedupe(hits []hit) []hit {
	sort.SliceStable(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		if a.start != b.start {
			return a.start < b.start
		}
		return a.end-a.start > b.end-b.start
	})
	var kept []hit // sorted by start, pairwise disjoint
	for i := 0; i < len(hits); {
		j := i
		for j < len(hits) && hits[j].rank == hits[i].rank {
			j++
		}
		var add []hit
		for _, h := range hits[i:j] {
			if h.end <= h.start {
				continue
			}
			if n := len(add); n > 0 && h.start < add[n-1].end {
				continue
			}
			k := sort.Search(len(kept), func(x int) bool { return kept[x].end > h.start })
			if k < len(kept) && kept[k].start < h.end {
				continue
			}
			add = append(add, h)
		}
		kept = mergeSorted(kept, add)
		i = j
	}
	return kept
}

func mergeSorted(a, b []hit) []hit {
	out := make([]hit, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if b[0].start < a[0].start {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}

// allowedAt reports whether the line holding offset off carries the
// "gitleaks:allow" marker, which every rule honours: it is how a user
// declares a flagged value (a document ID, a test fixture) not secret.
// On a long line only the bytes near off count.
func (sc *scanner) allowedAt(off int) bool {
	return strings.Contains(matchLines(sc.li, off, off), gitleaksAllowSignature)
}

// scanGitleaksOnly runs only gitleaks' rules, with no public-format
// allowlist: what gitleaks' own detector would report. The differential
// test compares the two.
func scanGitleaksOnly(text string) []hit {
	if text == "" {
		return nil
	}
	rules, kp := allRules()
	sc := newScanner(text)
	pos := kp.positions(sc.text, len(rules))
	n := len(gitleaksRuleSet())
	var hits []hit
	for i, r := range rules[:n] {
		ws := sc.windows(r, pos[i])
		if len(r.keywords) == 0 {
			ws = sc.allLines()
		}
		for _, w := range ws {
			hits = append(hits, r.run(sc, w.lo, w.hi, false)...)
		}
	}
	return genericYields(sc, hits)
}

// genericYields drops a generic rule's finding when a specific rule found
// a secret holding it on the same line, as gitleaks' detector does.
func genericYields(sc *scanner, hits []hit) []hit {
	out := hits[:0:0]
	for _, h := range hits {
		keep := true
		if strings.Contains(h.rule, "generic") {
			secret := sc.text[h.start:h.end]
			for _, o := range hits {
				if o.rule != h.rule && !strings.Contains(o.rule, "generic") &&
					sc.li.line(o.start) == sc.li.line(h.start) && strings.Contains(sc.text[o.start:o.end], secret) {
					keep = false
					break
				}
			}
		}
		if keep {
			out = append(out, h)
		}
	}
	return out
}
