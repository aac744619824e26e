package loadcut

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// warning is the line Claude Code appends to a cut index, so the agent at
// least learns that it holds only part of it. kept is the text loaded,
// trimmed the text it was cut from; lines and units are the limits.
func warning(kept, trimmed string, lines, units int) string {
	total := strings.Count(trimmed, "\n") + 1
	size := jsLen(trimmed)
	linesOver, unitsOver := total > lines, size > units
	var what string
	switch {
	case unitsOver && !linesOver:
		what = fmt.Sprintf("%s (limit: %s) — index entries are too long", humanSize(size), humanSize(units))
	case linesOver && !unitsOver:
		what = fmt.Sprintf("%d lines (limit: %d)", total, lines)
	default:
		what = fmt.Sprintf("%d lines and %s", total, humanSize(size))
	}
	// Whole lines kept: none when the cut fell inside line 1.
	whole := 0
	if len(kept) < len(trimmed) && trimmed[len(kept)] == '\n' {
		whole = strings.Count(kept, "\n") + 1
	}
	var lost string
	if whole == 0 {
		// A hard cut is always at exactly the unit limit in JavaScript,
		// even where it splits a surrogate pair and Go keeps one unit less.
		lost = fmt.Sprintf("everything after the first %d characters of line 1 was cut off", max(jsLen(kept), min(units, jsLen(trimmed))))
	} else {
		next := ""
		if rest := trimmed[min(len(kept)+1, len(trimmed)):]; rest != "" {
			if i := strings.IndexByte(rest, '\n'); i >= 0 {
				rest = rest[:i]
			}
			a, b := trimBounds(rest)
			next = rest[a:b]
		}
		lost = fmt.Sprintf("%d of %d lines were cut off, starting at line %d", total-whole, total, whole+1)
		if next != "" {
			lost += ` ("` + shorten(next, 80) + `")`
		}
	}
	return "> WARNING: MEMORY.md is " + what + ". Only part of it was loaded: " + lost +
		". Keep index entries to one line under ~200 chars; move detail into topic files."
}

// humanSize spells a count the way Claude Code's size formatter does: as
// bytes below 1024, else in KB or MB with one decimal, a trailing ".0"
// dropped. (Claude Code feeds it UTF-16 units and calls them bytes.)
func humanSize(n int) string {
	kb := float64(n) / 1024
	if kb < 1 {
		return fmt.Sprintf("%d bytes", n)
	}
	if kb < 1024 {
		return oneDecimal(kb) + "KB"
	}
	return oneDecimal(kb/1024) + "MB"
}

// oneDecimal formats f as JavaScript's toFixed(1), without a trailing ".0".
func oneDecimal(f float64) string {
	s := strconv.FormatFloat(math.Round(f*10)/10, 'f', 1, 64)
	return strings.TrimSuffix(s, ".0")
}

// shorten cuts s to at most n UTF-16 units the way Claude Code quotes the
// first lost line: at the last word break past half the width when there
// is one, else hard (never inside a surrogate pair), then an ellipsis.
func shorten(s string, n int) string {
	if jsLen(s) <= n {
		return s
	}
	u := utf16.Encode([]rune(s))[:n-1]
	if len(u) > 0 && utf16.IsSurrogate(rune(u[len(u)-1])) && u[len(u)-1] < 0xDC00 {
		u = u[:len(u)-1]
	}
	head := string(utf16.Decode(u))
	cut := ""
	// The last white space followed only by non-space to the end.
	if i := strings.LastIndexFunc(head, jsSpace); i >= 0 {
		cut = strings.TrimRightFunc(head[:i], jsSpace)
	}
	if jsLen(cut) > n/2 {
		return cut + "…"
	}
	return strings.TrimRightFunc(head, jsSpace) + "…"
}

// sanitize is what Claude Code does to the loaded text last, after the cut:
// every CRLF, lone CR, U+2028 and U+2029 becomes LF, and control, format,
// private-use, unassigned, surrogate and default-ignorable characters are
// removed, except ZWNJ, ZWJ and the two emoji presentation selectors.
// Go's Unicode tables decide "unassigned"; where they are older than
// Claude Code's runtime, a character assigned only in the newer version
// is removed here and kept there.
func sanitize(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\r':
			b.WriteByte('\n')
			if i+1 < len(s) && s[i+1] == '\n' {
				size++
			}
		case r == 0x2028 || r == 0x2029:
			b.WriteByte('\n')
		case removed(r):
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// removed reports whether sanitize drops r.
func removed(r rune) bool {
	if r >= 0x20 && r < 0x7F {
		// Printable ASCII, most of any index: letters, digits, punctuation,
		// symbols and the space, none of them removed. Answered here because
		// the table look-ups below are the load cut's costliest step, and
		// the pre-write hook computes the cut on every index write.
		return false
	}
	return removedSlow(r)
}

// removedSlow is removed without the printable-ASCII shortcut.
func removedSlow(r rune) bool {
	switch r {
	case 0x200C, 0x200D, 0xFE0E, 0xFE0F, '\t', '\n':
		return false
	}
	if r < 0x20 || (r >= 0x7F && r <= 0x9F) {
		return true
	}
	if unicode.In(r, unicode.Cf, unicode.Co, unicode.Cs, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector) {
		return true
	}
	return !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.Cc)
}
