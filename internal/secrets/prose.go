package secrets

import (
	"bytes"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// "prose-password" finds a password written as a sentence, in the
// languages memory files are written in: "the password is hunter2-xyz",
// "the wifi password for the NAS is …", "Passwort: …", "Kennwort lautet
// …", "contraseña: …", "le mot de passe est …", "密码是…", "パスワードは
// …", "비밀번호는 …". The "password" rule (named.go) needs an assignment
// to an English name; these have none, so a summary would copy them.
//
// The value is the first token after the connector ("is", ":", "是",
// "は"…): a run of printable ASCII, or a quoted string. Prose about a
// password is not one: the value must pass plainValue (not "stored", not
// "in", not a placeholder) and, unquoted, hold a digit or a symbol —
// "the password is rotated monthly" and "Passwort: mindestens zwölf
// Zeichen" name no password.

// proseWords are the password words, lower case, as the keyword pass sees
// them (ASCII lowered, other bytes as they are).
var proseWords = []string{
	"password", "passwort", "kennwort", "contraseña", "contrasena", "mot de passe",
	"senha", "wachtwoord", "密码", "密碼", "口令", "パスワード", "비밀번호", "암호",
}

// proseFirst marks the bytes a password word starts with, so most bytes of
// a window are passed over with one lookup.
var proseFirst = sync.OnceValue(func() *[256]bool {
	var t [256]bool
	for _, w := range proseWords {
		t[w[0]] = true
	}
	return &t
})

func proseRule() *rule {
	return &rule{id: "prose-password", keywords: proseWords, width: 512, run: scanProsePasswords, near: nearProse}
}

// nearProse is the window of a prose password: its password word alone.
// The run reads on from the word to the end of its line, so a line of
// prose that names passwords costs one short parse, not a pattern over
// the line.
func nearProse(_ *scanner, k kwHit) (span, bool) { return span{k.start, k.end}, true }

// Connectors between a password word and its value. Symbols and the
// particles of Chinese, Japanese and Korean may touch the word; words need
// a space or a colon after them. Longer phrases come first.
var (
	proseSymbols    = []string{":", "：", "=", "是", "为", "為", "は", "が", "는", "은"}
	proseConnectors = []string{"is set to", "is still", "is now", "is", "was changed to", "was", "changed to", "set to",
		"ist jetzt", "ist", "lautet", "war", "est", "es", "era", "é"}
	// proseOwners start the words naming whose password it is ("for the
	// NAS", "des WLANs", "del router"): at most three words follow.
	proseOwners = map[string]bool{"for": true, "of": true, "to": true, "für": true, "des": true, "der": true, "vom": true,
		"von": true, "zum": true, "de": true, "del": true, "para": true, "du": true, "pour": true, "van": true, "voor": true}
)

// closers pairs an opening quote with its closing one.
var closers = map[string]string{`"`: `"`, `'`: `'`, "`": "`", "「": "」", "“": "”", "『": "』"}

func scanProsePasswords(sc *scanner, lo, hi int, first bool) []hit {
	var hits []hit
	for i := lo; i < hi; i++ {
		w := proseWordAt(sc, i)
		if w == 0 {
			continue
		}
		vs, ok := proseConnect(sc, i+w)
		if !ok {
			continue
		}
		le := vs
		for le < len(sc.text) && sc.text[le] != '\n' && sc.text[le] != '\r' {
			le++
		}
		line := sc.text[vs:le]
		open := ""
		for q := range closers {
			if strings.HasPrefix(line, q) {
				open = q
			}
		}
		s, e, quoted := proseValue(line, len(open), open)
		if s == e || !proseSecret(line[s:e], quoted) || sc.allowedAt(vs) {
			continue
		}
		hits = append(hits, hit{rule: "prose-password", start: vs + s, end: vs + e, rank: rankNamed})
		if first {
			return hits
		}
		i = vs + e - 1
	}
	return hits
}

// proseWordAt returns the length of the password word starting at i, or 0:
// the word must start a word ("mypassword" is a name) and "password" and
// "passwort" must end one ("passwords", "Passwortmanager" talk about them).
func proseWordAt(sc *scanner, i int) int {
	if !proseFirst()[sc.lowered()[i]] || i > 0 && isAlnum(sc.lowered()[i-1]) {
		return 0
	}
	for _, w := range proseWords {
		if !bytes.HasPrefix(sc.lowered()[i:], []byte(w)) {
			continue
		}
		if w[0] < 0x80 && i+len(w) < len(sc.lowered()) && isAlnum(sc.lowered()[i+len(w)]) {
			return 0
		}
		return len(w)
	}
	return 0
}

// proseConnect reads, from j just after a password word, the words naming
// its owner and a connector, and returns where the value starts.
func proseConnect(sc *scanner, j int) (int, bool) {
	text, low := sc.text, sc.lowered()
	blank := func(k int) int {
		for k < len(text) && (text[k] == ' ' || text[k] == '\t') {
			k++
		}
		return k
	}
	for words := 0; words <= 4; words++ {
		j = blank(j)
		if k, ok := proseConnector(text, low, j); ok {
			k = blank(k)
			if k < len(text) && text[k] == ':' {
				k = blank(k + 1)
			}
			return k, k < len(text)
		}
		e := j
		for e < len(text) && text[e] > ' ' && text[e] != ':' && text[e] != '=' && !strings.HasPrefix(text[e:], "：") {
			e++
		}
		if e == j || words == 0 && !proseOwners[string(low[j:e])] {
			return 0, false
		}
		j = e
	}
	return 0, false
}

// proseConnector reports whether a connector starts at j, and where it ends.
func proseConnector(text string, low []byte, j int) (int, bool) {
	for _, c := range proseSymbols {
		if strings.HasPrefix(text[j:], c) {
			return j + len(c), true
		}
	}
	for _, c := range proseConnectors {
		e := j + len(c)
		if e < len(text) && string(low[j:e]) == c && (text[e] == ' ' || text[e] == '\t' || text[e] == ':') {
			return e, true
		}
	}
	return 0, false
}

// proseValue returns the value starting at line[i:]: up to its closing
// quote when open is one, else a run of printable ASCII without spaces,
// less trailing sentence punctuation.
func proseValue(line string, i int, open string) (int, int, bool) {
	if open != "" {
		if j := strings.Index(line[i:], closers[open]); j > 0 {
			return i, i + j, true
		}
	}
	j := i
	for j < len(line) && line[j] > ' ' && line[j] < 0x7f {
		j++
	}
	for j > i && strings.IndexByte(".,;:!?)]}'\"`*", line[j-1]) >= 0 {
		j--
	}
	return i, j, false
}

// proseSecret reports whether v, the token after a password word, is a
// password rather than a word about one.
func proseSecret(v string, quoted bool) bool {
	plain := v
	if strings.HasPrefix(v, "~") && !strings.HasPrefix(v, "~/") {
		plain = v[1:] // a symbol, not a home directory
	}
	if utf8.RuneCountInString(v) < 6 || !plainValue(plain, 5) || strings.Contains(v, "://") || isDate(v) {
		return false
	}
	if quoted {
		return true
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return true
		}
	}
	return false
}

// isDate reports whether v is a date written 2026-12-04 or 04.12.2026.
func isDate(v string) bool {
	digits := 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case '0' <= c && c <= '9':
			digits++
		case c == '-' || c == '.' || c == '/':
		default:
			return false
		}
	}
	return digits >= 6 && len(v) <= 10 && len(v)-digits == 2
}

// "wireguard-private-key": WireGuard's PrivateKey and PresharedKey are 32
// bytes in base64 (44 characters ending in "="); any such value is a
// secret, whatever its first character.
func wireguardRule() *rule {
	return &rule{id: "wireguard-private-key", keywords: []string{"privatekey", "presharedkey"}, width: 128, run: scanWireguard}
}

var wireguardRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:private|preshared)key[ \t]*=[ \t]*([A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=)(?:[^A-Za-z0-9+/=]|$)`)
})

func scanWireguard(sc *scanner, lo, hi int, first bool) []hit {
	var hits []hit
	for _, m := range wireguardRE().FindAllStringSubmatchIndex(sc.text[lo:hi], -1) {
		s, e := lo+m[2], lo+m[3]
		if sc.allowedAt(s) {
			continue
		}
		hits = append(hits, hit{rule: "wireguard-private-key", start: s, end: e, rank: rankNamed})
		if first {
			return hits
		}
	}
	return hits
}
