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

// scanEntropy applies the "high-entropy" rule.
func scanEntropy(text string, first bool) []hit {
	var hits []hit
	for _, m := range tokenRuns(text) {
		start, end := m[0], m[1]
		tok := strings.TrimRight(text[start:end], "=")
		tok = strings.Trim(tok, "_-+")
		if len(tok) < minTokenLen {
			continue
		}
		start += strings.Index(text[start:end], tok)
		end = start + len(tok)
		if inPathOrURL(text, start, end) || !highEntropy(tok) || allowedLine(text, start) {
			continue
		}
		if allowed(gitleaksRules().global, "high-entropy", tok, tok, "") {
			continue
		}
		hits = append(hits, hit{rule: "high-entropy", start: start, end: end, rank: rankEntropy})
		if first {
			return hits
		}
	}
	return hits
}

// tokenRuns returns the byte ranges of the maximal runs of token
// characters (letters, digits, '_', '-', '+'), with up to three '='
// following, that are at least minTokenLen long. A loop rather than a
// regexp: a counted repetition of 32 compiles to 32 states and runs ten
// times slower.
func tokenRuns(text string) [][2]int {
	var runs [][2]int
	for i := 0; i < len(text); {
		if !isTokenByte(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isTokenByte(text[j]) {
			j++
		}
		if j-i >= minTokenLen {
			end := j
			for end < len(text) && end-j < 3 && text[end] == '=' {
				end++
			}
			runs = append(runs, [2]int{i, end})
		}
		i = j
	}
	return runs
}

func isTokenByte(b byte) bool { return isAlnum(b) || b == '_' || b == '-' || b == '+' }

// inPathOrURL reports whether text[start:end] sits in a path, URL or file
// name: its whitespace-delimited word holds a slash, or a '.' follows it.
func inPathOrURL(text string, start, end int) bool {
	if end < len(text) && text[end] == '.' && end+1 < len(text) && isAlnum(text[end+1]) {
		return true
	}
	ws := strings.LastIndexAny(text[:start], " \t\r\n`'\"(<[") + 1
	we := strings.IndexAny(text[end:], " \t\r\n`'\")>]")
	if we < 0 {
		we = len(text)
	} else {
		we += end
	}
	return strings.ContainsAny(text[ws:we], "/\\")
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
func charClass(b byte) int {
	switch {
	case 'A' <= b && b <= 'Z':
		return 0
	case 'a' <= b && b <= 'z':
		return 1
	case '0' <= b && b <= '9':
		return 2
	}
	return 3
}

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
