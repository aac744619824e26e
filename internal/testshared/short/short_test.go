package short

import (
	"testing"
	"unicode/utf8"
)

// TestRunes: every valid rune of the BMP, none of the surrogates, and the
// last rune; every rune above the BMP in the full run.
func TestRunes(t *testing.T) {
	seen := map[rune]bool{}
	for r := range Runes() {
		if !utf8.ValidRune(r) {
			t.Fatalf("Runes gave %U, not a valid rune", r)
		}
		seen[r] = true
	}
	for _, r := range []rune{0, 'a', 0xD7FF, 0xE000, 0xFFFF, 0x10000, utf8.MaxRune} {
		if !seen[r] {
			t.Errorf("Runes skipped %U", r)
		}
	}
	bmp := 0x10000 - (0xDFFF - 0xD800 + 1)
	want := bmp + (utf8.MaxRune - 0xFFFF)
	if testing.Short() {
		want = bmp + (utf8.MaxRune-0x10000)/runeStride + 2
	}
	if len(seen) != want {
		t.Errorf("Runes gave %d runes, want %d", len(seen), want)
	}
}
