package recall

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/policy"
	"github.com/memcompact/memcompact/internal/testshared/short"
)

// alnumRune is the rule alnumAt implements: lower the rune as
// LowerInvariant does, then keep it only if it is a-z or 0-9.
func alnumRune(r rune) bool {
	r = policy.LowerInvariantRune(r)
	return 'a' <= r && r <= 'z' || '0' <= r && r <= '9'
}

// wordsByRune and shortPhraseByRune are words and the phrase reader as
// first written, lowering every rune with LowerInvariant: shortPhraseByRune
// returns the normalized phrase of s when it is at most 24 bytes long
// (short is true, and it may then be a filler phrase), else a prefix.
func wordsByRune(s string) []string {
	return strings.FieldsFunc(policy.LowerInvariant(s), func(r rune) bool {
		return !('a' <= r && r <= 'z' || '0' <= r && r <= '9')
	})
}

func shortPhraseByRune(s string) (string, bool) {
	var buf [24 + 1]byte
	n := 0
	space := false
	for _, r := range s {
		r = policy.LowerInvariantRune(r)
		if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' {
			if space && n > 0 {
				if n == len(buf) {
					return string(buf[:n]), false
				}
				buf[n] = ' '
				n++
			}
			space = false
			if n == len(buf) {
				return string(buf[:n]), false
			}
			buf[n] = byte(r)
			n++
		} else {
			space = true
		}
	}
	return string(buf[:n]), true
}

// TestAlnumEveryRune: alnumAt keeps exactly the characters that lower to
// a-z or 0-9, and gives the letter they lower to.
func TestAlnumEveryRune(t *testing.T) {
	for r := range short.Runes() {
		s := string(r)
		c, size := alnumAt(s, 0)
		if want := alnumRune(r); (c != 0) != want || want && (rune(c) != policy.LowerInvariantRune(r) || size != len(s)) {
			t.Fatalf("alnumAt(%q) = %q, %d", s, c, size)
		}
	}
}

// TestWordsAsByRune: words, SaysSomething and isFiller agree with the rune-by-rune
// rule on random mixes of cases, digits, separators, Hangul, the Kelvin
// sign, dotted capital I and invalid bytes.
func TestWordsAsByRune(t *testing.T) {
	pieces := []string{"a", "Z", "q", "7", " ", "-", "_", "한국", "\u212a", "\u0130", "\u00c9", "\xe2\x84", "\xff", "see", "BODY", "n/a", strings.Repeat("x", 30),
		"see body", "See The Body", "details in", "the body", "N/A", "tbd", "TBD.", "more", "inside", "notes", "in", "\u212aabove", "see fil"}
	r := rand.New(rand.NewPCG(11, 12))
	for range 50000 {
		var b strings.Builder
		for range r.IntN(10) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := words(s), wordsByRune(s); !slices.Equal(got, want) {
			t.Fatalf("words(%q) = %q, want %q", s, got, want)
		}
		p, short := shortPhraseByRune(s)
		filler := short && slices.Contains(fillerPhrases[:], p)
		if got, want := SaysSomething(s), index.TrimSpace(s) != "" && p != "" && !filler; got != want {
			t.Fatalf("SaysSomething(%q) = %v, want %v", s, got, want)
		}
		if got := isFiller(s); got != filler {
			t.Fatalf("isFiller(%q) = %v, want %v", s, got, filler)
		}
	}
}
