// Package recall holds the two count rules on an index's pointer lines: a
// subject needs a recall hook, words that say what its entry teaches (R1),
// and a note over several subjects must not stand in for their own hooks
// (R2). They live apart from check because doctor and the pre-write guard
// apply them on their own, to stores the strict check refuses.
package recall

import (
	"strings"
	"unicode"

	"github.com/memcompact/memcompact/internal/index"
)

// The two count axes are syntactic proxies for questions about meaning:
// does a pointer say what its entry teaches (R1), and does a line put one
// note over several subjects that say nothing themselves (R2)? Novel
// filler evades them; they are a floor, not a judge.

// Reasons a subject has no recall hook.
const (
	ReasonFillerLinkText = "link text is generic filler"
	ReasonFillerClause   = "clause is generic filler, and the link text is a bare title"
	ReasonBareTitle      = "bare title: every word already appears in the filename"
)

// noteWordFloor is how many words (stop words aside) a leading or trailing
// text needs before it reads as a note rather than a topic label such as
// "Git/CI truth:".
const noteWordFloor = 4

// fillerPhrases is the closed set of generic filler, after normalization
// (so "N/A" is "n a"). A phrase is told from them as it is read (see
// readPhrase), one bit of a word per phrase still possible.
var fillerPhrases = [...]string{
	"see body", "see the body", "read the body", "in the body",
	"details in body", "details in the body", "details inside",
	"more inside", "more in body", "see file", "see notes",
	"see above", "tbd", "na", "n a",
}

// stopWords carry no subject-identifying information; they are dropped
// before a link's words are compared with its filename.
var stopWords = map[string]bool{
	"a": true, "an": true, "the": true, "is": true, "are": true, "was": true, "were": true,
	"be": true, "been": true, "being": true, "of": true, "to": true, "in": true, "on": true,
	"at": true, "for": true, "and": true, "or": true, "it": true, "its": true, "this": true,
	"that": true, "with": true, "by": true, "from": true, "as": true,
}

// Subject is one subject link judged on the hook axis.
type Subject struct {
	Line     int    // 1-based index line
	Target   string // the link target, cut at '#'
	LinkText string
	Clause   string // the text after the link up to the next link, separators stripped
	HasHook  bool
	Reason   string // why it has no hook; "" when it has one
}

// WithoutHook is a subject lacking a recall hook.
type WithoutHook struct {
	Line     int    `json:"line"`
	Target   string `json:"target"`
	LinkText string `json:"link_text"`
	Reason   string `json:"reason"`
}

// SharedNote is one note a line puts over several subjects, some of which
// carry no hook of their own.
type SharedNote struct {
	Line     int      `json:"line"`
	Position string   `json:"position"` // "leading" or "trailing"
	Subjects []string `json:"subjects"` // targets of every subject link on the line
	Note     string   `json:"note"`
}

// Judge runs the hook axis (R1) and the shared-note axis (R2) over every
// pointer line of ix, in line order and then link order. It needs no
// policy, so it can judge a store the strict check refuses.
func Judge(ix *index.Index) (subjects []Subject, notes []SharedNote) {
	n := 0
	for i := range ix.Lines {
		n += len(ix.Lines[i].Links)
	}
	subjects = make([]Subject, 0, n)
	for i := range ix.Lines {
		l := &ix.Lines[i]
		if !l.IsPointerLine() {
			continue
		}
		var n []SharedNote
		subjects, n = judgeLine(l, subjects)
		notes = append(notes, n...)
	}
	return subjects, notes
}

// Hookless returns the subjects of ix that carry no recall hook (R1).
func Hookless(ix *index.Index) []WithoutHook {
	subjects, _ := Judge(ix)
	return WithoutHooks(subjects)
}

// SharedNotes returns the unattributed shared notes of ix (R2).
func SharedNotes(ix *index.Index) []SharedNote {
	_, notes := Judge(ix)
	return notes
}

// HooksAndNotes returns Hookless(ix) and SharedNotes(ix) from one pass
// over ix, for callers that want both (the doctor and the pre-write
// guard, which run on every session start and every memory write).
func HooksAndNotes(ix *index.Index) ([]WithoutHook, []SharedNote) {
	subjects, notes := Judge(ix)
	return WithoutHooks(subjects), notes
}

// WithoutHooks returns the subjects that carry no recall hook, as the
// findings check, doctor and the guard report.
func WithoutHooks(subjects []Subject) []WithoutHook {
	out := []WithoutHook{}
	for _, s := range subjects {
		if !s.HasHook {
			out = append(out, WithoutHook{Line: s.Line, Target: s.Target, LinkText: s.LinkText, Reason: s.Reason})
		}
	}
	return out
}

// judgeLine appends the line's subjects to subjects and returns its
// shared notes.
func judgeLine(l *index.Line, subjects []Subject) ([]Subject, []SharedNote) {
	text, links := l.Text, l.Links
	var targets []string
	bare, first := 0, len(subjects)
	for k, link := range links {
		if !link.Subject {
			continue
		}
		end := len(text)
		if k+1 < len(links) {
			end = links[k+1].Start
		}
		clause := ""
		if end > link.End {
			clause = stripSeparators(text[link.End:end])
		}
		s := Subject{Line: l.Num, Target: link.Target, LinkText: link.Text, Clause: clause}
		// R1 is disjunctive: the clause or the link text may carry the hook.
		switch {
		case SaysSomething(clause):
			s.HasHook = true
		case isFiller(link.Text):
			s.Reason = ReasonFillerLinkText
		case !IsBareTitle(link.Text, link.Target):
			s.HasHook = true
		case clause != "":
			s.Reason = ReasonFillerClause
		default:
			s.Reason = ReasonBareTitle
		}
		if !s.HasHook {
			bare++
		}
		subjects = append(subjects, s)
	}

	// R2 is keyed on missing hooks: a grouped line whose links each state
	// their lesson is not a defect. A trailing note is also the last link's
	// own clause, which is why a bare sibling is the signal it is shared.
	var notes []SharedNote
	if len(subjects)-first >= 2 && bare >= 1 {
		for _, s := range subjects[first:] {
			targets = append(targets, s.Target)
		}
		prefix := text[:links[0].Start]
		prefix = stripSeparators(prefix[index.BulletLen(prefix):])
		trailing := stripSeparators(text[min(links[len(links)-1].End, len(text)):])
		for _, c := range [...]struct{ pos, text string }{{"leading", prefix}, {"trailing", trailing}} {
			if SaysSomething(c.text) && len(Tokens(c.text)) >= noteWordFloor {
				notes = append(notes, SharedNote{Line: l.Num, Position: c.pos, Subjects: targets, Note: c.text})
			}
		}
	}
	return subjects, notes
}

// isSeparator reports whether r is stripped from the ends of a clause.
func isSeparator(r rune) bool {
	switch r {
	case '—', '–', '-', ':', ';', ',', '·', '|':
		return true
	}
	return unicode.IsSpace(r)
}

func stripSeparators(s string) string { return strings.TrimFunc(s, isSeparator) }

// words lower-cases s and splits it on every run of characters other than
// a-z and 0-9. A word already in lower case is a piece of s, not a copy.
func words(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		c, size := alnumAt(s, i)
		if c == 0 {
			i += size
			continue
		}
		start, lower := i, true
		var b []byte
		for i < len(s) {
			c, size := alnumAt(s, i)
			if c == 0 {
				break
			}
			if lower && (size != 1 || c != s[i]) {
				lower, b = false, []byte(s[start:i])
			}
			if !lower {
				b = append(b, c)
			}
			i += size
		}
		if lower {
			out = append(out, s[start:i])
		} else {
			out = append(out, string(b))
		}
	}
	return out
}

// kelvin is U+212A KELVIN SIGN, the one character outside ASCII that
// lowers (LowerInvariant) to an ASCII letter or digit: 'k'. (U+0130 lowers
// to 'i' in Go, but has no invariant lower case.)
const kelvin = "\u212a"

// alnumAt returns the ASCII letter or digit s[i:] starts with, lowered as
// LowerInvariant lowers it (0 when it starts with anything else), and how
// many bytes to step over. A byte of any other character is stepped over
// alone: whatever it is, it separates words.
func alnumAt(s string, i int) (c byte, size int) {
	switch c := s[i]; {
	case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
		return c, 1
	case 'A' <= c && c <= 'Z':
		return c + ('a' - 'A'), 1
	case c == kelvin[0] && strings.HasPrefix(s[i:], kelvin):
		return 'k', len(kelvin)
	}
	return 0, 1
}

// Tokens returns the words of s without stop words.
func Tokens(s string) []string {
	var out []string
	for _, w := range words(s) {
		if !stopWords[w] {
			out = append(out, w)
		}
	}
	return out
}

func isFiller(s string) bool {
	_, filler := readPhrase(s)
	return filler
}

// SaysSomething reports whether s carries at least one real word and is
// not generic filler. Stop words count here: a clause of just "the" is a
// hook.
func SaysSomething(s string) bool {
	word, filler := readPhrase(s)
	return word && !filler
}

// readPhrase reads the normalized phrase of s (its words, lowered, joined
// by one space) only as far as it takes to say whether it has a word and
// whether it is one of the filler phrases: a phrase stops being filler at
// its first character no filler phrase has there, which for most clauses
// is the first, so the rest of the clause is never read. It allocates
// nothing.
func readPhrase(s string) (word, filler bool) {
	possible := uint32(1)<<len(fillerPhrases) - 1 // bit k: fillerPhrases[k] may still be the phrase
	n := 0                                        // the phrase's length so far
	space := false
	for i := 0; i < len(s); {
		c, size := alnumAt(s, i)
		i += size
		if c == 0 {
			space = true
			continue
		}
		if space && n > 0 {
			possible = narrow(possible, n, ' ')
			n++
		}
		space = false
		possible = narrow(possible, n, c)
		n++
		if possible == 0 {
			return true, false
		}
	}
	for k, f := range fillerPhrases {
		if possible&(1<<k) != 0 && len(f) == n {
			return n > 0, true
		}
	}
	return n > 0, false
}

// narrow drops from possible the filler phrases that do not have c at
// offset n.
func narrow(possible uint32, n int, c byte) uint32 {
	for k, f := range fillerPhrases {
		if possible&(1<<k) != 0 && (n >= len(f) || f[n] != c) {
			possible &^= 1 << k
		}
	}
	return possible
}

// IsBareTitle reports whether every word of the link text already appears
// in its target's filename (extension dropped, letters and digits only),
// so the pointer says nothing the filename does not. Matching is by
// substring, so "pre-existing" is bare against reference_preexisting.md.
func IsBareTitle(linkText, target string) bool {
	tokens := Tokens(linkText)
	if len(tokens) == 0 {
		return true
	}
	name := index.FileName(target)
	if dot := strings.LastIndexByte(name, '.'); dot >= 0 {
		name = name[:dot]
	}
	soup := strings.Join(words(name), "")
	for _, t := range tokens {
		if !strings.Contains(soup, t) {
			return false
		}
	}
	return true
}
