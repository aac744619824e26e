package loadcut

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// neutralize is the very last thing Claude Code does to the memory text,
// after the clean-up (sanitize): wherever the text opens something that
// reads as one of the tags the client itself uses to frame a session
// (<system-reminder>, <command-name>, <task-notification>, …), the opener
// is replaced by "<\", so the memory cannot pass for the client's own
// words. "</system-reminder>" becomes "<\/system-reminder>"; an opener
// already followed by a backslash is left alone.
//
// What counts as such an opener, as the 2.1.x client decides it:
//
//   - an opening bracket: "<" or a character that looks like one
//     (openers), itself replaced whole;
//   - then any run of characters that are neither name characters
//     (A-Z a-z 0-9 _ -) nor brackets: white space, line breaks, "/", "!"…;
//   - then a tag name of the list (frameTags), in any case, "-" and "_"
//     interchangeable, zero-width joiners, variation selectors and
//     combining marks allowed between its letters;
//   - then anything but a name character, or the end; except "channel",
//     which needs a source="…" attribute within 120 characters, and
//     "antml", which needs a colon.
//
// Letters that are not ASCII count as the ASCII letter they fold to
// (accents and compatibility forms removed: "é", "ｓ", "𝐬" read as e, s, s)
// and, unlike an ASCII letter, may also be skipped like punctuation before
// the name starts. Claude Code also reads look-alikes from other scripts
// (Cyrillic "е", Greek "ο", …) as Latin letters; those are not modelled, so
// a tag spelt with them is left as it is here and escaped there.
//
// It returns the text and how many openers it escaped.
func neutralize(s string) (string, int) {
	if !hasOpener(s) {
		return s, 0
	}
	rd := newReading(s)
	var b strings.Builder
	last, n := 0, 0 // byte offset in s copied so far, openers escaped
	for i, r := range rd.runes {
		if !openers.has(r) || !rd.opensFrameTag(i) {
			continue
		}
		at := rd.offset[i]
		b.WriteString(s[last:at])
		b.WriteString(`<\`)
		last = at + utf8.RuneLen(r)
		n++
	}
	if n == 0 {
		return s, 0
	}
	b.WriteString(s[last:])
	return b.String(), n
}

// frameTags are the tag names whose openers Claude Code escapes in memory
// text: the ones it uses for command output, notifications, messages from
// other agents, fetched content, artifacts and its own reminders.
var frameTags = []string{
	"bash-input", "bash-stdout", "bash-stderr", "bash-exit-code",
	"local-command-stdout", "local-command-stderr", "local-command-caveat",
	"command-name", "command-message", "command-args",
	"task-notification", "agent-message", "teammate-message",
	"cross-session-message", "remote-review", "slack-ping",
	"slack-tag-message", "tick", "fetched-web-content",
	"untrusted-widget-state", "coordinator-relay",
	"artifact-type-instructions", "cowritten-artifact-html",
	"artifact-file-content", "artifact-origin-notes",
	"artifact-stored-declaration",
	"system-reminder", "function_results", "tool_use_error",
	"sandbox_violations", "persisted-output", "total_tokens",
	"user-prompt-submit-hook",
}

// Characters that read as brackets, besides "<" and ">".
var (
	openers = runeSet("<\u02C2\u1438\u16B2\u2039\u226E\u227A\u2280\u22D6\u2329\u276C\u276E\u2770\u27E8\u2991\u2993\u29FC\u2A79\u2AA6\u3008\uFE3F\uFE64\uFF1C\U0001D236\u226A\u22D8\u2AA1\u2AF7\u27EA\uFE3D")
	closers = runeSet(">\u02C3\u1433\u203A\u226F\u227B\u2281\u22D7\u232A\u276D\u276F\u2771\u27E9\u29FD\u3009\uFE40\uFE65\uFF1E\U00016F3F\U0001D237")
	// Characters that read as "=" in channel's source= attribute.
	equals = runeSet("=\u207C\u208C\uFE66\uFF1D\uA78A\u2550\u268C\uA4FF\U0001F7F0")
	// Characters that read as ":" after antml.
	colons = runeSet(":\uFF1A\uFE55\uFE13\uA789\u2236\u02D0\u02F8\u05C3\u0589\u0703\u0704\u16EC\u1803\u1809\u205A\uA4FD\uFE30")
	// Characters that read as a doubled hyphen, a name's "-" or "_".
	doubleHyphens = runeSet("\u2E40\u30A0\u1400")
)

// runeSet is a small set of runes kept as a string: a map would be built
// before main on every run of every executable that links the load cut.
type runeSet string

func (s runeSet) has(r rune) bool { return strings.ContainsRune(string(s), r) }

// hasOpener is the fast path: most indexes hold no bracket at all.
func hasOpener(s string) bool {
	if strings.IndexByte(s, '<') >= 0 {
		return true
	}
	for _, r := range s {
		if r >= utf8.RuneSelf && openers.has(r) {
			return true
		}
	}
	return false
}

// A reading is the text as the tag matcher sees it: ASCII as it is, and a
// character that folds to ASCII letters or digits replaced by stand-ins
// for them (lead for the first, follow for the rest), so that matching
// can tell a folded letter from a plain one.
type reading struct {
	runes  []rune
	offset []int // byte offset in the text of the character each rune reads
}

// Stand-ins, in a private-use range the clean-up has emptied.
const (
	leadBase   = 0xF0000
	followBase = 0xF0100
	// doubled stands for a double hyphen, which may be "-" or "_".
	doubled = 0xF0200
)

func newReading(s string) *reading {
	rd := &reading{runes: make([]rune, 0, len(s)), offset: make([]int, 0, len(s))}
	for i, r := range s {
		if r < utf8.RuneSelf || openers.has(r) || closers.has(r) {
			rd.add(r, i)
			continue
		}
		if doubleHyphens.has(r) {
			rd.add(doubled, i)
			continue
		}
		f := fold(r)
		switch {
		case f != "":
			for k := 0; k < len(f); k++ {
				base := rune(followBase)
				if k == 0 {
					base = leadBase
				}
				rd.add(base+rune(f[k]), i)
			}
		case connector(r):
			rd.add(leadBase+'_', i)
		default:
			rd.add(r, i)
		}
	}
	return rd
}

func (rd *reading) add(r rune, at int) {
	rd.runes = append(rd.runes, r)
	rd.offset = append(rd.offset, at)
}

// fold returns the ASCII name characters a non-ASCII character reads as
// (marks removed, compatibility forms folded, lower case, dashes as "-",
// ß as "ss"), or "" when it reads as none.
func fold(r rune) string {
	d := norm.NFKD.String(string(r))
	d = strings.Map(func(r rune) rune {
		if unicode.Is(unicode.M, r) {
			return -1
		}
		return r
	}, d)
	d = norm.NFKC.String(d)
	d = strings.Map(func(r rune) rune {
		if dash(r) {
			return '-'
		}
		return r
	}, d)
	d = strings.ReplaceAll(strings.ToLower(d), "ß", "ss")
	if d == "" {
		return ""
	}
	for i := 0; i < len(d); i++ {
		c := d[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return ""
		}
	}
	return d
}

// dash reports characters read as a hyphen.
func dash(r rune) bool {
	switch r {
	case 0x2212, 0x207B, 0x208B, 0x02D7, 0x2796, 0x2043, 0x30FC, 0xFF70:
		return true
	}
	return unicode.Is(unicode.Pd, r)
}

// connector reports characters read as "_" that fold to nothing.
func connector(r rune) bool {
	switch r {
	case 0x2017, 0x02CD, 0x07FA, 0x0640:
		return true
	}
	return unicode.Is(unicode.Pc, r) || dash(r)
}

// nameChar reports the characters a tag name is made of.
func nameChar(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-'
}

// filler reports what may stand between the bracket and the name.
func filler(r rune) bool {
	return !nameChar(r) && !openers.has(r) && !closers.has(r)
}

// between reports what may stand between two letters of a name: joiners,
// variation selectors and combining marks (the clean-up has removed the
// other invisible characters Claude Code also allows there).
func between(r rune) bool {
	switch {
	case r == 0x200C || r == 0x200D || r == 0xFE0E || r == 0xFE0F:
		return true
	case r >= 0x0300 && r <= 0x036F && r != 0x0345,
		r >= 0x0483 && r <= 0x0489,
		r >= 0x0591 && r <= 0x05BD, r == 0x05BF, r == 0x05C1, r == 0x05C2,
		r == 0x05C4, r == 0x05C5, r == 0x05C7,
		r >= 0x0610 && r <= 0x061A, r >= 0x064B && r <= 0x065F, r == 0x0670,
		r >= 0x06D6 && r <= 0x06DC, r >= 0x06DF && r <= 0x06E4,
		r == 0x06E7, r == 0x06E8, r >= 0x06EA && r <= 0x06ED,
		r >= 0x1AB0 && r <= 0x1AFF, r >= 0x1DC0 && r <= 0x1DFF,
		r >= 0x20D0 && r <= 0x20FF, r == 0x3099, r == 0x309A,
		r >= 0xFE20 && r <= 0xFE2F:
		return true
	}
	return false
}

// letterIs reports whether rune r of the reading stands for name character c.
func letterIs(r rune, c byte) bool {
	if c == '-' || c == '_' {
		switch r {
		case '-', '_', leadBase + '-', leadBase + '_', followBase + '-', followBase + '_', doubled:
			return true
		}
		return false
	}
	if r < utf8.RuneSelf {
		return byte(unicode.ToLower(r)) == c
	}
	return r == leadBase+rune(c) || r == followBase+rune(c)
}

// opensFrameTag reports whether the bracket at i opens a frame tag.
func (rd *reading) opensFrameTag(i int) bool {
	rs := rd.runes
	if i+1 < len(rs) && rs[i+1] == '\\' {
		return false
	}
	for j := i + 1; j <= len(rs); j++ {
		if rd.tagAt(j) {
			return true
		}
		if j == len(rs) || !filler(rs[j]) {
			return false
		}
	}
	return false
}

// tagAt reports whether a frame tag, with what must follow it, starts at j.
func (rd *reading) tagAt(j int) bool {
	rs := rd.runes
	for _, t := range frameTags {
		if k, ok := rd.name(j, t); ok && (k == len(rs) || !nameChar(rs[k])) {
			return true
		}
	}
	if k, ok := rd.name(j, "channel"); ok && rd.sourceAttr(rd.skip(k, between)) {
		return true
	}
	if k, ok := rd.name(j, "antml"); ok {
		k = rd.skip(k, between)
		return k < len(rs) && colons.has(rs[k])
	}
	return false
}

// name matches the name t at j and returns where it ends.
func (rd *reading) name(j int, t string) (int, bool) {
	rs := rd.runes
	k := j
	for n := 0; n < len(t); n++ {
		if n > 0 {
			k = rd.skip(k, between)
		}
		if k >= len(rs) || !letterIs(rs[k], t[n]) {
			return 0, false
		}
		k++
	}
	return k, true
}

func (rd *reading) skip(k int, ok func(rune) bool) int {
	for k < len(rd.runes) && ok(rd.runes[k]) {
		k++
	}
	return k
}

// sourceAttr reports whether a source= attribute starts within 120
// characters of k (not counting folded letters past their first, and not
// past a closing bracket), as "<channel … source=" must have.
func (rd *reading) sourceAttr(k int) bool {
	rs := rd.runes
	if k < len(rs) && nameChar(rs[k]) {
		return false
	}
	follows := func(r rune) bool { return r >= followBase && r < followBase+0x100 }
	for used := 0; ; k++ {
		if rd.attrAt(k) {
			return true
		}
		if k == len(rs) {
			return false
		}
		switch {
		case follows(rs[k]):
		case closers.has(rs[k]) || used == 120:
			return false
		default:
			used++
		}
	}
}

// attrAt reports whether "source", white space and an equals sign start
// at k, with no name character just before.
func (rd *reading) attrAt(k int) bool {
	rs := rd.runes
	if k > 0 && nameChar(rs[k-1]) {
		return false
	}
	e, ok := rd.name(k, "source")
	if !ok {
		return false
	}
	e = rd.skip(e, func(r rune) bool { return unicode.IsSpace(r) || r == 0x2800 || r == 0xFEFF || between(r) })
	return e < len(rs) && (equals.has(rs[e]) || rs[e] == doubled)
}
