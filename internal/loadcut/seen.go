package loadcut

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/memcompact/memcompact/internal/mdblocks"
)

// view is an index's text as Claude Code rewrites it before it counts
// lines and units, together with, for every byte, the byte offset in the
// original text it came from. The offsets let a cut in the rewritten text
// be reported as a line of the file, and a link of the file be found (or
// not) in what loads.
//
// Most indexes have no frontmatter, comment or CR to remove, so the view
// is the text itself: orig stays nil (byte i came from offset i) until a
// rewrite needs it, sparing a hook an int per byte of the index (600 KB
// for a 78 KB index, the largest allocation of a session start).
type view struct {
	s    []byte
	orig []int // nil: the identity
}

func newView(t string) *view { return &view{s: []byte(t)} }

// mayRewrite reports whether Claude Code may rewrite t before it counts
// it: only a text that begins with "---" or holds "<!--" can lose bytes.
// Without either, the text is its own view (a nil *view).
func mayRewrite(t string) bool {
	return strings.HasPrefix(t, "---") || strings.Contains(t, "<!--")
}

// rewrites is mayRewrite; the differential test makes every text take the
// view's path, to hold the identity to it.
var rewrites = mayRewrite

// origOf is the original offset of the view's byte i (i may be len(s)
// while the view is the identity). A nil view is the identity.
func (v *view) origOf(i int) int {
	if v == nil || v.orig == nil {
		return i
	}
	return v.orig[i]
}

// marks says which bytes of the original text some bytes of a view came
// from: the range [lo, hi) when the view is the identity, else the bytes
// marked true.
type marks struct {
	marked []bool
	lo, hi int
}

// at reports whether byte i of the original text is marked.
func (m marks) at(i int) bool {
	if m.marked == nil {
		return i >= m.lo && i < m.hi
	}
	return m.marked[i]
}

// offsets is orig, made explicit for a rewrite.
func (v *view) offsets() []int {
	if v.orig == nil {
		v.orig = make([]int, len(v.s))
		for i := range v.orig {
			v.orig[i] = i
		}
	}
	return v.orig
}

// visible marks which bytes of the original text, of length n, the view's
// bytes [from, to) came from. The text as its own view (nil) marks the
// range itself, with no mark per byte.
func (v *view) visible(from, to, n int) marks {
	if v == nil {
		return marks{lo: from, hi: to}
	}
	out := make([]bool, n+1)
	for i := from; i < to; i++ {
		out[v.origOf(i)] = true
	}
	return marks{marked: out}
}

// drop removes the bytes [from, to) of the view.
func (v *view) drop(from, to int) {
	o := v.offsets()
	v.s = append(v.s[:from:from], v.s[to:]...)
	v.orig = append(o[:from:from], o[to:]...)
}

// stripFrontmatter removes a YAML frontmatter block the way Claude Code
// does before it uses any Markdown memory file, and returns the number of
// bytes removed. Its pattern is loose, and the looseness is what matters:
//
//   - the text must begin with "---", then white space holding at least one
//     line break (the match runs to the last break of that white space);
//   - the block then ends at the very next "---" anywhere — not only on a
//     line of its own — and every white space character after it goes too.
//
// So a first line of "---" (a Markdown rule, a YAML habit) swallows
// everything up to the next "---", which may be a table's separator row or
// the closing rule of a section further down.
func (v *view) stripFrontmatter() int {
	if !bytes.HasPrefix(v.s, []byte("---")) {
		return 0
	}
	s := string(v.s)
	i := 3
	lastBreak := -1
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !jsSpace(r) {
			break
		}
		if r == '\n' {
			lastBreak = i
		}
		i += size
	}
	if lastBreak < 0 {
		return 0
	}
	body := lastBreak + 1
	closing := strings.Index(s[body:], "---")
	if closing < 0 {
		return 0
	}
	end := body + closing + 3
	for end < len(s) {
		r, size := utf8.DecodeRuneInString(s[end:])
		if !jsSpace(r) {
			break
		}
		end += size
	}
	v.drop(0, end)
	return end
}

// normalizeBreaks turns every CRLF and every lone CR into one LF, as the
// Markdown lexer Claude Code uses does before it finds block boundaries.
func (v *view) normalizeBreaks() {
	if bytes.IndexByte(v.s, '\r') < 0 {
		return
	}
	s := v.s[:0:0]
	o := v.offsets()
	orig := o[:0:0]
	for i := 0; i < len(v.s); i++ {
		switch {
		case v.s[i] == '\r' && i+1 < len(v.s) && v.s[i+1] == '\n':
			continue // the LF that follows stands for the pair
		case v.s[i] == '\r':
			s = append(s, '\n')
		default:
			s = append(s, v.s[i])
		}
		orig = append(orig, o[i])
	}
	v.s, v.orig = s, orig
}

// stripComments removes block-level HTML comments the way Claude Code does
// before it cuts a memory index, and reports whether it removed any.
//
// Only HTML blocks at the top level of the document count — an HTML block
// whose first line, indented at most three spaces, opens with "<!--" and
// which holds a "-->" — found by a CommonMark parser, so a comment inside a
// list item, a block quote or a fenced code block stays, and so does an
// inline comment in a paragraph. Each such block, with the blank lines
// after it, is replaced by what remains of it once every "<!-- ... -->" in
// it is removed, or by nothing when only white space remains. When any
// block goes, the whole text comes out with its line breaks normalized to
// LF; when none does, it is left exactly as it was.
func (v *view) stripComments() bool {
	if !bytes.Contains(v.s, []byte("<!--")) {
		return false
	}
	before := &view{s: v.s, orig: v.orig}
	v.normalizeBreaks()
	src := v.s
	blocks := mdblocks.HTMLBlocks(src)
	type span struct{ from, to int }
	var spans []span
	for _, b := range blocks {
		from, to := b.Start, b.Stop
		for from > 0 && src[from-1] != '\n' {
			from--
		}
		for to < len(src) && src[to-1] != '\n' {
			to++
		}
		for to < len(src) && src[to] == '\n' {
			to++
		}
		raw := string(src[from:to])
		if !strings.HasPrefix(strings.TrimLeftFunc(raw, jsSpace), "<!--") || !strings.Contains(raw, "-->") {
			continue
		}
		spans = append(spans, span{from, to})
	}
	if len(spans) == 0 {
		v.s, v.orig = before.s, before.orig
		return false
	}
	// Rebuild back to front so the earlier spans' offsets stay valid.
	for i := len(spans) - 1; i >= 0; i-- {
		sp := spans[i]
		keep := commentFree(string(src[sp.from:sp.to]))
		if !hasNonSpace(src[sp.from:sp.to], keep) {
			v.drop(sp.from, sp.to)
			continue
		}
		// Drop the comments inside the span, back to front.
		for j := len(keep) - 1; j >= 0; j-- {
			k := keep[j]
			v.drop(sp.from+k.from, sp.from+k.to)
		}
	}
	return true
}

// commentFree returns the byte ranges of every "<!--" ... "-->" in s, the
// shortest match each time, left to right; an unclosed "<!--" is not one.
func commentFree(s string) []struct{ from, to int } {
	var out []struct{ from, to int }
	for i := 0; i < len(s); {
		j := strings.Index(s[i:], "<!--")
		if j < 0 {
			break
		}
		k := strings.Index(s[i+j+4:], "-->")
		if k < 0 {
			break
		}
		out = append(out, struct{ from, to int }{i + j, i + j + 4 + k + 3})
		i = i + j + 4 + k + 3
	}
	return out
}

// keepText is s without the ranges in cut.
func keepText(s []byte, cut []struct{ from, to int }) []byte {
	var b []byte
	at := 0
	for _, c := range cut {
		b = append(b, s[at:c.from]...)
		at = c.to
	}
	return append(b, s[at:]...)
}

// hasNonSpace reports whether s without the ranges in cut holds anything
// JavaScript's trim would keep.
func hasNonSpace(s []byte, cut []struct{ from, to int }) bool {
	rest := string(keepText(s, cut))
	a, b := trimBounds(rest)
	return a < b
}
