package entryfile

import (
	"strings"
	"unicode/utf8"
)

// The own decoder: the YAML that Claude Code and the stores met so far
// write in a frontmatter, decoded exactly as yaml.v3 decodes it into the
// frontmatter fields (decodeYAML), about fifteen times faster than
// yaml.v3 (BenchmarkDecode: a session start on a store never seen decodes
// every entry). It is sure of:
//
//   - a block mapping of "key: value" lines, keys plain words
//     ([A-Za-z0-9_][A-Za-z0-9_.-]*), nested by indenting with spaces under a
//     key with no value ("metadata:" then "  type: user");
//   - a block sequence of one-line scalars under such a key ("related:"
//     then "  - a");
//   - one-line plain scalars, double-quoted ones with YAML's escapes,
//     single-quoted ones with '' for a quote, and the empty "[]" and "{}";
//   - comments (a "#" at a line's start or after a space), blank lines,
//     CRLF line ends.
//
// Anything else — a multi-line scalar, a block scalar (| or >), a flow
// collection with something in it, an anchor, alias or tag, ": " inside a
// plain scalar, a tab, odd indentation, a control character, a key that
// is not a plain word — it is unsure of, and yaml.v3 decodes
// (decodeYAML). Being sure of less is only slower; being sure and wrong
// would misread a store, so every doubt is unsure. FuzzFrontmatter
// compares it with yaml.v3 on any input.

// node kinds of the subset.
const (
	nullNode   = iota // no value
	plainNode         // a plain scalar
	quotedNode        // a single- or double-quoted scalar
	mapNode           // a block mapping, or "{}"
	seqNode           // a block sequence, or "[]"
)

// node is one value: a scalar's text, or a mapping's keys and values (a
// sequence's items are never read: no field takes one).
type node struct {
	kind int
	text string
	keys []string
	vals []*node
}

// line is one line that holds something: its indentation in spaces and
// the rest.
type line struct {
	indent int
	text   string
}

// decodeOwn decodes block when it is in the subset; sure is false when it
// is not, and then f is empty.
func decodeOwn(block string) (f Fields, sure bool) {
	lines, ok := contentLines(block)
	if !ok {
		return Fields{}, false
	}
	p := &parser{lines: lines}
	root, ok := p.document()
	if !ok {
		return Fields{}, false
	}
	return fieldsOf(root), true
}

// contentLines splits block into its lines that hold something (neither
// blank nor a comment); ok is false when a character is outside the
// subset.
func contentLines(block string) ([]line, bool) {
	if !plainChars(block) {
		return nil, false
	}
	var out []line
	for s := range strings.SplitSeq(block, "\n") {
		s = strings.TrimSuffix(s, "\r")
		text := strings.TrimLeft(s, " ")
		if strings.TrimRight(text, " ") == "" || text[0] == '#' {
			continue
		}
		out = append(out, line{indent: len(s) - len(text), text: text})
	}
	return out, true
}

// plainChars reports whether s holds only characters the subset allows:
// valid UTF-8 that yaml.v3 reads as printable and not as a line break,
// with "\r" only before "\n". A tab, a NEL, a line or paragraph separator
// or a byte order mark is unsure: YAML gives each a meaning of its own.
func plainChars(s string) bool {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\n' || (r >= 0x20 && r <= 0x7e):
		case r == '\r':
			if i+1 >= len(s) || s[i+1] != '\n' {
				return false
			}
		case r == utf8.RuneError && n == 1:
			return false
		case r == 0x2028 || r == 0x2029 || r == 0xfeff:
			return false
		case (r >= 0xa0 && r <= 0xd7ff) || (r >= 0xe000 && r <= 0xfffd) || r >= 0x10000:
		default:
			return false
		}
		i += n
	}
	return true
}

// parser reads the block structure from the content lines.
type parser struct {
	lines []line
	i     int // the next line
}

// next is the next line, if any.
func (p *parser) next() (line, bool) {
	if p.i >= len(p.lines) {
		return line{}, false
	}
	return p.lines[p.i], true
}

// document is the whole block: nothing (an empty document), or a mapping
// at the left margin.
func (p *parser) document() (*node, bool) {
	l, ok := p.next()
	if !ok {
		return &node{kind: nullNode}, true
	}
	if l.indent != 0 {
		return nil, false
	}
	m, ok := p.mapping(0)
	return m, ok && p.i == len(p.lines)
}

// mapping reads "key: value" lines indented by ind, up to a line indented
// less.
func (p *parser) mapping(ind int) (*node, bool) {
	m := &node{kind: mapNode}
	for l, ok := p.next(); ok && l.indent >= ind; l, ok = p.next() {
		key, rest, isKey := keyLine(l.text)
		if l.indent > ind || !isKey {
			return nil, false
		}
		p.i++
		v, ok := p.value(ind, rest)
		if !ok {
			return nil, false
		}
		m.keys, m.vals = append(m.keys, key), append(m.vals, v)
	}
	return m, true
}

// value is the value of a key indented by ind, rest being what follows
// its colon: a scalar on the same line, or what the lines below hold.
func (p *parser) value(ind int, rest string) (*node, bool) {
	rest = strings.TrimLeft(rest, " ")
	if rest == "" || rest[0] == '#' {
		return p.below(ind)
	}
	return scalar(rest)
}

// below is the value of a key indented by ind that has none on its own
// line: a mapping or sequence indented more, else nothing.
func (p *parser) below(ind int) (*node, bool) {
	l, ok := p.next()
	switch {
	case !ok || l.indent <= ind:
		return &node{kind: nullNode}, true
	case strings.HasPrefix(l.text, "- "):
		return p.sequence(l.indent)
	}
	if _, _, isKey := keyLine(l.text); isKey {
		return p.mapping(l.indent)
	}
	return nil, false
}

// sequence reads "- scalar" lines indented by ind, up to a line indented
// less.
func (p *parser) sequence(ind int) (*node, bool) {
	for l, ok := p.next(); ok && l.indent >= ind; l, ok = p.next() {
		item, isItem := strings.CutPrefix(l.text, "- ")
		item = strings.TrimLeft(item, " ")
		if l.indent > ind || !isItem || item == "" || item[0] == '#' {
			return nil, false
		}
		p.i++
		if _, ok := scalar(item); !ok {
			return nil, false
		}
	}
	return &node{kind: seqNode}, true
}

// maxKey bounds a key's length, well inside the 1024 characters YAML
// allows a simple key.
const maxKey = 128

// keyLine splits "key:" or "key: rest" into its key and what follows the
// colon; ok is false for any other line.
func keyLine(s string) (key, rest string, ok bool) {
	i := 0
	for i < len(s) && i <= maxKey && keyByte(s[i], i == 0) {
		i++
	}
	if i == 0 || i > maxKey || i >= len(s) || s[i] != ':' {
		return "", "", false
	}
	rest = s[i+1:]
	if rest != "" && rest[0] != ' ' {
		return "", "", false
	}
	return s[:i], rest, true
}

// keyByte reports whether c may be in a key (first: may start one).
func keyByte(c byte, first bool) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_':
		return true
	}
	return !first && (c == '.' || c == '-')
}

// indicators are the characters that give a value starting with one a
// meaning other than a plain scalar's (or may: '-', '?' and ':' start a
// plain scalar when a non-space follows, which is left unsure).
const indicators = "-?:,[]{}#&*!|>'\"%@`"

// scalar reads a one-line value s (not empty, not starting with a space):
// a quoted or plain scalar, or an empty flow collection, then spaces and
// a comment at most.
func scalar(s string) (*node, bool) {
	switch s[0] {
	case '"':
		text, rest, ok := doubleQuoted(s[1:])
		return &node{kind: quotedNode, text: text}, ok && onlyComment(rest)
	case '\'':
		text, rest, ok := singleQuoted(s[1:])
		return &node{kind: quotedNode, text: text}, ok && onlyComment(rest)
	}
	switch {
	case strings.HasPrefix(s, "[]") && onlyComment(s[2:]):
		return &node{kind: seqNode}, true
	case strings.HasPrefix(s, "{}") && onlyComment(s[2:]):
		return &node{kind: mapNode}, true
	case strings.IndexByte(indicators, s[0]) >= 0:
		return nil, false
	}
	if i := strings.Index(s, " #"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimRight(s, " ")
	if strings.Contains(s, ": ") || strings.HasSuffix(s, ":") {
		return nil, false
	}
	return &node{kind: plainNode, text: s}, true
}

// onlyComment reports whether rest, what follows a value on its line, is
// only spaces, then perhaps a comment after at least one of them.
func onlyComment(rest string) bool {
	t := strings.TrimLeft(rest, " ")
	return t == "" || (t[0] == '#' && len(t) < len(rest))
}

// doubleQuoted reads a double-quoted scalar's text up to its closing
// quote on the same line (s follows the opening one), and what follows.
func doubleQuoted(s string) (text, rest string, ok bool) {
	var b strings.Builder
	for i := 0; i < len(s); {
		switch s[i] {
		case '"':
			return b.String(), s[i+1:], true
		case '\\':
			n, ok := unescape(&b, s[i+1:])
			if !ok {
				return "", "", false
			}
			i += 1 + n
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return "", "", false
}

// escaped is what YAML's one-character escape \c stands for, if c makes
// one. (A switch, not a map: a map literal would be built at every
// start-up.)
func escaped(c byte) (string, bool) {
	switch c {
	case '0':
		return "\x00", true
	case 'a':
		return "\a", true
	case 'b':
		return "\b", true
	case 't':
		return "\t", true
	case 'n':
		return "\n", true
	case 'v':
		return "\v", true
	case 'f':
		return "\f", true
	case 'r':
		return "\r", true
	case 'e':
		return "\x1b", true
	case ' ', '"', '\'', '\\':
		return string(c), true
	case 'N':
		return "\u0085", true
	case '_':
		return "\u00a0", true
	case 'L':
		return "\u2028", true
	case 'P':
		return "\u2029", true
	}
	return "", false
}

// hexDigits is how many hex digits follow \x, \u and \U (0 after any
// other letter).
func hexDigits(c byte) int {
	switch c {
	case 'x':
		return 2
	case 'u':
		return 4
	case 'U':
		return 8
	}
	return 0
}

// unescape writes to b what the escape s starts with (after its
// backslash) stands for, and returns its length; ok is false for an
// escape yaml.v3 refuses or that ends the line (a continuation).
func unescape(b *strings.Builder, s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	if e, ok := escaped(s[0]); ok {
		b.WriteString(e)
		return 1, true
	}
	n := hexDigits(s[0])
	if n == 0 || len(s) < 1+n {
		return 0, false
	}
	var r uint32
	for _, c := range []byte(s[1 : 1+n]) {
		d, ok := hexValue(c)
		if !ok {
			return 0, false
		}
		r = r<<4 | d
	}
	if (r >= 0xd800 && r <= 0xdfff) || r > 0x10ffff {
		return 0, false
	}
	b.WriteRune(rune(r))
	return 1 + n, true
}

// hexValue is the value of the hex digit c.
func hexValue(c byte) (uint32, bool) {
	switch {
	case c >= '0' && c <= '9':
		return uint32(c - '0'), true
	case c >= 'a' && c <= 'f':
		return uint32(c-'a') + 10, true
	case c >= 'A' && c <= 'F':
		return uint32(c-'A') + 10, true
	}
	return 0, false
}

// singleQuoted reads a single-quoted scalar's text up to its closing
// quote on the same line (s follows the opening one), and what follows.
func singleQuoted(s string) (text, rest string, ok bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\'' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == '\'' {
			b.WriteByte('\'')
			i++
			continue
		}
		return b.String(), s[i+1:], true
	}
	return "", "", false
}
