package secrets

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestLineIndexJumps: newLineIndex, which jumps from LF to LF when the
// text has no CR, finds the line starts looking at every byte finds; and
// linesOf splits as looking at every byte for CR and LF does.
func TestLineIndexJumps(t *testing.T) {
	bytewise := func(text string) []int {
		starts := []int{0}
		for i := 0; i < len(text); i++ {
			switch text[i] {
			case '\n':
				starts = append(starts, i+1)
			case '\r':
				if i+1 < len(text) && text[i+1] == '\n' {
					i++
				}
				starts = append(starts, i+1)
			}
		}
		return starts
	}
	splitEvery := func(text string, lo, hi int) []span {
		var out []span
		s := lo
		for i := lo; i < hi; i++ {
			if text[i] == '\r' || text[i] == '\n' {
				out = append(out, span{s, i})
				s = i + 1
			}
		}
		if s < hi {
			out = append(out, span{s, hi})
		}
		return out
	}
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte("ab \n\r—")
	texts := []string{"", "\n", "a", "a\n", "\n\n", "a\r\nb", "a\rb\n"}
	for range 500 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		texts = append(texts, string(b))
	}
	for _, text := range texts {
		if got, want := newLineIndex(text).starts, bytewise(text); !reflect.DeepEqual(got, want) {
			t.Errorf("newLineIndex(%q) = %v, want %v", text, got, want)
		}
		lo := r.IntN(len(text) + 1)
		hi := lo + r.IntN(len(text)-lo+1)
		if got, want := linesOf(text, lo, hi), splitEvery(text, lo, hi); !reflect.DeepEqual(got, want) {
			t.Errorf("linesOf(%q, %d, %d) = %v, want %v", text, lo, hi, got, want)
		}
	}
}
