package sweepact

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/memcompact/memcompact/internal/testshared"
)

// TestCriticalMarkShortcut: criticalMark answers exactly as criticalRE on
// hand-made lines and on every line of the real stores' indexes, and every
// letter the pattern's words can fold to lowers to the same ASCII letter,
// so the literal shortcut can never hide a match.
func TestCriticalMarkShortcut(t *testing.T) {
	for _, r := range "critical" + "read f" + "read b" + "important" { // the literals criticalMark looks for
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if unicode.ToLower(f) != r {
				t.Errorf("%q folds to %q, which lowers to %q: the shortcut would miss it", r, f, unicode.ToLower(f))
			}
		}
	}
	lines := []string{
		"", "- [A](a.md) — nothing here", "- [A](a.md) — CRITICAL: deploy", "Read First", "READ BEFORE editing",
		"an Important note", "🚨 stop", "⚠️ careful", "⛔ never", "중요 메모", "필독", "必読", "重要", "reading list", "already read", "read firſt", "READ B", "read\tfirst",
		"criticality", "uncritical", "read-only", "Ⅰmportant",
	}
	for _, l := range lines {
		if got, want := criticalMark(l), criticalRE().FindString(l); got != want {
			t.Errorf("criticalMark(%q) = %q, criticalRE finds %q", l, got, want)
		}
	}
}

// TestCriticalMarkRealStores: criticalMark answers exactly as criticalRE
// on every line of every real store's index.
func TestCriticalMarkRealStores(t *testing.T) {
	ps, err := filepath.Glob(filepath.Join(testshared.RealStores(t), "*", "MEMORY.md"))
	if err != nil || len(ps) == 0 {
		t.Fatalf("no real store indexes found (%v)", err)
	}
	n := 0
	for _, p := range ps {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(raw), "\n") {
			got, want := criticalMark(l), criticalRE().FindString(l)
			if got != want {
				t.Errorf("%s: criticalMark(%q) = %q, criticalRE finds %q", p, l, got, want)
			}
			if want != "" {
				n++
			}
		}
	}
	if n == 0 {
		t.Error("no line of the real stores is marked critical, so the test compared only misses")
	}
}

// TestCriticalMarkWindows: criticalMark, which runs the pattern only on
// windows at its literals, answers as criticalRE on the whole line, for
// random lines of the pattern's pieces, near misses and other text, short
// and long, the match anywhere or nowhere.
func TestCriticalMarkWindows(t *testing.T) {
	pieces := []string{"crit", "ical", "critical", "CRITICAL", "Critical", "criticality", "read ", "READ ", "first", "firſt", "before", "Before",
		"important", "IMPORTANT", "importan", "🚨", "⚠", "\uFE0F", "⛔", "중요", "중", "요", "필독", "必読", "重要", "重", "x", " ", "é", "_", "-", "\t", "日本語のテキスト", "uncritical ", "a"}
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 3000 {
		var b strings.Builder
		n := rng.IntN(12)
		if i%10 == 0 {
			n = 200 + rng.IntN(400) // long lines, where the shortcut matters
		}
		for range n {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		l := b.String()
		if got, want := criticalMark(l), criticalRE().FindString(l); got != want {
			t.Fatalf("criticalMark(%q) = %q, criticalRE finds %q", l, got, want)
		}
	}
}

func FuzzCriticalMark(f *testing.F) {
	for _, s := range []string{"Read first: CRITICAL", "read firſt", "🚨 중요 必読 important", "uncritical reading", "ir cr re im"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, l string) {
		if got, want := criticalMark(l), criticalRE().FindString(l); got != want {
			t.Fatalf("criticalMark(%q) = %q, criticalRE finds %q", l, got, want)
		}
	})
}
