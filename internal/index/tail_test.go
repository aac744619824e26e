package index

import (
	"regexp"
	"strings"
	"testing"
)

// tailOracle is the link-tail pattern as a regular expression; the hand
// matcher must agree with it everywhere.
var tailOracle = regexp.MustCompile(`^\([` + ws + `]*(<[^>]*>|[^()` + ws + `]+)(?:[` + ws + `]+(?:"[^"]*"|'[^']*'|\([^)]*\)))?[` + ws + `]*\)`)

func checkTail(t *testing.T, s string) {
	t.Helper()
	if !strings.HasPrefix(s, "(") {
		s = "(" + s
	}
	var f finder
	f.line = s
	ts, te, end, ok := f.tail(s, 0)
	m := tailOracle.FindStringSubmatchIndex(s)
	if ok != (m != nil) {
		t.Fatalf("%q: matched %v, oracle %v", s, ok, m != nil)
	}
	if ok && (ts != m[2] || te != m[3] || end != m[1]) {
		t.Fatalf("%q: got %d,%d,%d; oracle %d,%d,%d", s, ts, te, end, m[2], m[3], m[1])
	}
}

func TestTail(t *testing.T) {
	for _, s := range []string{
		"(a.md)", "( a.md )", "(<a b.md>)", "(<a>b)", "(<a> \"t\")", "(<a)", "(<a>)x", "(a 't')", "(a (t))", "(a (t) )",
		"(a \"t)", "(a\"t\")", "()", "( )", "(a\u00a0\"t\"\u2028)", "(<>)", "(<<a>>)", "(a (b) c)", "(a 'b' 'c')", "(\"x\")",
		"(a\t(b)\t)", "(a b)", "(<a> b)", "(<a>> )",
	} {
		checkTail(t, s)
	}
}

func FuzzTail(f *testing.F) {
	for _, s := range []string{"(a.md)", "(<a b> \"t\")", "(<a>b)", "(a (t) )", "( x 'y' )z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkTail(t, s) })
}

// TestScanLinksLinear guards against a matcher that rescans the rest of the
// line at every "](" (these lines took minutes with the regular
// expression): the delimiter searches must stay linear in the line.
func TestScanLinksLinear(t *testing.T) {
	for _, unit := range []string{"[a](<", `[a](b "`, "[a](b (", "[a](b '", "[](", "[a](" + strings.Repeat(" ", 10), `[a](<x> "`} {
		line := "- " + strings.Repeat(unit, 20000)
		f := &finder{line: line}
		scanLinks(line, f)
		if f.scanned > 4*len(line) {
			t.Errorf("%q x 20000: %d bytes searched for a %d-byte line", unit, f.scanned, len(line))
		}
	}
}
