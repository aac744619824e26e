package loadcut

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// lineOffsetsBytewise is lineOffsets as it was, looking at every byte:
// the oracle of TestLineOffsets.
func lineOffsetsBytewise(text string, n int) []int {
	out := make([]int, 0, n)
	start := 0
	for i := 0; i < len(text) && len(out) < n; i++ {
		switch text[i] {
		case '\n':
			out = append(out, start)
			start = i + 1
		case '\r':
			out = append(out, start)
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			start = i + 1
		}
	}
	if len(out) < n {
		out = append(out, start)
	}
	return out
}

// TestLineOffsets: lineOffsets finds the offsets looking at every byte
// finds, for LF, CRLF, lone CR and mixed line ends, a text ending with or
// without one, and every n up to past the last line.
func TestLineOffsets(t *testing.T) {
	texts := []string{"", "a", "\n", "\r", "\r\n", "\n\r", "a\nb", "a\nb\n", "a\r\nb\r\n", "a\rb\rc", "a\r\r\nb\n\n", "\r\n\r\n", "x\r"}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("ab \r\n—")
	for range 300 {
		b := make([]byte, rng.IntN(60))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		texts = append(texts, string(b))
	}
	for _, text := range texts {
		for n := 0; n <= len(text)+2; n++ {
			if got, want := lineOffsets(text, n), lineOffsetsBytewise(text, n); !slices.Equal(got, want) {
				t.Fatalf("lineOffsets(%q, %d) = %v, want %v", text, n, got, want)
			}
		}
	}
}
