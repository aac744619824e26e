package policy

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/lazyre"
)

// StanzaEndMarker closes a store's stanza. It is matched without regard to
// ASCII letter case, unlike the opening marker, which must be lower case.
const StanzaEndMarker = "<!-- memory-policy-stanza-end -->"

// ws is .NET's \s, the whitespace class the reference matches markers with.
const ws = `[\t\n\v\f\r \x{85}\p{Z}]`

var (
	// looseBeginRE recognizes anything that is plainly an opening stanza
	// marker, however malformed; the word boundary after "begin" is checked
	// by hand (see wordBoundaryAt) because Go's \b is ASCII-only.
	looseBeginRE   = lazyre.New(`(?i)^<!--` + ws + `*memory-policy-stanza-begin(.*)-->$`)
	looseBeginCSRE = lazyre.New(`^<!--` + ws + `*memory-policy-stanza-begin(.*)-->$`)
	strictBeginRE  = lazyre.New(`^<!--` + ws + `*memory-policy-stanza-begin` + ws + `*:` + ws + `*(.+?)` + ws + `*-->$`)
)

// Stanza is a store's split-shape declaration.
type Stanza struct {
	// Declared reports whether the index declares the split shape: its
	// first non-blank line is an opening stanza marker. A declared store is
	// never read back as legacy, even when the declaration is malformed.
	Declared bool
	// Reason says why the declaration is malformed; "" when it is not.
	Reason string
	// Path is the policy-file path the opening marker names, trimmed.
	Path string
	// Begin and End are the 0-based line indexes of the two markers (-1
	// when absent).
	Begin, End int
	// Block is the normalized stanza text.
	Block []string
}

// Malformed reports whether the declaration is malformed.
func (s *Stanza) Malformed() bool { return s.Reason != "" }

// ReadStanza reads the split-shape declaration from an index's lines.
// headerEnd is the 0-based index of the first section heading (or -1 for
// none): only lines above it count, both for the opening marker and for
// the closing one.
func ReadStanza(lines []string, headerEnd int) Stanza {
	st := Stanza{Begin: -1, End: -1}
	bound := len(lines)
	if headerEnd >= 0 && headerEnd < bound {
		bound = headerEnd
	}
	first := -1
	for i := 0; i < bound; i++ {
		if index.TrimSpace(lines[i]) != "" {
			first = i
			break
		}
	}
	if first < 0 {
		return st
	}
	line := index.TrimRight(lines[first])
	// Every opening marker starts "<!--": most indexes start with a title,
	// and that answer needs no pattern compiled.
	if !strings.HasPrefix(line, "<!--") || !isLooseBegin(looseBeginRE(), line) {
		return st
	}
	st.Declared = true
	st.Begin = first
	if m := strictBeginRE().FindStringSubmatch(line); m != nil {
		st.Path = index.TrimSpace(m[1])
	}
	if st.Path == "" {
		why := "it names no policy file"
		if strictBeginRE().FindStringSubmatch(line) == nil && !isLooseBegin(looseBeginCSRE(), line) {
			why = "the marker name must be written in lower case"
		}
		st.Reason = fmt.Sprintf("the stanza opens at line %d and %s; expected '<!-- memory-policy-stanza-begin: POLICY.md -->'", first+1, why)
		return st
	}
	for i := first + 1; i < bound; i++ {
		if EqualFoldASCII(index.TrimRight(lines[i]), StanzaEndMarker) {
			st.End = i
			break
		}
	}
	if st.End < 0 {
		st.Reason = fmt.Sprintf("the stanza opens at line %d and is never closed by '%s' above the index's first section heading", first+1, StanzaEndMarker)
		return st
	}
	// Adjacent markers give an empty slice here, so they are an empty
	// stanza (the reference compares the two marker lines in that case, an
	// accident not worth copying).
	st.Block = NormalizeBlock(lines[first+1 : st.End])
	if len(st.Block) == 0 {
		st.Reason = fmt.Sprintf("the stanza at line %d is empty", first+1)
	}
	return st
}

// isLooseBegin matches line against re and then requires a word boundary
// after "begin", with .NET's Unicode notion of a word character.
func isLooseBegin(re *regexp.Regexp, line string) bool {
	m := re.FindStringSubmatchIndex(line)
	if m == nil {
		return false
	}
	next, _ := utf8.DecodeRuneInString(line[m[2]:])
	if m[2] == m[3] {
		next = '-' // the "-->" itself follows
	}
	return !isWordChar(next)
}

// isWordChar is .NET's \w: letters, decimal digits, nonspacing marks,
// connector punctuation, and the two zero-width joiners.
func isWordChar(r rune) bool {
	return unicode.IsLetter(r) || unicode.Is(unicode.Nd, r) || unicode.Is(unicode.Mn, r) ||
		unicode.Is(unicode.Pc, r) || r == '\u200c' || r == '\u200d'
}
