// Package secretheading holds the one rule that says a Markdown heading or an
// entry title names a section of secrets. Both the entry splitter (which
// keeps such entries out of every summary) and the secret scanner (which
// flags the values listed under such a heading) ask it, so they cannot
// disagree. It has no dependencies, so asking costs nothing at start-up.
package secretheading

import (
	"strings"
	"unicode/utf8"
)

// secretWords are the first words that make a title a secret section.
var secretWords = []string{"secrets", "credentials", "creds", "tokens", "passwords", "passwds", "api keys", "api-keys", "keys and tokens", "logins"}

// Secret reports whether a heading's text (without the leading #s) or an
// entry's title names a section of secrets: after any leading date, time,
// list marker, emphasis or emoji, it starts with "Secrets", "Credentials",
// "Tokens", "Passwords", "API keys" or "Logins" (any case) as a whole
// word — "## Secrets", "### Credentials", "2026-01-03 — Secrets for
// staging", "**Passwords**". "Secret sharing" and "Token budgets" are
// not: only the plural names a list of them.
func Secret(title string) bool {
	t := strings.ToLower(head(skipLead(title)))
	for _, w := range secretWords {
		if strings.HasPrefix(t, w) && (len(t) == len(w) || !isWordByte(t[len(w)])) {
			return true
		}
	}
	return false
}

// skipLead drops what may come before a title's first word: markers,
// punctuation, emoji, and dates or times (digits with - / : .).
// headBytes is as much of a title as Secret lowers: the longest word is
// 15 bytes, and no character lowers to less than a quarter of its bytes,
// so the first 64 bytes lower to at least 16, enough for every word and
// the byte after it. A long pointer line is not lowered whole.
const headBytes = 64

// head cuts s to about headBytes, at a character boundary.
func head(s string) string {
	if len(s) <= headBytes {
		return s
	}
	i := headBytes
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i]
}

func skipLead(s string) string {
	for {
		t := strings.TrimLeftFunc(s, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		})
		i := 0
		for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '-' || t[i] == '/' || t[i] == ':' || t[i] == '.') {
			i++
		}
		if i == 0 || i < len(t) && isWordByte(t[i]) {
			return t
		}
		s = t[i:]
	}
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_'
}

// Line reports whether line is an ATX Markdown heading ("#" to "######",
// then a space) whose text names a section of secrets, and its level.
func Line(line string) (level int, secret bool) {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return 0, false
	}
	for level < len(t) && t[level] == '#' {
		level++
	}
	if level == 0 || level > 6 || level < len(t) && t[level] != ' ' && t[level] != '\t' {
		return 0, false
	}
	return level, Secret(t[level:])
}
