package secrets

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// MemoryCore's design names two kinds of secret that gitleaks' rules, which
// look for known token formats, can miss: a value assigned to a name that
// says it is secret, and a value random enough to be a key whatever its
// name. Both are defined here precisely enough to test.

// keyNameRE matches NAME, an assignment operator and a value. The name
// ends in one of MemoryCore's suffixes and may be quoted (JSON, YAML) or
// exported (shell). Group 1 is the name, group 2 the value.
var keyNameRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[^A-Za-z0-9_])["'` + "`" + `]?([A-Za-z][A-Za-z0-9_]*_(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?))["'` + "`" + `]?[ \t]*(?::=|=|:)[ \t]*["'` + "`" + `]?([^\s"'` + "`" + `,;]+)`)
})

// keyNameRule is the "key-name" rule, gated on its suffixes.
func keyNameRule() *rule {
	return &rule{
		id:       "key-name",
		keywords: []string{"_key", "_token", "_secret", "_password", "_passwd", "_credential"},
		width:    maxReach,
		run:      scanKeyNames,
		near:     nearAssign("sS\"'`"),
	}
}

// keyNameExempt lists the names that end in a secret suffix but name
// something public or structural (a primary key is a column, a public key
// is published). Upper case; compared against the upper-cased name.
var keyNameExempt = []string{
	"PUBLIC_KEY", "PUBLISHABLE_KEY", "PRIMARY_KEY", "FOREIGN_KEY", "SORT_KEY",
	"PARTITION_KEY", "CACHE_KEY", "IDEMPOTENCY_KEY", "SORTING_KEY", "HASH_KEY",
	"RANGE_KEY", "ROW_KEY", "LOOKUP_KEY", "MAP_KEY", "DICT_KEY", "HOT_KEY",
	"SHORTCUT_KEY", "CSRF_TOKEN", "NEXT_TOKEN", "PAGE_TOKEN", "CONTINUATION_TOKEN",
	"MAX_TOKEN", "MAX_TOKENS", "MIN_TOKEN", "CANCEL_TOKEN", "CANCELLATION_TOKEN",
}

// scanKeyNames applies the "key-name" rule to the lines of text[lo:hi].
func scanKeyNames(sc *scanner, lo, hi int, first bool) []hit {
	global := gitleaksRules().global
	var hits []hit
	for _, l := range linesOf(sc.text, lo, hi) {
		line := sc.text[l.lo:l.hi]
		if !hasSecretSuffix(line) {
			continue
		}
		for _, m := range keyNameRE().FindAllStringSubmatchIndex(line, -1) {
			name := strings.ToUpper(line[m[2]:m[3]])
			value := line[m[4]:m[5]]
			if exemptName(name) || !keyNameValue(value) || strings.Contains(line, gitleaksAllowSignature) {
				continue
			}
			if allowed(global, "key-name", value, line[m[0]:m[1]], line) {
				continue
			}
			hits = append(hits, hit{rule: "key-name", start: l.lo + m[4], end: l.lo + m[5], rank: rankKeyName})
			if first {
				return hits
			}
		}
	}
	return hits
}

// linesOf splits text[lo:hi] at line terminators (which are left out).
func linesOf(text string, lo, hi int) []span {
	var out []span
	// Without a CR, the terminators are found with IndexByte, many bytes
	// per instruction (IndexAny looks at each byte).
	index := func(s string) int { return strings.IndexByte(s, '\n') }
	if strings.IndexByte(text[lo:hi], '\r') >= 0 {
		index = func(s string) int { return strings.IndexAny(s, "\r\n") }
	}
	for lo < hi {
		e := index(text[lo:hi])
		if e < 0 {
			out = append(out, span{lo, hi})
			break
		}
		out = append(out, span{lo, lo + e})
		lo += e + 1
	}
	return out
}

// hasSecretSuffix is a cheap prefilter: the regexp only runs on lines that
// hold one of the suffixes (any letter case) after an underscore.
func hasSecretSuffix(line string) bool {
	for i := strings.IndexByte(line, '_'); i >= 0; {
		rest := line[i+1:]
		for _, s := range []string{"key", "token", "secret", "passw", "credential"} {
			if len(rest) >= len(s) && strings.EqualFold(rest[:len(s)], s) {
				return true
			}
		}
		j := strings.IndexByte(rest, '_')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

func exemptName(name string) bool {
	for _, e := range keyNameExempt {
		if name == e || strings.HasSuffix(name, "_"+e) {
			return true
		}
	}
	return false
}

// keyNameValue reports whether a value assigned to a secret-named key looks
// like a credential rather than a placeholder, a reference or prose:
//
//   - at least 4 characters, and not elided ("eyJ0...", "sk-…");
//   - not a reference to another variable or a template ($VAR, ${VAR},
//     %VAR%, <your-key>, {{ secret }}, os.environ[...], process.env.X), not
//     a path (/..., ~/..., ./...) and not a URL without credentials in it;
//   - not a word of prose or configuration (true, none, required, ...): it
//     must contain a digit or a symbol, or be at least 16 characters long;
//   - not all one character (xxxx, ****) nor an upper-case NAME (another
//     variable's name).
func keyNameValue(v string) bool {
	v = strings.TrimRight(v, ")]}>")
	if strings.HasSuffix(v, "...") || strings.HasSuffix(v, "…") {
		return false // elided: "eyJ0..." shows the shape, not the value
	}
	v = strings.TrimRight(v, ".")
	if len([]rune(v)) < 4 {
		return false
	}
	switch v[0] {
	case '$', '%', '<', '{', '[', '(', '/', '~', '*', '#', '@', '&', '|', '\\':
		return false
	}
	if strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") {
		return false
	}
	lower := strings.ToLower(v)
	for _, p := range []string{"process.env", "os.environ", "os.getenv", "env.", "env(", "secrets.", "vault:", "op://", "keychain", "${", "{{"} {
		if strings.Contains(lower, p) {
			return false
		}
	}
	if i := strings.Index(v, "://"); i >= 0 {
		// A URL is a secret only when it carries user:password@.
		rest := v[i+3:]
		at := strings.IndexByte(rest, '@')
		if at < 0 || !strings.Contains(rest[:at], ":") {
			return false
		}
		return true
	}
	if strings.ContainsAny(v, "()[]{}<>") {
		return false // code, not a value
	}
	if sameRune(v) {
		return false
	}
	upperName := true
	hasDigitOrSymbol := false
	for _, r := range v {
		if !(unicode.IsUpper(r) || r == '_' || unicode.IsDigit(r)) {
			upperName = false
		}
		if !unicode.IsLetter(r) {
			hasDigitOrSymbol = true
		}
	}
	if upperName && strings.ContainsRune(v, '_') {
		return false
	}
	switch lower {
	case "true", "false", "null", "none", "nil", "undefined", "empty", "unset",
		"redacted", "changeme", "placeholder", "required", "optional", "example":
		return false
	}
	return hasDigitOrSymbol || len(v) >= 16
}

// sameRune reports whether s repeats one character.
func sameRune(s string) bool {
	for _, r := range s[1:] {
		if r != rune(s[0]) {
			return false
		}
	}
	return s[0] < 0x80
}
