package secrets

import (
	"bytes"
	"encoding/base64"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// memcompact's own named rules find the secrets gitleaks' token formats
// miss because the value has no format at all — only its name says what
// it is:
//
//   - "url-credentials": the password of scheme://user:password@host, in
//     any scheme (postgres, mysql, mongodb+srv, redis, amqp, https…);
//   - "password": a value assigned to a name ending in password, passwd,
//     passphrase, pwd, pass or secret (db_password, adminPassword,
//     "secret", Password=… in a connection string), whatever the value's
//     alphabet: symbols, words and all;
//   - "authorization": the value of a Bearer or Basic authorization, or of
//     an Authorization / X-API-Key / Private-Token header.
//
// A value that is a placeholder, a reference or a word of prose (see
// plainValue) is not a secret.

// ownRules are memcompact's keyword-gated rules.
func ownRules() []*rule {
	return []*rule{
		keyNameRule(),
		{id: "url-credentials", keywords: []string{"://"}, width: 512, run: scanURLCredentials},
		{id: "password", keywords: []string{"password", "passwd", "passphrase", "pwd", "secret", "pass"}, width: 512, run: scanPasswords, near: nearAssign("*_\"'`]")},
		proseRule(),
		wireguardRule(),
		{id: "secret-section", keywords: sectionWords}, // a gate: run is scanSections
		{id: "authorization", keywords: []string{"bearer", "basic", "authorization", "api-key", "apikey", "private-token", "auth-token", "access-token"}, width: 512, run: scanAuthorization},
	}
}

var urlCredRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.\-]{1,30}://([^\s:/?#@'"` + "`" + `<>()\[\]]*):([^\s/'"` + "`" + `<>]+)@[a-z0-9\[][^\s/?#@'"` + "`" + `<>]*`)
})

func scanURLCredentials(sc *scanner, lo, hi int, first bool) []hit {
	var hits []hit
	for _, m := range urlCredRE().FindAllStringSubmatchIndex(sc.text[lo:hi], -1) {
		s, e := lo+m[4], lo+m[5]
		if !plainValue(sc.text[s:e], 3) || sc.allowedAt(s) {
			continue
		}
		hits = append(hits, hit{rule: "url-credentials", start: s, end: e, rank: rankNamed})
		if first {
			return hits
		}
	}
	return hits
}

// passwordNameRE finds a name ending in a password word followed by an
// assignment; the value is parsed by hand (quotes, separators).
var passwordNameRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)([A-Za-z0-9_.\-]*(?:password|passwd|passphrase|pwd|secret|pass))(?:\*\*|__|["'` + "`" + `\]])*[ \t]*(?::=|=>|=|:)[ \t]*`)
})

func scanPasswords(sc *scanner, lo, hi int, first bool) []hit {
	var hits []hit
	for _, l := range linesOf(sc.text, lo, hi) {
		line := sc.text[l.lo:l.hi]
		for from := 0; from < len(line); {
			m := passwordNameRE().FindStringSubmatchIndex(line[from:])
			if m == nil {
				break
			}
			nameStart, nameEnd, valStart := from+m[2], from+m[3], from+m[1]
			from = valStart
			if !passwordName(line, nameStart, nameEnd) {
				continue
			}
			query := nameStart > 0 && (line[nameStart-1] == '?' || line[nameStart-1] == '&')
			vs, ve := valueAt(line, valStart, query)
			from = max(from, ve)
			if vs == ve || !plainValue(line[vs:ve], 4) || strings.Contains(line, gitleaksAllowSignature) {
				continue
			}
			hits = append(hits, hit{rule: "password", start: l.lo + vs, end: l.lo + ve, rank: rankNamed})
			if first {
				return hits
			}
		}
	}
	return hits
}

// passwordName checks that line[s:e] is a whole name whose last word is a
// password word: "bypass" and "compass" end in "pass" but are not.
func passwordName(line string, s, e int) bool {
	if s > 0 && isNameByte(line[s-1]) {
		return false
	}
	lower := strings.ToLower(line[s:e])
	for _, w := range []string{"password", "passwd", "passphrase", "secret"} {
		if strings.HasSuffix(lower, w) {
			return true
		}
	}
	// "pass" and "pwd" only as a word of their own: db_pass, dbPass, PWD.
	k := e - 3
	if strings.HasSuffix(lower, "pass") {
		k = e - 4
	}
	if k == s {
		return true
	}
	prev, cur := line[k-1], line[k]
	return prev == '_' || prev == '-' || prev == '.' || ('a' <= prev && prev <= 'z' && 'A' <= cur && cur <= 'Z')
}

func isNameByte(b byte) bool { return isAlnum(b) || b == '_' || b == '.' || b == '-' }

// valueAt parses the value starting at line[i:]: a quoted string whole
// (spaces and all), else up to whitespace or a separator. In a query string
// '&' ends it too.
func valueAt(line string, i int, query bool) (int, int) {
	if i >= len(line) {
		return i, i
	}
	if q := line[i]; q == '"' || q == '\'' || q == '`' {
		if j := strings.IndexByte(line[i+1:], q); j >= 0 {
			return i + 1, i + 1 + j
		}
		i++
	}
	stop := " \t,;)]}>\"'`"
	if query {
		stop += "&#"
	}
	j := i
	for j < len(line) && strings.IndexByte(stop, line[j]) < 0 {
		j++
	}
	for j > i && strings.IndexByte(".*:", line[j-1]) >= 0 {
		j-- // prose punctuation, a closing **
	}
	return i, j
}

var (
	bearerRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bbearer[ \t]+([A-Za-z0-9._~+/\-]+=*)`)
	})
	basicRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bbasic[ \t]+([A-Za-z0-9+/]{6,}={0,2})`)
	})
	headerRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(?:^|[^A-Za-z0-9-])(?:authorization|x-api-key|api-key|apikey|x-auth-token|private-token|x-access-token)["']?[ \t]*[:=][ \t]*["']?(?:(?:bearer|basic|token|bot|apikey)[ \t]+)?([^\s"',;]+)`)
	})
)

func scanAuthorization(sc *scanner, lo, hi int, first bool) []hit {
	var hits []hit
	add := func(re *regexp.Regexp, ok func(v string, after string) bool) bool {
		for _, m := range re.FindAllStringSubmatchIndex(sc.text[lo:hi], -1) {
			s, e := lo+m[2], lo+m[3]
			if !ok(sc.text[s:e], sc.text[e:min(e+3, len(sc.text))]) || sc.allowedAt(s) {
				continue
			}
			hits = append(hits, hit{rule: "authorization", start: s, end: e, rank: rankNamed})
			if first {
				return true
			}
		}
		return false
	}
	bearer, basic, header := authorizationWords(sc.lowered()[lo:hi])
	if bearer && add(bearerRE(), bearerValue) || basic && add(basicRE(), basicValue) {
		return hits
	}
	if header {
		add(headerRE(), func(v, after string) bool { return len(v) >= 8 && !elided(after) && plainValue(v, 8) })
	}
	return hits
}

// authorizationWords reports, for a window of lowered text, whether each
// of scanAuthorization's patterns can match in it: every match holds the
// pattern's word, in ASCII letters of any case or, where the word has a k
// or an s, with the Kelvin sign or a long s for it ((?i) folds those too).
// The rule's windows open at any of its words ("basic" is common prose),
// and each pattern costs a pass over the window to say it is not there.
func authorizationWords(lower []byte) (bearer, basic, header bool) {
	folds := bytes.Contains(lower, kelvin) || bytes.Contains(lower, longS)
	bearer = bytes.Contains(lower, []byte("bearer"))
	basic = folds || bytes.Contains(lower, []byte("basic"))
	header = folds
	for _, w := range []string{"authorization", "api-key", "apikey", "auth-token", "private-token", "access-token"} {
		header = header || bytes.Contains(lower, []byte(w))
	}
	return bearer, basic, header
}

// bearerValue: a token of at least 8 characters with a digit, or mixed
// case, that is not elided ("eyJ0...") nor a word ("Bearer authentication").
func bearerValue(v, after string) bool {
	if len(v) < 8 || elided(after) || !plainValue(v, 8) {
		return false
	}
	var upper, lower, digit bool
	for i := 0; i < len(v); i++ {
		switch charClass(v[i]) {
		case 0:
			upper = true
		case 1:
			lower = true
		case 2:
			digit = true
		}
	}
	return digit || upper && lower && len(v) >= 12
}

// basicValue: base64 of "user:password".
func basicValue(v, _ string) bool {
	b, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(v, "="))
	}
	if err != nil || !utf8.Valid(b) {
		return false
	}
	s := string(b)
	i := strings.IndexByte(s, ':')
	if i < 1 || i == len(s)-1 {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

func elided(after string) bool {
	return strings.HasPrefix(after, "...") || strings.HasPrefix(after, "…")
}

// plainWords are values that say something about a secret instead of
// being one.
var plainWords = sync.OnceValue(func() map[string]bool {
	words := map[string]bool{}
	for _, w := range strings.Fields(`true false yes no on off null nil none undefined empty unset
		required optional example redacted hidden masked omitted removed changeme placeholder
		password passwd secret pass pwd token key value string str text env variable var
		see stored kept managed rotated provided needed set given generated random same saved
		in at from the a an is was are be not on use used uses using via per each any all
		your my our their its his her this that which who what where when how
		vault keychain 1password bitwarden lastpass keyring secretsmanager ssm kms
		int bool boolean bytes char secretstr field prompt input hash hashed encrypted
		todo tbd tba n/a na unknown default defaults override overrides reset length
		auth authentication authorization header scheme basic bearer tokens credentials`) {
		words[w] = true
	}
	return words
})

// plainValue reports whether v, a value found by its name, is a real
// value: at least minLen characters, not a placeholder (<password>,
// ${DB_PASS}, %PASS%, {{ secret }}, ****, xxxx), not a reference to
// where the secret lives (process.env.X, os.environ[...], vault:…, op://),
// not code (a call), not a path, not another variable's NAME and not one
// of plainWords.
func plainValue(v string, minLen int) bool {
	if utf8.RuneCountInString(v) < minLen {
		return false
	}
	lower := strings.ToLower(v)
	if words := plainWords(); words[lower] || words[strings.Trim(lower, ".,!?:;")] {
		return false
	}
	switch v[0] {
	case '$', '<', '{', '[', '(':
		return false
	case '/', '~':
		if pathLike(v) {
			return false
		}
	}
	if v[0] == '%' && strings.HasSuffix(v, "%") {
		return false
	}
	if strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") || strings.HasSuffix(v, "...") || strings.HasSuffix(v, "…") {
		return false
	}
	for _, p := range []string{"process.env", "os.environ", "os.getenv", "getenv(", "env[", "env.", "secrets.", "vault:", "op://", "keychain", "${", "{{", "arn:aws", "ssm:", "<your", "your_", "your-"} {
		if strings.Contains(lower, p) {
			return false
		}
	}
	if strings.Contains(v, "(") && strings.HasSuffix(v, ")") {
		return false
	}
	if sameRune(v) || strings.HasPrefix(lower, "xxx") && strings.Count(lower, "x") >= len(lower)/2 || strings.HasPrefix(v, "***") {
		return false
	}
	upperName := strings.ContainsRune(v, '_')
	for _, r := range v {
		if !(unicode.IsUpper(r) || r == '_' || unicode.IsDigit(r)) {
			upperName = false
			break
		}
	}
	return !upperName
}

// pathLike reports whether v, starting with '/' or '~', is a path
// (/home/deploy, ~/.pgpass, ~) rather than a random value that happens to
// start with one of them: no '+' or '=', and every segment short.
func pathLike(v string) bool {
	if v == "~" || strings.HasPrefix(v, "~/") {
		return true
	}
	if v[0] == '~' || strings.ContainsAny(v, "+=") {
		return false
	}
	for _, seg := range strings.Split(v[1:], "/") {
		if len(seg) > 24 {
			return false
		}
	}
	return true
}
