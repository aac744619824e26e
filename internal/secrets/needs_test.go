package secrets

import (
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
)

// holds reports whether needs n lets the whole of text through.
func holds(n *needs, text string) bool {
	sc := newScanner(text)
	return n.in(sc, 0, len(text))
}

// TestNeedsTable: what a pattern's condition asks of a window.
func TestNeedsTable(t *testing.T) {
	for _, c := range []struct {
		src       string
		pass, not []string
	}{
		// Parts matched whole join: "A" then "KIA" or "SIA".
		{`\bA(?:KIA|SIA)[A-Z0-9]{4}\b`, []string{"AKIA1234", "x ASIA9999 y"}, []string{"AKI A1234", "akia1234", "ABIA1234"}},
		// Case-insensitive literals match any ASCII case, and the Kelvin
		// sign and the long s as k and s.
		{`(?i)key_[a-z]{3}`, []string{"KEY_abc", "Key_xyz", "\u212aey_abc"}, []string{"kay_abc", "key-abc"}},
		{`(?i)test_[a-f0-9]{10}`, []string{"TEST_0123456789", "te\u017ft_0123456789"}, []string{"test_012345678", "tset_0123456789"}},
		// A long repeated class is a run of that many bytes of it.
		{`(?:x|y)[a-f0-9]{12}`, []string{"x0123456789ab", "- y0123456789abc -"}, []string{"x0123456789a", "x01234567_89abcdef"}},
		// A class with members outside ASCII counts their bytes in.
		{`[\p{L}]{8}`, []string{"abcdefgh", "äöüßäöüß"}, []string{"abc1defg"}},
		// Either branch's literal or run will do.
		{`hvs\.[\w-]{20,}|s\.[a-z0-9]{10}`, []string{"hvs.aaaaaaaaaaaaaaaaaaaa", "s.abcdefghij"}, []string{"hvs.short", "s.abc"}},
	} {
		n := needsOf(c.src)
		if n == nil {
			t.Errorf("%s: no condition", c.src)
			continue
		}
		re := regexp.MustCompile(c.src)
		for _, s := range c.pass {
			if !holds(n, s) {
				t.Errorf("%s: %q is refused (the pattern matches: %v)", c.src, s, re.MatchString(s))
			}
		}
		for _, s := range c.not {
			if holds(n, s) {
				t.Errorf("%s: %q passes, want it refused", c.src, s)
			}
			if re.MatchString(s) {
				t.Errorf("%s: the pattern matches %q, which the test says it cannot", c.src, s)
			}
		}
	}
	// Nothing worth checking: no condition.
	for _, src := range []string{`[a-z]+`, `ab|c`, `(?i)ß+x`, `\d{3}`} {
		if needsOf(src) != nil {
			t.Errorf("%s: a condition, want none", src)
		}
	}
}

// TestNeedsHoldForEveryMatch: for every gitleaks rule, every text its
// pattern matches passes its condition: samples of each rule, with every k
// and s also spelled as the Kelvin sign and the long s.
func TestNeedsHoldForEveryMatch(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	samples := 30
	if testing.Short() {
		samples = 10 // still every rule; the full run draws 30 of each
	}
	checked := 0
	for _, g := range gitleaksRules().rules {
		re := g.regexp()
		p, err := syntax.Parse(g.src, syntax.Perl)
		if re == nil || err != nil || g.need == nil {
			continue
		}
		for range samples {
			s := sample(p, r)
			for _, text := range []string{s, "- note: " + s + "\n", strings.NewReplacer("k", "\u212a", "s", "\u017f").Replace(s)} {
				if re.MatchString(text) {
					checked++
					if !holds(g.need, text) {
						t.Fatalf("%s: the pattern matches %q but its condition refuses it", g.id, text)
					}
				}
			}
		}
	}
	if checked < 1000*samples/30 {
		t.Errorf("only %d matching texts checked", checked)
	}
}

// FuzzNeeds: whatever the text, a rule whose pattern matches it has a
// condition that lets it through.
func FuzzNeeds(f *testing.F) {
	rules := gitleaksRules().rules
	r := rand.New(rand.NewPCG(7, 8))
	for i, g := range rules {
		if p, err := syntax.Parse(g.src, syntax.Perl); err == nil && i%7 == 0 {
			f.Add(uint16(i), sample(p, r))
		}
	}
	f.Fuzz(func(t *testing.T, i uint16, text string) {
		g := rules[int(i)%len(rules)]
		re := g.regexp()
		if re == nil || g.need == nil || !re.MatchString(text) {
			return
		}
		if !holds(g.need, text) {
			t.Fatalf("%s: the pattern matches %q but its condition refuses it", g.id, text)
		}
	})
}
