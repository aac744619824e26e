package short

import (
	"testing"
	"unicode/utf8"
)

// TestRunes: every valid rune of the BMP, none of the surrogates, and the
// last rune; every rune above the BMP in the full run.
func TestRunes(t *testing.T) {
	want := map[rune]bool{0: false, 'a': false, 0xD7FF: false, 0xE000: false, 0xFFFF: false, 0x10000: false, utf8.MaxRune: false}
	n, last := 0, rune(-1)
	for r := range Runes() {
		if !utf8.ValidRune(r) || r <= last {
			t.Fatalf("Runes gave %U after %U", r, last)
		}
		if _, ok := want[r]; ok {
			want[r] = true
		}
		n, last = n+1, r
	}
	for r, seen := range want {
		if !seen {
			t.Errorf("Runes skipped %U", r)
		}
	}
	bmp := 0x10000 - (0xDFFF - 0xD800 + 1)
	total := bmp + (utf8.MaxRune - 0xFFFF)
	if testing.Short() {
		total = bmp + (utf8.MaxRune-0x10000)/runeStride + 2
	}
	if n != total {
		t.Errorf("Runes gave %d runes, want %d", n, total)
	}
}
