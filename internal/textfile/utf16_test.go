package textfile

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
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
	pieces := []string{"a", "abcdefgh", "\r", "\n", "\r\n", "é", "—", "€", "😀", "\xff", "\xe2\x82", "\x80", " ", "0123456789abcdef"}
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
		js := len(utf16.Encode([]rune(s)))
		if got := UTF16Len(s); got != js {
			t.Fatalf("UTF16Len(%q) = %d, JavaScript's length %d", s, got, js)
		}
	}
}
