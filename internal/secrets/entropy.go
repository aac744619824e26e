package secrets

import "strings"

// The "high-entropy" rule flags a bare token random enough to be a key,
// whatever name it has or lacks. Memory files are full of long names that
// are not random at all (dated file names, paths, URLs, identifiers) and of
// random-looking values that are not secret (commit SHAs, content hashes,
// UUIDs, document IDs inside links), so the rule is narrow. A token is
// flagged when all of these hold:
//
//   - it is a run of base64/base64url characters (letters, digits, '_',
//     '-', '+', then up to three '=' of padding) at least minTokenLen long,
//     not counting padding;
//   - it is not part of a path, URL or file name: the whitespace-delimited
//     word holding it has no '/' or '\', and no '.' follows the run;
//   - it mixes upper case, lower case and digits (so hex digests, SHAs and
//     UUIDs, which are single-case, never qualify, nor do SCREAMING_NAMES
//     or snake_case_file_names);
//   - it is not a hexadecimal number in any letter case, "0x" prefix or
//     not (an Ethereum address is mixed-case hex, and public);
//   - its Shannon entropy is at least minTokenEntropy bits per character;
//   - its letters and digits change class (upper, lower, digit) at least
//     minClassChanges of the time from one character to the next: random
//     base62 changes class about 62% of the time, CamelCase words about
//     25%, which is what separates a key from a long identifier.
//
// Secrets in base64 with '/' in them (an AWS secret key) are left to
// gitleaks' and the key-name rules, which see their names; treating every
// path segment as a candidate would flag every path.
const (
	minTokenLen     = 32
	minTokenEntropy = 4.0
	minClassChanges = 0.40
)

// scanEntropy applies the "high-entropy" rule in one pass: token runs are
// visited in order and the word around each is found with cursors that
// only move forward, so a megabyte of base64 costs one read.
func scanEntropy(sc *scanner, first bool) []hit {
	return scanEntropyIn(sc, 0, len(sc.text), first)
}

// scanEntropyIn is scanEntropy's hits on the lines of text[lo:hi], where
// lo starts a line and hi ends one (past its terminator) or the text: a
// token, and the word holding it, never cross a line break, so these are
// the very hits a scan of the whole text finds there.
func scanEntropyIn(sc *scanner, lo, hi int, first bool) []hit {
	text := sc.text
	words := newWordCursor(text)
	// The byte before lo ends a line, so it ends a word too.
	words.scanned, words.lastDelim = lo, lo-1
	var hits []hit
	for i := lo; i < hi; {
		if !isTokenByte(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isTokenByte(text[j]) {
			j++
		}
		start, end := i, j
		i = j
		if end-start < minTokenLen {
			continue
		}
		for end < len(text) && end-j < 3 && text[end] == '=' {
			end++
		}
		tok := strings.TrimRight(text[start:end], "=")
		tok = strings.Trim(tok, "_-+")
		if len(tok) < minTokenLen {
			continue
		}
		start += strings.Index(text[start:end], tok)
		end = start + len(tok)
		if words.inPathOrURL(start, end) || !highEntropy(tok) || sc.allowedAt(start) {
			continue
		}
		if tokenAllowed(tok) {
			continue
		}
		hits = append(hits, hit{rule: "high-entropy", start: start, end: end, rank: rankEntropy})
		if first {
			return hits
		}
	}
	return hits
}

// tokenAllowed is gitleaks' global allowlist as it applies to a token of
// letters, digits, '_', '-' and '+' that passed highEntropy: of its
// regexes only (?i)^true|false|null$ can match such a token (the others
// need '$', '{', '%', '.', '*' or one repeated letter). Checking it by hand
// keeps a megabyte of base64, which is thousands of tokens, from costing
// thousands of regexp calls.
func tokenAllowed(tok string) bool {
	lower := strings.ToLower(tok)
	return strings.HasPrefix(lower, "true") || strings.Contains(lower, "false") || strings.HasSuffix(lower, "null")
}

func isTokenByte(b byte) bool { return isAlnum(b) || b == '_' || b == '-' || b == '+' }

// wordCursor answers inPathOrURL for token runs visited in increasing
// order in linear total time.
type wordCursor struct {
	text      string
	scanned   int // bytes before this have been seen by the backward marks
	lastDelim int // last word-start delimiter before scanned, or -1
	lastSlash int // last '/' or '\' before scanned, or -1
	nextEnd   int // a word-end delimiter at or after the last query, or len
	nextSlash int // a slash at or after the last query, or len
}

func newWordCursor(text string) *wordCursor {
	return &wordCursor{text: text, lastDelim: -1, lastSlash: -1, nextEnd: -1, nextSlash: -1}
}

const (
	wordStartDelims = " \t\r\n`'\"(<["
	wordEndDelims   = " \t\r\n`'\")>]"
)

// inPathOrURL reports whether text[start:end] sits in a path, URL or file
// name: its whitespace-delimited word holds a slash, or a '.' follows it.
func (w *wordCursor) inPathOrURL(start, end int) bool {
	text := w.text
	if end < len(text) && text[end] == '.' && end+1 < len(text) && isAlnum(text[end+1]) {
		return true
	}
	for ; w.scanned < start; w.scanned++ {
		c := text[w.scanned]
		if strings.IndexByte(wordStartDelims, c) >= 0 {
			w.lastDelim = w.scanned
		}
		if c == '/' || c == '\\' {
			w.lastSlash = w.scanned
		}
	}
	ws := w.lastDelim + 1
	if w.lastSlash >= ws {
		return true
	}
	if w.nextEnd < end {
		w.nextEnd = indexAnyFrom(text, end, wordEndDelims)
	}
	if w.nextSlash < start {
		w.nextSlash = indexAnyFrom(text, start, "/\\")
	}
	return w.nextSlash < w.nextEnd
}

// indexAnyFrom is the first index at or after from of a byte in set, or
// len(s).
func indexAnyFrom(s string, from int, set string) int {
	if i := strings.IndexAny(s[from:], set); i >= 0 {
		return from + i
	}
	return len(s)
}

// highEntropy reports whether tok passes the class-mix, entropy and
// class-change tests of the rule.
func highEntropy(tok string) bool {
	if isHex(strings.TrimPrefix(strings.TrimPrefix(tok, "0x"), "0X")) {
		return false
	}
	var upper, lower, digit bool
	changes, n, prev := 0, 0, -1
	for i := 0; i < len(tok); i++ {
		c := charClass(tok[i])
		switch c {
		case 0:
			upper = true
		case 1:
			lower = true
		case 2:
			digit = true
		default:
			continue
		}
		if prev >= 0 && c != prev {
			changes++
		}
		prev = c
		n++
	}
	if !upper || !lower || !digit || n < 2 {
		return false
	}
	if float64(changes)/float64(n-1) < minClassChanges {
		return false
	}
	return shannon(tok) >= minTokenEntropy
}

// charClass is 0 for upper case, 1 lower case, 2 digit, 3 anything else.
func charClass(b byte) int { return int(byteClass[b]) }

// byteClass is charClass as a table: the scan asks it for every byte.
var byteClass = func() (t [256]uint8) {
	for i := range t {
		switch b := byte(i); {
		case 'A' <= b && b <= 'Z':
			t[i] = 0
		case 'a' <= b && b <= 'z':
			t[i] = 1
		case '0' <= b && b <= '9':
			t[i] = 2
		default:
			t[i] = 3
		}
	}
	return t
}()

func isAlnum(b byte) bool { return charClass(b) < 3 }

// isHex reports whether s is all hexadecimal digits, in any letter case.
func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}
