package index

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/memcompact/memcompact/internal/textfile"
)

func TestPatterns(t *testing.T) {
	headings := map[string]bool{"## x": true, "##\tx": true, "##\u00a0x": true, "### x": false, "##x": false, " ## x": false, "##": false}
	for in, want := range headings {
		if got := IsHeading(in); got != want {
			t.Errorf("IsHeading(%q) = %v", in, got)
		}
	}
	pointers := map[string]bool{
		"- x": true, "* x": true, "+ x": true, "  - x": true, "\t1. x": true, "12) x": true,
		"１. x": true, "-[x](a.md)": false, "-": false, "1.x": false, "a. x": false, "-\u3000x": true,
	}
	for in, want := range pointers {
		if got := IsPointerPattern(in); got != want {
			t.Errorf("IsPointerPattern(%q) = %v", in, got)
		}
	}
	if n := BulletLen("  12) [x](a.md)"); n != 6 {
		t.Errorf("BulletLen = %d, want 6", n)
	}
}

func TestScanLinks(t *testing.T) {
	tests := []struct {
		name     string
		line     string
		links    []Link
		unparsed []string
	}{
		{"plain", "- [a](x.md) — hook", []Link{{Text: "a", Target: "x.md", Dest: "x.md", Start: 2, End: 11, Subject: true}}, nil},
		{"anchor, title, upper case", `- [a](<x y.MD#part> "t") z`, []Link{{Text: "a", Target: "x y.MD", Dest: "x y.MD", Start: 2, End: 24, Subject: true}}, nil},
		{"single-quoted and parenthesized titles", `- [a](x.md 't') [b](y.md (t))`, []Link{{Text: "a", Target: "x.md", Dest: "x.md", Start: 2, End: 15, Subject: true}, {Text: "b", Target: "y.md", Dest: "y.md", Start: 16, End: 29, Subject: true}}, nil},
		{"url is not a subject", "- [site](https://e.com/a) and [b](b.md)", []Link{{Text: "site", Target: "https://e.com/a", Dest: "https://e.com/a", Start: 2, End: 25}, {Text: "b", Target: "b.md", Dest: "b.md", Start: 30, End: 39, Subject: true}}, nil},
		{"brackets in text", "- [a [ref] b](x.md)", []Link{{Text: "a [ref] b", Target: "x.md", Dest: "x.md", Start: 2, End: 19, Subject: true}}, nil},
		{"unclosed bracket", "- [a](x.md) [", []Link{{Text: "a", Target: "x.md", Dest: "x.md", Start: 2, End: 11, Subject: true}}, nil},
		{"space in target", "- [a](x y.md)", nil, []string{"](x y.md)"}},
		{"empty target", "- [a]() b", nil, []string{"]() b"}},
		{"nested", "- [o [i](i.md) t](o.md)", []Link{{Text: "o [i](i.md) t", Target: "o.md", Dest: "o.md", Start: 2, End: 23, Subject: true}, {Text: "i", Target: "i.md", Dest: "i.md", Start: 5, End: 14, Subject: true}},
			[]string{"nested or overlapping links: [o [i](i.md) t](o.md)"}},
		{"snippet is 40 units", "- [a](" + strings.Repeat("x ", 30) + ")", nil, []string{"](" + strings.Repeat("x ", 19)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			links, unparsed := ScanLinks(tc.line)
			if !reflect.DeepEqual(links, tc.links) {
				t.Errorf("links\n got %+v\nwant %+v", links, tc.links)
			}
			if !reflect.DeepEqual(unparsed, tc.unparsed) {
				t.Errorf("unparsed %q, want %q", unparsed, tc.unparsed)
			}
		})
	}
}

func TestSnippet(t *testing.T) {
	if got := Snippet("ab😀cd", 3); got != "ab\uFFFD" {
		t.Errorf("cut inside a pair = %q", got)
	}
	if got := Snippet("ab😀cd", 4); got != "ab😀" {
		t.Errorf("cut after a pair = %q", got)
	}
	if got := Snippet("—x", 1); got != "—" {
		t.Errorf("em dash = %q", got)
	}
}

func TestParse(t *testing.T) {
	ix := Parse(textfile.Lines("# t\n- [h](h.md) early\n## A\n- plain\n* [b](https://x) url\n1. [c](c.md) c\n"))
	if ix.FirstHeading != 2 || ix.FirstPointer != 1 {
		t.Errorf("first heading %d pointer %d", ix.FirstHeading, ix.FirstPointer)
	}
	var ptr []int
	for _, l := range ix.Lines {
		if l.IsPointerLine() {
			ptr = append(ptr, l.Num)
		}
	}
	if !reflect.DeepEqual(ptr, []int{2, 6}) {
		t.Errorf("pointer lines %v", ptr)
	}
	if s := ix.Lines[5].Subjects(); len(s) != 1 || s[0].Target != "c.md" {
		t.Errorf("subjects %+v", s)
	}
}

// FuzzParse checks that the index parser is total and that its links
// point inside their line, in order.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"# t\n\n## A\n- [a](reference_a.md) — hook\n",
		"- [o [i](i.md) t](o.md)\n* [x](<y z.md#a> \"t\")\n1) [u](http://x)",
		"- [a](x y.md)\r\n- [😀](😀.md) 😀\r",
		"\ufeff- []()\n- [[[]]](a.md)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ix := Parse(textfile.Lines(s))
		for _, l := range ix.Lines {
			prev := -1
			for _, k := range l.Links {
				if k.Start < 0 || k.End > len(l.Text) || k.Start >= k.End || k.Start < prev {
					t.Fatalf("bad link %+v in %q", k, l.Text)
				}
				prev = k.Start
			}
		}
		for _, u := range ix.Unparsed {
			if utf8.ValidString(s) && !utf8.ValidString(u.Snippet) {
				t.Fatalf("snippet %q is not valid UTF-8", u.Snippet)
			}
		}
	})
}

// FuzzScanLinks checks the link scanner alone on arbitrary lines.
func FuzzScanLinks(f *testing.F) {
	for _, s := range []string{"- [a](x.md) — h", "[a](<b>)", "](", "[[]](()", "- [a](b 'c') [d](e (f))"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		links, unparsed := ScanLinks(line)
		for _, k := range links {
			if line[k.Start] != '[' || line[k.End-1] != ')' {
				t.Fatalf("link %+v does not span [..)", k)
			}
			if strings.ContainsAny(k.Target, "#") {
				t.Fatalf("target %q keeps its anchor", k.Target)
			}
		}
		for _, u := range unparsed {
			if textfile.Units(u) > 40+len("nested or overlapping links: ") {
				t.Fatalf("snippet too long: %q", u)
			}
		}
	})
}
