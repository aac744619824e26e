// Package loadcut computes what Claude Code loads of a memory index at
// session start, and which linked subjects fall past the cut.
//
// Claude Code does not load MEMORY.md whole. It reads the file, trims
// white space from both ends, and then applies two limits, 200 lines and
// 25,000 characters, where a character is a UTF-16 code unit (JavaScript's
// string length):
//
//  1. if the trimmed text has more than 200 lines (split at "\n"), only the
//     first 200 are kept;
//  2. if what is kept is still longer than 25,000 units, it is cut at the
//     last "\n" at or before unit 25,000 — so the cut always falls on a line
//     boundary — or, when there is no such newline past the first
//     character, hard at unit 25,000.
//
// Everything after the cut is absent from the session, with nothing in the
// agent's context saying which entries were lost. Because stores append,
// the entries lost are the newest ones.
//
// This is Claude Code's own truncation as read from its source (the
// function that loads the memory entrypoint, 2.1.237 and later; see
// anthropics/claude-code#82056) and confirmed by the boundary probes
// reported in the same thread. Three consequences are modeled exactly:
// blank lines at either end do not count; a CR is an ordinary character
// (a CRLF file spends one more unit per line, and a lone CR does not end a
// line); and the unit cut depends on where newlines fall, not only on the
// limit. A file that is not valid UTF-8 is decoded with one U+FFFD per bad
// byte (see textfile), where Node may use fewer; only such files can
// differ.
//
// Compute works on text already decoded, so the write guard can ask what a
// proposed write would lose before it happens.
package loadcut

import (
	"strings"
	"unicode/utf8"

	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/textfile"
)

// Claude Code's limits.
const (
	DefaultLines = 200
	DefaultUnits = 25000
)

// Which limit decided the cut.
const (
	LimitNone  = "none"
	LimitLines = "lines"
	LimitUnits = "units"
)

// Subject is one linked subject of the index.
type Subject struct {
	Line     int    `json:"line"`      // 1-based line of the index file
	Target   string `json:"target"`    // the link target, as in the check
	LinkText string `json:"link_text"` // the text between [ and ]
}

// Result is what a session loads of an index.
type Result struct {
	LineLimit int `json:"line_limit"`
	UnitLimit int `json:"unit_limit"`
	// Lines and units as Claude Code counts them: after trimming, lines
	// split at "\n", units in UTF-16 with every CR counted.
	LinesTotal  int `json:"lines_total"`
	LinesLoaded int `json:"lines_loaded"`
	UnitsTotal  int `json:"units_total"`
	UnitsLoaded int `json:"units_loaded"`
	// LinesOver and UnitsOver report each limit exceeded by the whole
	// text, whichever one cut.
	LinesOver bool `json:"lines_over"`
	UnitsOver bool `json:"units_over"`
	// Limit is the limit that decided where the cut falls: LimitNone when
	// everything loads, LimitLines when line 200 is the end, LimitUnits
	// when the unit limit cut earlier than that.
	Limit string `json:"limit"`
	Cut   bool   `json:"cut"`
	// FirstCutLine is the 1-based file line of the first line not loaded
	// in full, or 0 when nothing is cut.
	FirstCutLine int `json:"first_cut_line"`
	// SubjectsTotal counts every subject link on the index's pointer lines.
	SubjectsTotal int `json:"subjects_total"`
	// PastCut lists the subjects not loaded, nearest the cut first.
	PastCut []Subject `json:"past_cut"`

	// CutOffset is the byte offset in the text where the loaded part ends.
	CutOffset int `json:"-"`
}

// Compute returns what Claude Code loads of text (an index decoded as
// textfile decodes it) under the given limits. A limit below 1 is treated
// as no limit.
func Compute(text string, lines, units int) Result {
	r := Result{LineLimit: lines, UnitLimit: units, Limit: LimitNone, PastCut: []Subject{}}
	start, end := trimBounds(text)
	trimmed := text[start:end]
	r.LinesTotal = strings.Count(trimmed, "\n") + 1
	r.UnitsTotal = jsLen(trimmed)
	r.LinesOver = lines > 0 && r.LinesTotal > lines
	r.UnitsOver = units > 0 && r.UnitsTotal > units

	kept := trimmed
	if r.LinesOver {
		kept = trimmed[:nthNewline(trimmed, lines)]
		r.Limit = LimitLines
	}
	if units > 0 && jsLen(kept) > units {
		kept = kept[:unitCut(kept, units)]
		r.Limit = LimitUnits
	}
	r.Cut = len(kept) < len(trimmed)
	r.LinesLoaded = strings.Count(kept, "\n") + 1
	if kept == "" && r.Cut {
		r.LinesLoaded = 0
	}
	r.UnitsLoaded = jsLen(kept)
	r.CutOffset = start + len(kept)
	if !r.Cut {
		r.CutOffset = len(text)
	}

	ix := index.Parse(textfile.Lines(text))
	offsets := lineOffsets(text, len(ix.Lines))
	for i := range ix.Lines {
		l := &ix.Lines[i]
		lineStart := offsets[i]
		if r.Cut && r.FirstCutLine == 0 && lineStart+len(l.Text) > r.CutOffset {
			r.FirstCutLine = l.Num
		}
		if !l.Pointer {
			continue
		}
		for _, k := range l.Links {
			if !k.Subject {
				continue
			}
			r.SubjectsTotal++
			if lineStart+k.End > r.CutOffset {
				r.PastCut = append(r.PastCut, Subject{Line: l.Num, Target: k.Target, LinkText: k.Text})
			}
		}
	}
	if r.Cut && r.FirstCutLine == 0 {
		// The cut fell inside trailing blank lines the parser has no
		// line for (a lone CR at the very end); report the last line.
		r.FirstCutLine = len(ix.Lines)
	}
	return r
}

// trimBounds returns the bounds of text without the white space
// JavaScript's String.prototype.trim removes at either end.
func trimBounds(text string) (start, end int) {
	start, end = 0, len(text)
	for start < end {
		r, size := utf8.DecodeRuneInString(text[start:])
		if !jsSpace(r) {
			break
		}
		start += size
	}
	for end > start {
		r, size := utf8.DecodeLastRuneInString(text[start:end])
		if !jsSpace(r) {
			break
		}
		end -= size
	}
	return start, end
}

// jsSpace reports whether JavaScript's trim removes r: the WhiteSpace and
// LineTerminator productions of ECMAScript (U+FEFF yes, U+0085 no).
func jsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// jsLen is the length of s in UTF-16 code units with no line-ending
// normalization: the counting rule applied to each "\n"-separated piece
// (which holds no CRLF to fold), plus one per "\n".
func jsLen(s string) int {
	n := strings.Count(s, "\n")
	for piece := range strings.SplitSeq(s, "\n") {
		n += textfile.Units(piece)
	}
	return n
}

// nthNewline returns the byte offset of the n-th "\n" in s (n >= 1), which
// ends the first n lines; len(s) if s has fewer.
func nthNewline(s string, n int) int {
	off := 0
	for i := 0; i < n; i++ {
		j := strings.IndexByte(s[off:], '\n')
		if j < 0 {
			return len(s)
		}
		if i == n-1 {
			return off + j
		}
		off += j + 1
	}
	return len(s)
}

// unitCut returns the byte length Claude Code keeps of s under a limit of
// units UTF-16 units: up to the last "\n" whose unit index is at most
// units, when that index is above 0; otherwise the longest prefix of at
// most units units. (JavaScript may then split a surrogate pair; a Go
// string cannot hold half a character, so the whole character is dropped.)
func unitCut(s string, units int) int {
	cut, hard, u := -1, len(s), 0
	for i, r := range s {
		if u > units {
			break
		}
		if r == '\n' && u > 0 {
			cut = i
		}
		w := textfile.UnitsOfRune(r)
		if u+w > units && hard == len(s) {
			hard = i
		}
		u += w
	}
	if cut > 0 {
		return cut
	}
	return hard
}

// lineOffsets returns the byte offset in text where each of the first n
// lines (as textfile.Lines splits them) starts.
func lineOffsets(text string, n int) []int {
	out := make([]int, 0, n)
	start := 0
	for i := 0; i < len(text) && len(out) < n; i++ {
		switch text[i] {
		case '\n':
			out = append(out, start)
			start = i + 1
		case '\r':
			out = append(out, start)
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			start = i + 1
		}
	}
	if len(out) < n {
		out = append(out, start)
	}
	return out
}
