// Package secrets is memcompact's one secret detector. Compaction asks it
// whether an entry may be summarized, the write guard asks it whether a
// write may land, and the secrets and doctor verbs report what it finds.
// One detector means one answer: a value the guard would block is never
// distilled into a history block either.
//
// A finding is a match of one of these rules:
//
//   - gitleaks' default detection rules, read from the rule set embedded in
//     the gitleaks module (github.com/zricethezav/gitleaks/v8/config) and
//     applied the way gitleaks applies them: a rule runs only where one of
//     its keywords occurs (case-insensitive), the secret is the rule's
//     secret group (or its first non-empty group), a secret whose Shannon
//     entropy does not exceed the rule's threshold is dropped, and the
//     global and per-rule allowlists (regexes on the secret, the match or
//     the line; stop words in the secret) are honoured. Rules that only
//     apply to some file paths are skipped: Scan sees text, not files.
//     Findings are named by gitleaks' rule id (e.g. "github-pat").
//   - memcompact's named rules (named.go): "url-credentials", "password"
//     and "authorization", for secrets whose only mark is their name;
//   - "prose-password" and "wireguard-private-key" (prose.go): a password
//     written as a sentence ("the password is …", "Passwort: …", "密码是…",
//     in seven languages) and WireGuard's private and preshared keys;
//   - "secret-section" (sections.go): values listed under a heading that
//     names secrets, at any level;
//   - "key-name" (MemoryCore): an assignment to a name ending in _KEY,
//     _TOKEN, _SECRET, _PASSWORD or _CREDENTIAL(S), any letter case, with
//     "=", ":" or ":=" and a value that looks like a credential (see
//     keyNameValue).
//   - "high-entropy" (MemoryCore): a long random-looking token (see
//     highEntropy for the exact rule and why hashes, UUIDs and commit SHAs
//     are not flagged).
//
// Known public formats (public.go) are then let through: publishable
// keys, checksums, commit ids, UUIDs, public keys (WireGuard, SSH, PEM
// certificates) and Google Docs ids.
//
// The work is linear in the text (scan.go): one keyword pass finds where
// every rule's keywords are, and each pattern runs only around them. The
// rules are built from a generated table (gitleaks_rules.go) on the first
// scan, and each pattern is compiled the first time its keyword appears,
// so a hook pays only for the rules its text can trigger.
//
// A line holding "gitleaks:allow" is never flagged by any rule, as gitleaks
// does for its own: it is how a user marks a value reviewed and not secret.
//
// Findings never carry a secret in full: an excerpt shows the text before
// the secret and a few of its leading characters, then "…****".
package secrets

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Finding is one secret found in a text.
type Finding struct {
	Line    int    `json:"line"`    // 1-based line of the secret's start
	Rule    string `json:"rule"`    // a gitleaks rule id, "key-name" or "high-entropy"
	Excerpt string `json:"excerpt"` // the line around the secret, redacted: never the full secret
}

// Scan returns the secrets in text, ordered by line and then by position
// on the line. Lines are split at LF, CRLF and lone CR, as textfile.Lines
// does. Scan is safe for concurrent use and never panics on any input.
func Scan(text string) []Finding {
	hits := scan(text, false)
	return render(text, hits)
}

// Contains reports whether text holds any secret. It stops at the first.
func Contains(text string) bool {
	return len(scan(text, true)) > 0
}

// hit is a finding before rendering: byte offsets of the secret in text.
type hit struct {
	rule       string
	start, end int // the secret
	rank       int // lower wins when two hits overlap
}

// Ranks: a specific gitleaks rule names the secret best, then
// memcompact's own named rules (a password, a URL's credentials, an
// authorization header), then gitleaks' generic rule, then MemoryCore's key
// names, then a secret section's values, then bare entropy.
const (
	rankSpecific = iota
	rankNamed
	rankGeneric
	rankKeyName
	rankSection
	rankEntropy
)

// scan runs every rule over text. With first set it returns as soon as one
// hit survives the public-format allowlist.
func scan(text string, first bool) []hit {
	if text == "" {
		return nil
	}
	rules, kp := allRules()
	sc := newScanner(text)
	pos := kp.positions(sc.text, len(rules))
	var hits []hit
	keep := func(hs []hit) bool {
		for _, h := range hs {
			if !sc.public(h) {
				hits = append(hits, h)
				if first {
					return true
				}
			}
		}
		return false
	}
	var sections []kwHit // where the secret-section rule's words are
	for i, r := range rules {
		if r.run == nil {
			sections = pos[i]
			continue
		}
		var ws []span
		switch {
		case len(r.keywords) == 0:
			ws = sc.allLines()
		case len(pos[i]) > 0:
			ws = sc.windows(r, pos[i])
		}
		for _, w := range ws {
			if keep(r.run(sc, w.lo, w.hi, first)) {
				return hits
			}
		}
	}
	if len(sections) > 0 && keep(sc.scanSections(first, sections)) || keep(scanEntropy(sc, first)) {
		return hits
	}
	return dedupe(hits)
}

// lineIndex maps byte offsets to 1-based line numbers and line bounds.
type lineIndex struct {
	text   string
	starts []int // byte offset where each line starts
}

func newLineIndex(text string) *lineIndex {
	li := &lineIndex{text: text, starts: []int{0}}
	if strings.IndexByte(text, '\r') < 0 {
		// Only LF ends a line: jump from one to the next (many bytes per
		// instruction) instead of looking at every byte.
		for off := 0; ; {
			i := strings.IndexByte(text[off:], '\n')
			if i < 0 {
				return li
			}
			off += i + 1
			li.starts = append(li.starts, off)
		}
	}
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			li.starts = append(li.starts, i+1)
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			li.starts = append(li.starts, i+1)
		}
	}
	return li
}

// line returns the 1-based line holding offset off.
func (li *lineIndex) line(off int) int {
	return sort.Search(len(li.starts), func(i int) bool { return li.starts[i] > off })
}

// bounds returns the byte range of line n (1-based), without terminator.
func (li *lineIndex) bounds(n int) (start, end int) {
	start = li.starts[n-1]
	end = len(li.text)
	if n < len(li.starts) {
		end = li.starts[n]
	}
	for end > start && (li.text[end-1] == '\n' || li.text[end-1] == '\r') {
		end--
	}
	return start, end
}

// maxContext is how much of the line before a secret an excerpt shows, in
// characters: enough to recognize the line, not enough to flood a report.
const maxContext = 32

// render turns hits into findings with redacted excerpts.
func render(text string, hits []hit) []Finding {
	if len(hits) == 0 {
		return nil
	}
	li := newLineIndex(text)
	out := make([]Finding, 0, len(hits))
	for hi, h := range hits {
		n := li.line(h.start)
		ls, le := li.bounds(n)
		start := min(max(h.start, ls), le)
		// Context: the line up to the secret, with every other secret on
		// it masked, so one finding's excerpt never shows another's value.
		// Only the last few hundred bytes can show, which bounds the work
		// on a huge line. Hits are sorted and disjoint, so the ones to
		// mask are the few just before this one.
		from := max(ls, start-16*maxContext)
		for from < start && !utf8.RuneStart(text[from]) {
			from++
		}
		first := hi
		for first > 0 && hits[first-1].end > from {
			first--
		}
		var ctx strings.Builder
		for p := from; p < start; {
			masked := false
			for _, o := range hits[first:hi] {
				if o.start <= p && p < o.end {
					ctx.WriteString("****")
					p = min(o.end, start)
					masked = true
					break
				}
			}
			if !masked {
				ctx.WriteByte(text[p])
				p++
			}
		}
		excerpt := tail(clean(ctx.String()), maxContext) + redact(firstLine(text[h.start:h.end]))
		out = append(out, Finding{Line: n, Rule: h.rule, Excerpt: excerpt})
	}
	return out
}

// redact shows at most a quarter of a secret's leading characters, and no
// more than four, then "…****". A secret of fewer than four characters
// shows none of them.
func redact(secret string) string {
	n := min(utf8.RuneCountInString(secret)/4, 4)
	lead := clean(head(secret, n))
	return lead + "…****"
}

// firstLine cuts s at its first line terminator (a private key spans lines).
func firstLine(s string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		return s[:i]
	}
	return s
}

// head returns the first n characters of s.
func head(s string, n int) string {
	i := 0
	for k := range s {
		if i == n {
			return s[:k]
		}
		i++
	}
	return s
}

// tail returns the last n characters of s, marked with a leading "…" when
// cut, and with leading whitespace dropped.
func tail(s string, n int) string {
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	count := utf8.RuneCountInString(s)
	if count <= n {
		return s
	}
	skip := count - n
	for k := range s {
		if skip == 0 {
			return "…" + s[k:]
		}
		skip--
	}
	return s
}

// clean makes s safe to print on a terminal: control characters (and
// invalid UTF-8) become '?'.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		if r == utf8.RuneError || unicode.IsControl(r) {
			return '?'
		}
		return r
	}, s)
}
