package index

import (
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/memcompact/memcompact/internal/testshared/short"
)

// ws is the whitespace class of .NET regular expressions, as the patterns
// of the reference implementation use it.
const ws = `\t\n\v\f\r \x{85}\p{Z}`

// The line grammar as the patterns it was first written as: the hand
// matchers must agree with them on every line.
var (
	headingOracle = regexp.MustCompile(`^##[` + ws + `]`)
	pointerOracle = regexp.MustCompile(`^[` + ws + `]*(?:[-*+]|\p{Nd}+[.)])[` + ws + `]`)
	wsOracle      = regexp.MustCompile(`^[` + ws + `]$`)
)

// TestWSAsPattern: isWS is the pattern's class, rune for rune.
func TestWSAsPattern(t *testing.T) {
	for r := range short.Runes() {
		if got, want := isWS(r), wsOracle.MatchString(string(r)); got != want {
			t.Fatalf("isWS(%U) = %v, the pattern says %v", r, got, want)
		}
	}
}

func checkGrammar(t *testing.T, line string) {
	t.Helper()
	if got, want := IsHeading(line), headingOracle.MatchString(line); got != want {
		t.Fatalf("IsHeading(%q) = %v, the pattern says %v", line, got, want)
	}
	want := 0
	if m := pointerOracle.FindStringIndex(line); m != nil {
		want = m[1]
	}
	if got := BulletLen(line); got != want {
		t.Fatalf("BulletLen(%q) = %d, the pattern says %d", line, got, want)
	}
}

// TestGrammarAsPattern: IsHeading and BulletLen agree with the patterns
// on random lines of bullets, digits (ASCII and not), whitespace (ASCII
// and not), hashes and invalid bytes.
func TestGrammarAsPattern(t *testing.T) {
	pieces := []string{"#", "##", " ", "\t", "\u00a0", "\u3000", "\u2028", "\u0085", "\u200b", "-", "*", "+", "1", "23", "１", "٣", ".", ")", "x", "é", "\xff", "\xe3\x80", "["}
	r := rand.New(rand.NewPCG(7, 8))
	for range 100000 {
		var b strings.Builder
		for range r.IntN(7) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		checkGrammar(t, b.String())
	}
}

func FuzzGrammar(f *testing.F) {
	for _, s := range []string{"## x", "  - x", "１. x", "12)\u3000x", "##\xff", "-"} {
		f.Add(s)
	}
	f.Fuzz(checkGrammar)
}

// scanLinksByByte is scanLinks as first written, stepping over every byte
// of the line rather than jumping from bracket to bracket.
func scanLinksByByte(line string) (links []Link, unparsed []string) {
	next := &finder{line: line}
	var open []int
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '[':
			open = append(open, i)
		case ']':
			if len(open) == 0 {
				continue
			}
			start := open[len(open)-1]
			open = open[:len(open)-1]
			if i+1 >= len(line) || line[i+1] != '(' {
				continue
			}
			ts, te, end, ok := next.tail(line, i+1)
			if !ok {
				unparsed = append(unparsed, Snippet(line[i:], 40))
				continue
			}
			target := strings.Trim(line[ts:te], "<>")
			if h := strings.IndexByte(target, '#'); h >= 0 {
				target = target[:h]
			}
			links = append(links, Link{Text: line[start+1 : i], Target: target, Dest: Destination(line[ts:te]), Start: start, End: end, Subject: hasSuffixFold(target, ".md")})
		}
	}
	sortByStart(links)
	for k := 1; k < len(links); k++ {
		if links[k].Start < links[k-1].End {
			unparsed = append(unparsed, "nested or overlapping links: "+Snippet(line[links[k-1].Start:], 40))
		}
	}
	return links, unparsed
}

// TestScanLinksAsByByte: the bracket-to-bracket scan finds the links and
// unparsed constructs the byte-by-byte scan found.
func TestScanLinksAsByByte(t *testing.T) {
	pieces := []string{"[", "]", "(", ")", "[a]", "(x.md)", "](", "<", ">", " ", "\"t\"", "'", "#h", "a.md", "x", "—", "[[", "]]"}
	r := rand.New(rand.NewPCG(9, 10))
	for range 100000 {
		var b strings.Builder
		for range r.IntN(14) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		line := b.String()
		links, unparsed := ScanLinks(line)
		wantLinks, wantUnparsed := scanLinksByByte(line)
		if !reflect.DeepEqual(links, wantLinks) || !reflect.DeepEqual(unparsed, wantUnparsed) {
			t.Fatalf("ScanLinks(%q) = %+v %q, byte by byte %+v %q", line, links, unparsed, wantLinks, wantUnparsed)
		}
	}
}

// TestTrimAsUnicode: TrimSpace and TrimRight trim what strings.TrimFunc
// with unicode.IsSpace trims, on random mixes of ASCII and Unicode
// whitespace, letters and invalid bytes.
func TestTrimAsUnicode(t *testing.T) {
	pieces := []string{" ", "\t", "\r", "\u0085", "\u00a0", "\u3000", "\u2029", "\u200b", "a", "한", "\xff", "\xe3\x80", "\x80"}
	r := rand.New(rand.NewPCG(13, 14))
	for range 100000 {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := TrimSpace(s), strings.TrimFunc(s, unicode.IsSpace); got != want {
			t.Fatalf("TrimSpace(%q) = %q, want %q", s, got, want)
		}
		if got, want := TrimRight(s), strings.TrimRightFunc(s, unicode.IsSpace); got != want {
			t.Fatalf("TrimRight(%q) = %q, want %q", s, got, want)
		}
	}
}
