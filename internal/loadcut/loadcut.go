// Package loadcut computes what Claude Code loads of a memory index at
// session start, and which linked subjects it never sees.
//
// Claude Code does not load MEMORY.md as it is on disk. In order, it:
//
//  1. skips the file entirely when it is larger than 4 MiB (MaxBytes);
//  2. removes a YAML frontmatter block at the top, by a loose pattern: a
//     first line of "---" swallows everything up to the next "---",
//     wherever that is (see stripFrontmatter);
//  3. removes block-level HTML comments, as a CommonMark parser finds
//     blocks (see stripComments); inline comments stay;
//  4. trims white space from both ends, and applies two limits, 200 lines
//     and 25,000 characters, where a character is a UTF-16 code unit
//     (JavaScript's string length): more than 200 lines (split at "\n")
//     keeps the first 200; what is kept, if still longer than 25,000
//     units, is cut at the last "\n" at or before unit 25,000, or hard at
//     unit 25,000 when there is no such newline past the first character;
//  5. appends a warning line to a cut index, so the agent knows that part
//     is missing (but not which entries);
//  6. normalizes line breaks to LF and removes control, format and
//     unassigned characters (see sanitize);
//  7. escapes every opener of a tag the client frames a session with, such
//     as <system-reminder>, as "<\" (see neutralize). Steps 6 and 7 change
//     the text the agent reads, never where the cut falls.
//
// Everything past the cut, or hidden by steps 1-3, is absent from the
// session. Because stores append, the entries past the cut are the newest.
//
// This is Claude Code's behaviour as read from its 2.1.x client and checked
// against the real client by the differential test (see docs/development.md, "Claude
// Code fidelity"). Counting is exact: blank lines at either end do not
// count; a CR is an ordinary character when counting (a CRLF file spends
// one more unit per line, and a lone CR does not end a line) — except that
// removing a block comment normalizes every line break first. A file that
// is not valid UTF-8 is decoded with one U+FFFD per bad byte (see
// textfile), where Node may use fewer; only such files can differ.
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
	// MaxBytes is the largest MEMORY.md Claude Code reads at all; a larger
	// one loads nothing.
	MaxBytes = 4 << 20
)

// Which limit decided the cut.
const (
	LimitNone  = "none"
	LimitLines = "lines"
	LimitUnits = "units"
	LimitSize  = "size" // the file is over MaxBytes: nothing loads
)

// Why a subject is hidden before any limit applies.
const (
	HiddenByFrontmatter = "frontmatter"
	HiddenByComment     = "comment"
)

// Subject is one linked subject of the index.
type Subject struct {
	Line   int    `json:"line"`   // 1-based line of the index file
	Target string `json:"target"` // the link target, as in the check
	// Dest is the file the link names (index.Destination), the name the
	// sweep and drift know it by; not part of the report.
	Dest     string `json:"-"`
	LinkText string `json:"link_text"` // the text between [ and ]
	// By says what hid a hidden subject (HiddenBy...); empty past the cut.
	By string `json:"by,omitempty"`
}

// Result is what a session loads of an index.
type Result struct {
	LineLimit int `json:"line_limit"`
	UnitLimit int `json:"unit_limit"`
	// Lines and units as Claude Code counts them: of the text left once
	// frontmatter and block comments are gone, after trimming, lines split
	// at "\n", units in UTF-16 with every CR counted. UnitsLoaded is what
	// the session receives of the memory (before escapes and the cut
	// warning): Claude Code turns each CRLF into LF after the cut, so a
	// CRLF file loads CRLFFolded units fewer than the limit counted.
	LinesTotal  int `json:"lines_total"`
	LinesLoaded int `json:"lines_loaded"`
	UnitsTotal  int `json:"units_total"`
	UnitsLoaded int `json:"units_loaded"`
	// CRLFFolded counts the CRs of CRLF pairs in the loaded text, which
	// the limit counts and the session does not receive; 0 (absent) for a
	// file without CRLF.
	CRLFFolded int `json:"crlf_folded,omitempty"`
	// LinesOver and UnitsOver report each limit exceeded by the whole
	// text, whichever one cut.
	LinesOver bool `json:"lines_over"`
	UnitsOver bool `json:"units_over"`
	// Limit is the limit that decided where the cut falls: LimitNone when
	// everything loads, LimitLines when line 200 is the end, LimitUnits
	// when the unit limit cut earlier than that, LimitSize when the file is
	// too large to load at all.
	Limit string `json:"limit"`
	Cut   bool   `json:"cut"`
	// FirstCutLine is the 1-based file line of the first line not loaded
	// in full, or 0 when nothing is cut.
	FirstCutLine int `json:"first_cut_line"`
	// SubjectsTotal counts every subject link on the index's pointer lines.
	SubjectsTotal int `json:"subjects_total"`
	// PastCut lists the subjects not loaded, nearest the cut first.
	PastCut []Subject `json:"past_cut"`

	// The fields below are present only when what Claude Code counts
	// differs from the file: the file's own lines and units (trimmed, as
	// above), the file lines removed as frontmatter and as block comments,
	// and the subjects those removals hide.
	FileLines        int       `json:"file_lines,omitempty"`
	FileUnits        int       `json:"file_units,omitempty"`
	FrontmatterLines int       `json:"frontmatter_lines,omitempty"`
	CommentLines     int       `json:"comment_lines,omitempty"`
	Hidden           []Subject `json:"hidden,omitempty"`
	// MemoryOff says why the session loads no memory at all (memory is
	// switched off by a setting or the environment; see
	// store.MemoryOff): nothing loads, whatever the limits.
	MemoryOff string `json:"memory_off,omitempty"`
	// IndexSkipped says why the session loads none of this MEMORY.md
	// although memory is on (CLAUDE_MEMORY_STORES is set; see
	// store.Location.IndexSkipped): nothing of it loads.
	IndexSkipped string `json:"index_skipped,omitempty"`
	// TooLarge is set when the file is over MaxBytes and nothing loads.
	TooLarge bool `json:"too_large,omitempty"`
	// Warning is the line Claude Code appends to a cut index.
	Warning string `json:"warning,omitempty"`
	// Escaped counts the tag openers Claude Code escapes in the loaded
	// text, such as "<system-reminder>" read as "<\system-reminder>".
	Escaped int `json:"escaped,omitempty"`

	// Text is the memory text exactly as Claude Code puts it into the
	// session (warning included), or "" when nothing loads.
	Text string `json:"-"`
	// CutOffset is the byte offset in the text where the loaded part ends.
	CutOffset int `json:"-"`
}

// Compute returns what Claude Code loads of text (an index decoded as
// textfile decodes it) under the given limits, taking the file's size to
// be the text's. A limit below 1 is treated as no limit.
func Compute(text string, lines, units int) Result {
	return ComputeSized(text, len(text), lines, units)
}

// ComputeSized is Compute for a file of size bytes on disk (the 4 MiB rule
// is about bytes, and decoding may change the count).
func ComputeSized(text string, size, lines, units int) Result {
	return compute(text, size, lines, units, index.Parse(textfile.Lines(text)), false, true)
}

// ComputeGiven is Compute for an index text Claude Code is handed rather
// than reads from disk (see store.IndexContentVar): it applies the limits,
// the warning and the final clean-up, but neither the 4 MiB rule nor the
// removal of frontmatter and block comments.
func ComputeGiven(text string, lines, units int) Result {
	return compute(text, 0, lines, units, index.Parse(textfile.Lines(text)), true, true)
}

// switchOff is r for a session whose memory is off: the totals stay, and
// nothing loads.
func (r Result) switchOff(why string) Result {
	r.MemoryOff = why
	return r.nothingLoads()
}

// skipIndex is r for a session that loads no MEMORY.md while memory is
// on (memory stores mounted): the totals stay, and nothing loads.
func (r Result) skipIndex(why string) Result {
	r.IndexSkipped = why
	return r.nothingLoads()
}

// nothingLoads is r with nothing of the index loaded.
func (r Result) nothingLoads() Result {
	r.LinesLoaded, r.UnitsLoaded, r.CRLFFolded = 0, 0, 0
	r.Text, r.Warning, r.Escaped = "", "", 0
	return r
}

// UnitsCounted is the units the limit counted as loaded (CRs included):
// the figure the cut is judged by.
func (r Result) UnitsCounted() int { return r.UnitsLoaded + r.CRLFFolded }

// ComputeParsed is Compute for a caller that has parsed the text already:
// ix is index.Parse(textfile.Lines(text)), which it only reads. Without
// withText the loaded text itself is not built (Result.Text, Warning and
// Escaped stay empty): the pre-write guard judges two versions of the
// index on every memory write and needs only the cut and the subjects.
func ComputeParsed(text string, ix *index.Index, lines, units int, withText bool) Result {
	return compute(text, len(text), lines, units, ix, false, withText)
}

func compute(text string, size, lines, units int, ix *index.Index, given, withText bool) Result {
	r := Result{LineLimit: lines, UnitLimit: units, Limit: LimitNone, PastCut: []Subject{}}
	fileStart, fileEnd := trimBounds(text)
	fileLines := strings.Count(text[fileStart:fileEnd], "\n") + 1
	fileUnits := func() int { return jsLen(text[fileStart:fileEnd]) } // only reported for some files
	offsets := lineOffsets(text, len(ix.Lines))

	if size > MaxBytes {
		r.TooLarge, r.Cut, r.Limit = true, true, LimitSize
		r.LinesTotal, r.UnitsTotal = fileLines, fileUnits()
		r.FirstCutLine = 1
		r.CutOffset = 0
		forSubjects(ix, offsets, func(l *index.Line, k index.Link, start, end int) {
			r.SubjectsTotal++
			r.PastCut = append(r.PastCut, Subject{Line: l.Num, Target: k.Target, Dest: k.Dest, LinkText: k.Text})
		})
		return r
	}

	// Most indexes hold no frontmatter and no comment: Claude Code loads
	// them as they are, and the text itself is the view (no copy of it,
	// no mark per byte: a guarded write computes two cuts of the index).
	var v *view
	vs := text
	fmBytes, commented := 0, false
	if !given && rewrites(text) {
		v = newView(text)
		fmBytes = v.stripFrontmatter()
		commented = v.stripComments()
		vs = string(v.s)
	}
	seen := v.visible(0, len(vs), len(text))

	start, end := trimBounds(vs)
	trimmed := vs[start:end]
	r.LinesTotal = strings.Count(trimmed, "\n") + 1
	r.UnitsTotal = jsLen(trimmed)
	r.LinesOver = lines > 0 && r.LinesTotal > lines
	r.UnitsOver = units > 0 && r.UnitsTotal > units

	kept, keptUnits := trimmed, r.UnitsTotal
	if r.LinesOver {
		kept = trimmed[:nthNewline(trimmed, lines)]
		keptUnits = jsLen(kept)
		r.Limit = LimitLines
	}
	if units > 0 && keptUnits > units {
		kept = kept[:unitCut(kept, units)]
		keptUnits = jsLen(kept)
		r.Limit = LimitUnits
	}
	r.Cut = len(kept) < len(trimmed)
	r.LinesLoaded = strings.Count(kept, "\n") + 1
	if kept == "" && r.Cut {
		r.LinesLoaded = 0
	}
	r.CRLFFolded = strings.Count(kept, "\r\n")
	r.UnitsLoaded = keptUnits - r.CRLFFolded
	loaded := v.visible(start, start+len(kept), len(text))
	r.CutOffset = len(text)
	if r.Cut {
		r.CutOffset = v.origOf(start + len(kept))
	}
	switch {
	case !withText:
	case r.Cut:
		r.Warning = warning(kept, trimmed, lines, units)
		r.Text, r.Escaped = neutralize(sanitize(kept + "\n\n" + r.Warning))
	default:
		r.Text, r.Escaped = neutralize(sanitize(kept))
	}

	if fmBytes > 0 || commented {
		r.FileLines, r.FileUnits = fileLines, fileUnits()
		r.FrontmatterLines = linesWithin(text, offsets, 0, fmBytes, nil)
		if commented {
			r.CommentLines = linesWithin(text, offsets, fmBytes, len(text), seen.marked)
		}
	}

	forSubjects(ix, offsets, func(l *index.Line, k index.Link, s, e int) {
		r.SubjectsTotal++
		sub := Subject{Line: l.Num, Target: k.Target, Dest: k.Dest, LinkText: k.Text}
		switch {
		case !seen.at(s) || !seen.at(e-1):
			sub.By = HiddenByComment
			if s < fmBytes {
				sub.By = HiddenByFrontmatter
			}
			r.Hidden = append(r.Hidden, sub)
		case !loaded.at(e - 1):
			r.PastCut = append(r.PastCut, sub)
		}
	})
	if r.Cut {
		r.FirstCutLine = lineOf(offsets, r.CutOffset)
		if start+len(kept) < len(vs) && vs[start+len(kept)] == '\n' && len(kept) > 0 {
			// The cut fell on a line break: the first line not loaded is
			// the one after it.
			r.FirstCutLine = lineOf(offsets, v.origOf(start+len(kept))+1)
		}
	}
	return r
}

// Lost reports whether a session loses anything it should see: a cut, or
// a subject hidden by frontmatter. Subjects inside block comments are not
// counted: a comment is an explicit way to keep text out.
func (r *Result) Lost() bool {
	if r.Cut {
		return true
	}
	for _, s := range r.Hidden {
		if s.By == HiddenByFrontmatter {
			return true
		}
	}
	return false
}

// forSubjects calls fn for every subject link on the pointer lines of ix,
// with the link's byte range in the whole text.
func forSubjects(ix *index.Index, offsets []int, fn func(l *index.Line, k index.Link, start, end int)) {
	for i := range ix.Lines {
		l := &ix.Lines[i]
		if !l.Pointer {
			continue
		}
		for _, k := range l.Links {
			if k.Subject {
				fn(l, k, offsets[i]+k.Start, offsets[i]+k.End)
			}
		}
	}
}

// linesWithin counts the file lines starting in [from, to) that hold no
// byte marked in seen (seen nil: every line starting in the range whose
// end is also in it).
func linesWithin(text string, offsets []int, from, to int, seen []bool) int {
	n := 0
	for i, start := range offsets {
		if start < from || start >= to {
			continue
		}
		end := len(text)
		if i+1 < len(offsets) {
			end = offsets[i+1]
		}
		if seen == nil {
			if end <= to {
				n++
			}
			continue
		}
		hidden := true
		for b := start; b < end; b++ {
			if seen[b] {
				hidden = false
				break
			}
		}
		if hidden {
			n++
		}
	}
	return n
}

// lineOf returns the 1-based line holding byte offset off.
func lineOf(offsets []int, off int) int {
	n := 1
	for i, start := range offsets {
		if start <= off {
			n = i + 1
		}
	}
	return n
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
func jsLen(s string) int { return textfile.UTF16Len(s) }

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
	for i := 0; i < len(s); {
		if u > units {
			break
		}
		// Eight bytes of ASCII that all fit are one unit each and can
		// neither pass the limit nor stop the loop: they are taken at
		// once, and only a line break among them is looked for.
		if i+8 <= len(s) && u+8 <= units {
			x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
				uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
			if x&0x8080808080808080 == 0 {
				if y := x ^ 0x0a0a0a0a0a0a0a0a; (y-0x0101010101010101)&^y&0x8080808080808080 != 0 {
					for j := 7; j >= 0; j-- {
						if s[i+j] == '\n' {
							if u+j > 0 {
								cut = i + j
							}
							break
						}
					}
				}
				i, u = i+8, u+8
				continue
			}
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == '\n' && u > 0 {
			cut = i
		}
		w := textfile.UnitsOfRune(r)
		if u+w > units && hard == len(s) {
			hard = i
		}
		u += w
		i += size
	}
	if cut > 0 {
		return cut
	}
	return hard
}

// lineOffsets returns the byte offset in text where each of the first n
// lines (as textfile.Lines splits them) starts. It jumps from one line
// end to the next with IndexByte (many bytes per instruction) instead of
// looking at every byte: the guard finds the lines of a long index twice
// on every write to it.
func lineOffsets(text string, n int) []int {
	out := make([]int, 0, n)
	start := 0
	cr := -1 // the next '\r' at or after start; len(text) for none
	for len(out) < n {
		nl := strings.IndexByte(text[start:], '\n')
		if nl < 0 {
			nl = len(text)
		} else {
			nl += start
		}
		if cr < start {
			if cr = strings.IndexByte(text[start:], '\r'); cr < 0 {
				cr = len(text)
			} else {
				cr += start
			}
		}
		end := min(nl, cr)
		if end >= len(text) {
			break
		}
		out = append(out, start)
		start = end + 1
		if text[end] == '\r' && start < len(text) && text[start] == '\n' {
			start++
		}
	}
	if len(out) < n {
		out = append(out, start)
	}
	return out
}
