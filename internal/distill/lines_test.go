package distill

import (
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// TestSplitLines: splitLines is textfile's line rule with the blank lines
// at the end dropped and the empty text one empty line — the rule the
// summarizer has always split sources by (normalize CRLF and CR to LF,
// trim the trailing LFs, split), checked on every string of up to six
// characters over {a, CR, LF} and on random longer ones.
func TestSplitLines(t *testing.T) {
	old := func(text string) []string {
		return strings.Split(strings.TrimRight(strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n"), "\n"), "\n")
	}
	check := func(s string) {
		if got, want := splitLines(s), old(s); !slices.Equal(got, want) {
			t.Fatalf("splitLines(%q) = %q, want %q", s, got, want)
		}
	}
	alphabet := []string{"a", "\r", "\n"}
	var all func(prefix string, n int)
	all = func(prefix string, n int) {
		check(prefix)
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			all(prefix+c, n-1)
		}
	}
	all("", 6)
	rng := rand.New(rand.NewSource(1))
	for range 2000 {
		var b strings.Builder
		for range rng.Intn(40) {
			b.WriteString([]string{"a", "é", " ", "\r", "\n", "\r\n"}[rng.Intn(6)])
		}
		check(b.String())
	}
}
