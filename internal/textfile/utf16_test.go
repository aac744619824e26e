package textfile

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/memcompact/memcompact/internal/testshared/short"
)

// unitsByRune is the counting rule spelled out rune by rune, as Units was
// written before it ran over ASCII eight bytes at a time.
func unitsByRune(text string) int {
	n := 0
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if c == '\r' && i+1 < len(text) && text[i+1] == '\n' {
				i++
				continue
			}
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		n += utf16.RuneLen(r)
		i += size
	}
	return n
}

// TestUnitsFast: Units and UTF16Len agree with the rune-by-rune rule (and
// UTF16Len with JavaScript's length: the rule without folding CRLF) on
// random mixes of ASCII, CR, LF, CRLF, two-, three- and four-byte
// characters and invalid bytes, at every alignment.
func TestUnitsFast(t *testing.T) {
	pieces := []string{"a", "abcdefgh", "\r", "\n", "\r\n", "é", "—", "€", "😀", "\xff", "\xe2\x82", "\x80", " ", "0123456789abcdef",
		"한국어", "\u0800", "\uffff", "\ud7ff", "\xed\xa0\x80", "\xe0\x9f\xbf", "\xc0\xaf", "\xc1", "\xdf", "\xef\xbf", "\xf0\x9f\x98", "\xf4\x90\x80\x80"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range r.IntN(24) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := Units(s), unitsByRune(s); got != want {
			t.Fatalf("Units(%q) = %d, want %d", s, got, want)
		}
		if d, _ := Decode([]byte(s)); DecodedUnits(d) != unitsByRune(d) {
			t.Fatalf("DecodedUnits(%q) = %d, want %d", d, DecodedUnits(d), unitsByRune(d))
		}
		js := len(utf16.Encode([]rune(s)))
		if got := UTF16Len(s); got != js {
			t.Fatalf("UTF16Len(%q) = %d, JavaScript's length %d", s, got, js)
		}
	}
}

// linesBySplit is what Lines means, said another way: the normalized
// text split at LF, without the empty piece after a final terminator.
func linesBySplit(text string) []string {
	if text == "" {
		return nil
	}
	n := Normalize(text)
	ls := strings.Split(n, "\n")
	if strings.HasSuffix(n, "\n") {
		ls = ls[:len(ls)-1]
	}
	return ls
}

func TestLinesShortcut(t *testing.T) {
	pieces := []string{"a", "abc def", "\n", "\n\n", "\r", "\r\n", "é", ""}
	r := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		got, want := Lines(s), linesBySplit(s)
		if len(got) != len(want) || strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Fatalf("Lines(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestUTF16LenEveryRune: the word-at-a-time count gives every character
// its UTF-16 length, wherever in a word it falls, and in the tail.
func TestUTF16LenEveryRune(t *testing.T) {
	for r := range short.Runes() {
		c := string(r)
		for _, pad := range []int{0, 3, 6, 7} {
			s := strings.Repeat("a", pad) + c + c + "z"
			if got, want := UTF16Len(s), pad+2*utf16.RuneLen(r)+1; got != want {
				t.Fatalf("UTF16Len(%q) = %d, want %d", s, got, want)
			}
		}
	}
}
