// Package index parses a memory index (MEMORY.md): its section headings,
// its pointer-pattern lines (list items) and the Markdown links on them.
//
// The grammar is deliberately small and line-oriented, because the verdicts
// built on it must be exact:
//
//   - a section heading is a line starting "##" followed by one whitespace
//     character; the first one ends the header region;
//   - a pointer-pattern line is a list item: optional indentation, a bullet
//     (-, * or +) or an ordinal (digits then . or )), then whitespace;
//   - on pointer-pattern lines only, links are scanned left to right with a
//     stack of '[' positions; a ']' followed by '(' must be followed by a
//     well-formed link tail or the construct is recorded as unparsed;
//     overlapping (nested) links are recorded too;
//   - a link is a subject when its target, cut at '#', ends in ".md" in any
//     letter case; a pointer line is a pointer-pattern line with a subject;
//   - the file a link names is its Dest (Destination: CommonMark's escapes,
//     references and percent-escapes decoded), found on disk by Resolver.
//
// There is no awareness of code fences: a fenced list item is a list item.
// Every verb that reads an index goes through Parse, so the check, the
// sweep instruments, the load cut and the write guard agree on what a
// subject is.
package index

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memcompact/memcompact/internal/textfile"
)

// isWS reports whether r is in .NET's \s, the whitespace class of the
// reference implementation's patterns (Unicode-aware there; Go's \s is
// ASCII-only): \t \n \v \f \r, space, U+0085 and the separators \p{Z}.
// It is unicode.IsSpace's set, spelled as the pattern spells it.
func isWS(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', '\u0085':
		return true
	}
	return r >= utf8.RuneSelf && unicode.Is(unicode.Z, r)
}

// Link is one Markdown link on a pointer-pattern line. Offsets are byte
// offsets into the line.
type Link struct {
	Text    string // between '[' and ']'
	Target  string // angle brackets stripped, cut at the first '#': as written, for messages
	Dest    string // the file path it names (Destination): escapes and percent-escapes decoded
	Start   int    // offset of '['
	End     int    // offset just past ')'
	Subject bool   // Target ends in ".md", any case
}

// Line is one line of the index.
type Line struct {
	Num     int    // 1-based
	Text    string // without its terminator
	Heading bool   // a "## " section heading
	Pointer bool   // a pointer-pattern line (list item)
	Links   []Link // links, ordered by start; only on pointer-pattern lines
}

// IsPointerLine reports whether l is a pointer line: a list item linking at
// least one .md subject.
func (l *Line) IsPointerLine() bool {
	if !l.Pointer {
		return false
	}
	for _, k := range l.Links {
		if k.Subject {
			return true
		}
	}
	return false
}

// Subjects returns the subject links of the line.
func (l *Line) Subjects() []Link {
	var out []Link
	for _, k := range l.Links {
		if k.Subject {
			out = append(out, k)
		}
	}
	return out
}

// Unparsed is a link-like construct the scanner could not read.
type Unparsed struct {
	Line    int    // 1-based
	Snippet string // at most 40 UTF-16 units of context
}

// Index is a parsed index.
type Index struct {
	Lines        []Line
	FirstHeading int // 0-based index into Lines of the first section heading, or -1
	FirstPointer int // 0-based index of the first pointer line, or -1
	Unparsed     []Unparsed
}

// Parse parses the lines of an index (see textfile.Lines). It never fails:
// constructs it cannot read are listed in Unparsed for the caller to judge.
func Parse(lines []string) *Index {
	ix := &Index{Lines: make([]Line, len(lines)), FirstHeading: -1, FirstPointer: -1}
	for i, text := range lines {
		l := &ix.Lines[i]
		l.Num = i + 1
		l.Text = text
		l.Heading = IsHeading(text)
		if l.Heading && ix.FirstHeading < 0 {
			ix.FirstHeading = i
		}
		if !IsPointerPattern(text) {
			continue
		}
		l.Pointer = true
		var bad []string
		l.Links, bad = ScanLinks(text)
		for _, s := range bad {
			ix.Unparsed = append(ix.Unparsed, Unparsed{Line: l.Num, Snippet: s})
		}
		if ix.FirstPointer < 0 && l.IsPointerLine() {
			ix.FirstPointer = i
		}
	}
	return ix
}

// IsHeading reports whether line is a section heading ("##" then
// whitespace). The line grammar is matched by hand, not by regular
// expressions: compiling the two patterns (with their Unicode classes)
// cost a check more than running them over every line of the index.
func IsHeading(line string) bool {
	if len(line) < 3 || line[0] != '#' || line[1] != '#' {
		return false
	}
	r, _ := utf8.DecodeRuneInString(line[2:])
	return isWS(r)
}

// BulletLen returns the length in bytes of the list-item opening of line
// (indentation, bullet or ordinal, one whitespace character), or 0 when
// line is not a pointer-pattern line: the match of
// ^[ws]*(?:[-*+]|\p{Nd}+[.)])[ws] (\p{Nd}: .NET's \d matches any Unicode
// decimal digit, so "１." (a fullwidth digit) is an ordinal there too).
func BulletLen(line string) int {
	i := skipWS(line, 0)
	if i == len(line) {
		return 0
	}
	switch line[i] {
	case '-', '*', '+':
		i++
	default:
		digits := i
		for i < len(line) {
			r, n := utf8.DecodeRuneInString(line[i:])
			if !unicode.Is(unicode.Nd, r) {
				break
			}
			i += n
		}
		if i == digits || i == len(line) || line[i] != '.' && line[i] != ')' {
			return 0
		}
		i++
	}
	if i == len(line) {
		return 0
	}
	r, n := utf8.DecodeRuneInString(line[i:])
	if !isWS(r) {
		return 0
	}
	return i + n
}

// skipWS returns the index after the run of isWS characters starting at p.
func skipWS(s string, p int) int {
	for p < len(s) {
		if c := s[p]; c < utf8.RuneSelf {
			if !isWS(rune(c)) {
				break
			}
			p++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[p:])
		if !isWS(r) {
			break
		}
		p += n
	}
	return p
}

// IsPointerPattern reports whether line is a list item that may carry
// pointers: indentation, a bullet or ordinal, then whitespace.
func IsPointerPattern(line string) bool { return BulletLen(line) > 0 }

// ScanLinks scans one line for links, left to right. It returns the links
// ordered by start, and the snippets of constructs it could not parse: a
// ']' followed by '(' without a well-formed tail, and overlapping links.
func ScanLinks(line string) (links []Link, unparsed []string) {
	return scanLinks(line, &finder{line: line})
}

func scanLinks(line string, next *finder) (links []Link, unparsed []string) {
	var stack [8]int
	open := stack[:0]
	// Only brackets matter, so the scan jumps from one to the next.
	nextOpen, nextClose := indexFrom(line, '[', 0), indexFrom(line, ']', 0)
	for {
		i := min(nextOpen, nextClose)
		if i == len(line) {
			break
		}
		if i == nextOpen {
			open = append(open, i)
			nextOpen = indexFrom(line, '[', i+1)
			continue
		}
		nextClose = indexFrom(line, ']', i+1)
		if len(open) == 0 {
			continue
		}
		start := open[len(open)-1]
		open = open[:len(open)-1]
		if i+1 >= len(line) || line[i+1] != '(' {
			continue
		}
		ts, te, end, ok := next.tail(line, i+1)
		if !ok {
			unparsed = append(unparsed, Snippet(line[i:], 40))
			continue
		}
		target := strings.Trim(line[ts:te], "<>")
		if h := strings.IndexByte(target, '#'); h >= 0 {
			target = target[:h]
		}
		links = append(links, Link{
			Text:    line[start+1 : i],
			Target:  target,
			Dest:    Destination(line[ts:te]),
			Start:   start,
			End:     end,
			Subject: hasSuffixFold(target, ".md"),
		})
	}
	sortByStart(links)
	for k := 1; k < len(links); k++ {
		if links[k].Start < links[k-1].End {
			unparsed = append(unparsed, "nested or overlapping links: "+Snippet(line[links[k-1].Start:], 40))
		}
	}
	return links, unparsed
}

// indexFrom is the index of the first c in s at or after p, or len(s).
func indexFrom(s string, c byte, p int) int {
	if i := strings.IndexByte(s[p:], c); i >= 0 {
		return p + i
	}
	return len(s)
}

// sortByStart is an insertion sort: links arrive nearly ordered (only
// nesting reorders them) and lines hold few links.
func sortByStart(links []Link) {
	for i := 1; i < len(links); i++ {
		for j := i; j > 0 && links[j].Start < links[j-1].Start; j-- {
			links[j], links[j-1] = links[j-1], links[j]
		}
	}
}

func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

// Snippet returns the first n UTF-16 code units of s, the way the
// reference implementation cuts its snippets. When the cut falls inside a
// surrogate pair the reference is left holding half a character, which its
// UTF-8 output writes as U+FFFD; Snippet writes the same.
func Snippet(s string, n int) string {
	units := 0
	for i, r := range s {
		u := textfile.UnitsOfRune(r)
		if units+u > n {
			if units < n {
				return s[:i] + "\uFFFD"
			}
			return s[:i]
		}
		units += u
	}
	return s
}

// IsSpace reports whether r is whitespace as the reference judges it (the
// .NET char.IsWhiteSpace set).
func IsSpace(r rune) bool { return isWS(r) }

// TrimSpace trims Unicode whitespace (the .NET char.IsWhiteSpace set, which
// is isWS's) from both ends.
func TrimSpace(s string) string { return TrimRight(s[skipWS(s, 0):]) }

// TrimRight trims Unicode whitespace from the end. Every line of an index
// and of the reference is trimmed, most ending in a letter, so a last byte
// that is ASCII is judged without decoding anything.
func TrimRight(s string) string {
	for len(s) > 0 {
		if c := s[len(s)-1]; c < utf8.RuneSelf {
			if !isWS(rune(c)) {
				break
			}
			s = s[:len(s)-1]
			continue
		}
		r, n := utf8.DecodeLastRuneInString(s)
		if !isWS(r) {
			break
		}
		s = s[:len(s)-n]
	}
	return s
}

// FileName returns the part of a link target after its last '/'.
func FileName(target string) string {
	if i := strings.LastIndexByte(target, '/'); i >= 0 {
		return target[i+1:]
	}
	return target
}
