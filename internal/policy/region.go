package policy

import (
	"github.com/memcompact/memcompact/internal/index"
)

// Marker lines of the reference copy and of a store's policy file.
const (
	PolicyBegin = "<!-- policy-canonical-begin -->"
	PolicyEnd   = "<!-- policy-canonical-end -->"
	StanzaBegin = "<!-- stanza-canonical-begin -->"
	StanzaEnd   = "<!-- stanza-canonical-end -->"
	ValuesBegin = "<!-- store-values-begin -->"
	ValuesEnd   = "<!-- store-values-end -->"
)

// Region is a marked region read from a list of lines.
type Region struct {
	// Begin is the 0-based index of the first begin marker, or -1.
	Begin int
	// End is the 0-based index of the first end marker after Begin, or -1.
	End int
	// BeginCount and EndCount count every marker line of each kind,
	// wherever it sits.
	BeginCount, EndCount int
	// Block is the normalized text between the markers (see NormalizeBlock);
	// empty unless at least one line lies between them.
	Block []string
	// BlockStart is the 0-based index in the file of Block[0].
	BlockStart int
}

// Declared reports whether both markers exist, in order.
func (r *Region) Declared() bool { return r.Begin >= 0 && r.End > r.Begin }

// HasContent reports whether the region is declared and its block holds
// at least one non-empty line.
func (r *Region) HasContent() bool { return r.Declared() && len(r.Block) > 0 }

// Duplicated reports whether the file carries other than exactly one begin
// and one end marker: with two, which region governs would be a guess.
func (r *Region) Duplicated() bool { return r.BeginCount != 1 || r.EndCount != 1 }

// Appears reports whether either marker appears anywhere.
func (r *Region) Appears() bool { return r.BeginCount > 0 || r.EndCount > 0 }

// ReadRegion finds the region between begin and end in lines.
func ReadRegion(lines []string, begin, end string) Region {
	r := Region{Begin: -1, End: -1}
	for i, l := range lines {
		t := index.TrimSpace(l)
		switch {
		case EqualFoldASCII(t, begin):
			r.BeginCount++
			if r.Begin < 0 {
				r.Begin = i
			}
		case EqualFoldASCII(t, end):
			r.EndCount++
			if r.Begin >= 0 && r.End < 0 {
				r.End = i
			}
		}
	}
	if r.Declared() && r.End > r.Begin+1 {
		r.Block, r.BlockStart = normalize(lines[r.Begin+1:r.End], r.Begin+1)
	}
	return r
}

// IsMarker reports whether line is the marker m: its trimmed text equals m
// without regard to ASCII letter case.
func IsMarker(line, m string) bool { return EqualFoldASCII(index.TrimSpace(line), m) }

// NormalizeBlock removes trailing whitespace from each line and drops
// leading and trailing empty lines. The result is what compared texts are
// compared as (joined with LF).
func NormalizeBlock(lines []string) []string {
	b, _ := normalize(lines, 0)
	return b
}

func normalize(lines []string, offset int) ([]string, int) {
	start, end := 0, len(lines)
	for start < end && index.TrimRight(lines[start]) == "" {
		start++
	}
	for end > start && index.TrimRight(lines[end-1]) == "" {
		end--
	}
	if start == end {
		return nil, offset
	}
	out := make([]string, end-start)
	for i := range out {
		out[i] = index.TrimRight(lines[start+i])
	}
	return out, offset + start
}

// EqualFoldASCII reports whether a and b are equal when ASCII letters are
// folded to one case; other characters must match exactly.
func EqualFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// HasSectionHeading reports whether any line of block is a "## " section
// heading, which would move the index-side header boundary into compared
// text.
func HasSectionHeading(block []string) bool {
	for _, l := range block {
		if index.IsHeading(l) {
			return true
		}
	}
	return false
}
