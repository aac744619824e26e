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
//     letter case; a pointer line is a pointer-pattern line with a subject.
//
// There is no awareness of code fences: a fenced list item is a list item.
// Every verb that reads an index goes through Parse, so the check, the
// sweep instruments, the load cut and the write guard agree on what a
// subject is.
package index

import (
	"strings"
	"unicode"

	"github.com/memcompact/memcompact/internal/lazyre"
	"github.com/memcompact/memcompact/internal/textfile"
)

// ws is the whitespace class of .NET regular expressions (\s there is
// Unicode-aware; Go's \s is ASCII-only), so that patterns match the same
// lines as the reference implementation.
const ws = `\t\n\v\f\r \x{85}\p{Z}`

var (
	headingRE = lazyre.New(`^##[` + ws + `]`)
	// \p{Nd}: .NET's \d matches any Unicode decimal digit, so "１." (a
	// fullwidth digit) is an ordinal there too.
	pointerRE = lazyre.New(`^[` + ws + `]*(?:[-*+]|\p{Nd}+[.)])[` + ws + `]`)
)

// Link is one Markdown link on a pointer-pattern line. Offsets are byte
// offsets into the line.
type Link struct {
	Text    string // between '[' and ']'
	Target  string // angle brackets stripped, cut at the first '#'
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

// IsHeading reports whether line is a section heading ("##" then whitespace).
func IsHeading(line string) bool { return headingRE().MatchString(line) }

// BulletLen returns the length in bytes of the list-item opening of line
// (indentation, bullet or ordinal, one whitespace character), or 0 when
// line is not a pointer-pattern line.
func BulletLen(line string) int {
	if m := pointerRE().FindStringIndex(line); m != nil {
		return m[1]
	}
	return 0
}

// IsPointerPattern reports whether line is a list item that may carry
// pointers: indentation, a bullet or ordinal, then whitespace.
func IsPointerPattern(line string) bool { return pointerRE().MatchString(line) }

// ScanLinks scans one line for links, left to right. It returns the links
// ordered by start, and the snippets of constructs it could not parse: a
// ']' followed by '(' without a well-formed tail, and overlapping links.
func ScanLinks(line string) (links []Link, unparsed []string) {
	return scanLinks(line, &finder{line: line})
}

func scanLinks(line string, next *finder) (links []Link, unparsed []string) {
	var open []int
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '[':
			open = append(open, i)
		case ']':
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
				Start:   start,
				End:     end,
				Subject: hasSuffixFold(target, ".md"),
			})
		}
	}
	sortByStart(links)
	for k := 1; k < len(links); k++ {
		if links[k].Start < links[k-1].End {
			unparsed = append(unparsed, "nested or overlapping links: "+Snippet(line[links[k-1].Start:], 40))
		}
	}
	return links, unparsed
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

// TrimSpace trims Unicode whitespace (the .NET char.IsWhiteSpace set) from
// both ends.
func TrimSpace(s string) string { return strings.TrimFunc(s, unicode.IsSpace) }

// TrimRight trims Unicode whitespace from the end.
func TrimRight(s string) string { return strings.TrimRightFunc(s, unicode.IsSpace) }

// FileName returns the part of a link target after its last '/'.
func FileName(target string) string {
	if i := strings.LastIndexByte(target, '/'); i >= 0 {
		return target[i+1:]
	}
	return target
}
