package index

import (
	"strings"
	"unicode/utf8"
)

// A link tail is what follows "]": the destination and an optional title,
//
//	( ws* ( <[^>]*> | [^()ws]+ ) ( ws+ ( "[^"]*" | '[^']*' | ([^)]*) ) )? ws* )
//
// matched the way a backtracking regular-expression engine matches that
// pattern (the reference implementation's semantics). It is matched by
// hand because the regular expression costs time proportional to the rest
// of the line at every "](": a line of repeated "[a](<" took minutes.
// finder answers "where is the next c at or after p" in amortized constant
// time, because a line's tails are matched left to right.

// finder finds delimiter bytes in one line, remembering its last answer
// per delimiter so that a scan never re-reads the same stretch twice.
type finder struct {
	line string
	memo [4]struct{ from, at int } // at: index of the byte, -1 none, from: query start
	set  [4]bool
	// scanned counts the bytes searched, so a test can hold the matcher
	// to linear work.
	scanned int
}

var delims = [4]byte{'>', '"', '\'', ')'}

// nextByte returns the index of the first c at or after p, or -1.
func (f *finder) nextByte(c byte, p int) int {
	k := strings.IndexByte(string(delims[:]), c)
	m := &f.memo[k]
	if f.set[k] && p >= m.from && (m.at < 0 || p <= m.at) {
		return m.at
	}
	at := strings.IndexByte(f.line[p:], c)
	if at >= 0 {
		at += p
		f.scanned += at - p + 1
	} else {
		f.scanned += len(f.line) - p
	}
	f.set[k], m.from, m.at = true, p, at
	return at
}

// tail matches a link tail starting at the "(" at index open. It returns
// the destination's span and the index just past the closing ")".
func (f *finder) tail(s string, open int) (targetStart, targetEnd, end int, ok bool) {
	if open >= len(s) || s[open] != '(' {
		return 0, 0, 0, false
	}
	ts := skipWS(s, open+1)
	// The angle-bracketed destination first; when what follows it does not
	// close the tail, the pattern's other branch is tried from the '<'.
	if ts < len(s) && s[ts] == '<' {
		if gt := f.nextByte('>', ts+1); gt >= 0 {
			if end, ok := f.afterTarget(s, gt+1); ok {
				return ts, gt + 1, end, true
			}
		}
	}
	te := ts
	for te < len(s) {
		if c := s[te]; c < utf8.RuneSelf {
			if c == '(' || c == ')' || isWS(rune(c)) {
				break
			}
			te++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[te:])
		if isWS(r) {
			break
		}
		te += n
	}
	if te == ts {
		return 0, 0, 0, false
	}
	if end, ok := f.afterTarget(s, te); ok {
		return ts, te, end, true
	}
	return 0, 0, 0, false
}

// afterTarget matches the optional title and the closing ")" from p.
func (f *finder) afterTarget(s string, p int) (end int, ok bool) {
	q := skipWS(s, p)
	if q > p && q < len(s) {
		closer := byte(0)
		switch s[q] {
		case '"':
			closer = '"'
		case '\'':
			closer = '\''
		case '(':
			closer = ')'
		}
		if closer != 0 {
			if c := f.nextByte(closer, q+1); c >= 0 {
				r := skipWS(s, c+1)
				if r < len(s) && s[r] == ')' {
					return r + 1, true
				}
			}
		}
	}
	if q < len(s) && s[q] == ')' {
		return q + 1, true
	}
	return 0, false
}
