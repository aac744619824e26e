package secrets

import (
	"strings"

	"github.com/memcompact/memcompact/internal/secretheading"
)

// The "secret-section" rule flags the values listed under a heading that
// names a section of secrets (secretheading.Secret: "### Credentials", "##
// Secrets for staging", at any level) and on a list item titled that way
// ("- **Secrets for prod**: …"). Such a section's values rarely have a name
// that says what they are ("- staging: Xk9!mQ2#vL"), so inside it:
//
//   - a "label: value" or "label = value" line whose value is one word is
//     a secret when plainValue accepts the word (six characters or more);
//   - any other word is a secret when it looks like a password: six
//     characters or more, not a URL, path, e-mail address, date, number or
//     version, holding a symbol (!@#$%^&*+=?~) next to letters or digits,
//     or changing between upper case, lower case and digits at least three
//     times ("Tr0ub4dor&3", "x9Km2Qp7").
//
// A section runs to the next heading of the same or a shallower level;
// fenced code inside it counts as part of it.
//
// words are where the keyword pass found sectionWords in the text (in
// increasing order of their end): a line holding none of them cannot
// title a list item as secret, so secretheading.Secret, which lower-cases
// the title, is asked only about the others. The pass lowers ASCII only,
// and of all other characters only İ and the Kelvin sign lower-case to
// ASCII letters ("API \u212Aeys"): a text holding either is asked about
// on every line.
func (sc *scanner) scanSections(first bool, words []kwHit) []hit {
	text := sc.text
	var hits []hit
	var stack []int // levels of enclosing headings; negative = secret
	fence := ""
	titled := -1 // indent of a secret-titled list item whose block we are in
	k := 0       // the first of words that ends past the line's start
	folds := strings.Contains(text, "\u0130") || strings.Contains(text, "\u212a")
	for _, l := range linesOf(text, 0, len(text)) {
		line := text[l.lo:l.hi]
		for k < len(words) && words[k].end <= l.lo {
			k++
		}
		// A keyword holds no line break, so one that ends in the line
		// lies in it.
		named := folds || k < len(words) && words[k].end <= l.hi
		trimmed := strings.TrimLeft(line, " \t")
		indent := len(line) - len(trimmed)
		if f := fenceMark(trimmed); f != "" && indent < 4 {
			if fence == "" {
				fence = f
			} else if strings.HasPrefix(f, fence) {
				fence = ""
			}
		}
		if fence == "" {
			if lv, secret := secretheading.Line(line); lv > 0 {
				for len(stack) > 0 && abs(stack[len(stack)-1]) >= lv {
					stack = stack[:len(stack)-1]
				}
				if secret {
					lv = -lv
				}
				stack = append(stack, lv)
				titled = -1
				continue
			}
		}
		if titled >= 0 && trimmed != "" && indent <= titled {
			titled = -1
		}
		if titled < 0 && named && listTitleSecret(trimmed) {
			titled = indent
		}
		if titled < 0 && !inSecret(stack) {
			continue
		}
		if strings.Contains(line, gitleaksAllowSignature) {
			continue
		}
		for _, h := range sectionValues(line) {
			hits = append(hits, hit{rule: "secret-section", start: l.lo + h.lo, end: l.lo + h.hi, rank: rankSection})
			if first {
				return hits
			}
		}
	}
	return hits
}

// sectionWords gate the secret-section pass: a text without any of them
// has no secret heading or title.
var sectionWords = []string{"secret", "credential", "creds", "token", "password", "passwd", "api key", "api-key", "login"}

func inSecret(stack []int) bool {
	for _, lv := range stack {
		if lv < 0 {
			return true
		}
	}
	return false
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// fenceMark returns the fence (``` or ~~~, with its length) a line opens
// or closes, or "".
func fenceMark(t string) string {
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(t) && t[n] == c {
			n++
		}
		if n >= 3 {
			return t[:n]
		}
	}
	return ""
}

// listTitleSecret reports whether a list item's title names secrets:
// "- **Secrets for prod**: …", "* Credentials (staging): …".
func listTitleSecret(t string) bool {
	switch {
	case strings.HasPrefix(t, "- "), strings.HasPrefix(t, "* "), strings.HasPrefix(t, "+ "):
		t = t[2:]
	default:
		i := 0
		for i < len(t) && '0' <= t[i] && t[i] <= '9' {
			i++
		}
		if i == 0 || i+1 >= len(t) || (t[i] != '.' && t[i] != ')') || t[i+1] != ' ' {
			return false
		}
		t = t[i+2:]
	}
	return secretheading.Secret(t)
}

// sectionValues returns the byte ranges of the secrets on one line of a
// secret section.
func sectionValues(line string) []span {
	body := strings.TrimLeft(line, " \t")
	off := len(line) - len(body)
	if m := listMarker(body); m > 0 {
		body, off = body[m:], off+m
	}
	// label: value, one word.
	if i := strings.IndexAny(body, ":="); i > 0 && !strings.HasPrefix(body[i:], "://") {
		v := strings.TrimSpace(body[i+1:])
		if v != "" && !strings.ContainsAny(v, " \t") {
			vs := off + i + 1 + strings.Index(body[i+1:], v)
			s, e := trimWord(line, vs, vs+len(v))
			if e-s >= 6 && plainValue(line[s:e], 6) && !ordinaryWord(line[s:e]) {
				return []span{{s, e}}
			}
		}
	}
	var out []span
	for i := off; i < len(line); {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' {
			j++
		}
		if s, e := trimWord(line, i, j); e-s >= 6 && passwordLike(line[s:e]) {
			out = append(out, span{s, e})
		}
		i = j
	}
	return out
}

func listMarker(t string) int {
	if len(t) >= 2 && strings.IndexByte("-*+", t[0]) >= 0 && t[1] == ' ' {
		return 2
	}
	return 0
}

// trimWord drops quotes, code marks, brackets and prose punctuation around
// a word.
func trimWord(line string, s, e int) (int, int) {
	const edge = "`'\"()[]{}<>*_,.;:"
	for s < e && strings.IndexByte(edge, line[s]) >= 0 {
		s++
	}
	for e > s && strings.IndexByte(edge, line[e-1]) >= 0 {
		e--
	}
	return s, e
}

// ordinaryWord: a lower-case word of letters and hyphens, as prose is
// written ("managed-by-ops"), which a one-word label value may be.
func ordinaryWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; !('a' <= c && c <= 'z' || c == '-') {
			return false
		}
	}
	return len(w) < 16
}

// passwordLike is the bare-word test of a secret section.
func passwordLike(w string) bool {
	if strings.Contains(w, "://") || strings.ContainsAny(w[:1], "/~$%<{") || strings.Contains(w, "/") && strings.Contains(w, ".") {
		return false
	}
	if at := strings.IndexByte(w, '@'); at > 0 && strings.Contains(w[at:], ".") {
		return false // an e-mail address
	}
	letters, digits, symbols := 0, 0, 0
	changes, prev := 0, -1
	for i := 0; i < len(w); i++ {
		c := charClass(w[i])
		switch {
		case c <= 1:
			letters++
		case c == 2:
			digits++
		case strings.IndexByte("!@#$%^&*+=?~", w[i]) >= 0:
			symbols++
		}
		if c < 3 {
			if prev >= 0 && c != prev {
				changes++
			}
			prev = c
		}
	}
	if letters == 0 {
		return false // a number, date, version or time
	}
	if !plainValue(w, 6) {
		return false
	}
	return symbols > 0 && letters+digits >= 4 || changes >= 3
}
