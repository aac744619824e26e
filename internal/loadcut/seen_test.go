package loadcut

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/textfile"
)

// TestSeen pins what Claude Code makes of an index before it counts:
// frontmatter and block comments removed, the cut, the warning, and the
// final clean-up, each case as the text the session receives.
func TestSeen(t *testing.T) {
	cases := []struct {
		name, in string
		want     string // Result.Text
		hidden   []string
		by       string
	}{
		{"plain", "# M\n- [a](a.md) — x\n", "# M\n- [a](a.md) — x", nil, ""},
		{"frontmatter", "---\nname: index\n---\n# M\n- [a](a.md)\n", "# M\n- [a](a.md)", nil, ""},
		{"leading rule swallows to the next ---", "---\n- [a](a.md)\n- [b](b.md)\n---\n- [c](c.md)\n", "- [c](c.md)", []string{"a.md", "b.md"}, HiddenByFrontmatter},
		{"closing --- need not start a line", "---\n- [a](a.md)\n| x |---|\n- [c](c.md)\n", "|\n- [c](c.md)", []string{"a.md"}, HiddenByFrontmatter},
		{"no closing --- keeps everything", "---\n- [a](a.md)\n", "---\n- [a](a.md)", nil, ""},
		{"---- is not an opener", "----\n- [a](a.md)\n---\n", "----\n- [a](a.md)\n---", nil, ""},
		{"text after --- on line 1 is not an opener", "--- x\n- [a](a.md)\n---\n", "--- x\n- [a](a.md)\n---", nil, ""},
		{"block comment", "# M\n<!-- note -->\n\n- [a](a.md)\n", "# M\n- [a](a.md)", nil, ""},
		{"commented-out pointer", "# M\n<!--\n- [a](a.md)\n-->\n- [b](b.md)\n", "# M\n- [b](b.md)", []string{"a.md"}, HiddenByComment},
		{"inline comment stays", "# M\n- [a](a.md) <!-- x -->\n", "# M\n- [a](a.md) <!-- x -->", nil, ""},
		{"comment inside a list item stays", "- [a](a.md)\n  <!-- x -->\n", "- [a](a.md)\n  <!-- x -->", nil, ""},
		{"text after the comment on its line stays", "<!-- x --> tail\n- [a](a.md)\n", "tail\n- [a](a.md)", nil, ""},
		{"comment in a code fence stays", "```\n<!-- x -->\n```\n", "```\n<!-- x -->\n```", nil, ""},
		{"unclosed comment stays", "# M\n<!-- x\n- [a](a.md)\n", "# M\n<!-- x\n- [a](a.md)", nil, ""},
		{"CRLF kept without comments, cleaned at the end", "# M\r\n- [a](a.md)\r\n", "# M\n- [a](a.md)", nil, ""},
		{"control and format characters go", "# M\u200b\x07\n- [a](a.md)\u2028x\u200d\n", "# M\n- [a](a.md)\nx\u200d", nil, ""},
		{"BOM", "\uFEFF# M\n", "# M", nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Compute(c.in, DefaultLines, DefaultUnits)
			if r.Text != c.want {
				t.Errorf("text %q, want %q", r.Text, c.want)
			}
			var hidden []string
			for _, s := range r.Hidden {
				hidden = append(hidden, s.Target)
				if s.By != c.by {
					t.Errorf("%s hidden by %q, want %q", s.Target, s.By, c.by)
				}
			}
			if strings.Join(hidden, ",") != strings.Join(c.hidden, ",") {
				t.Errorf("hidden %v, want %v", hidden, c.hidden)
			}
			if r.Lost() != (c.by == HiddenByFrontmatter) {
				t.Errorf("Lost() = %v", r.Lost())
			}
		})
	}
}

// TestSeenCounts: what Claude Code counts is the text left, so a
// frontmatter block plus 199 lines is not cut, and the file's own counts
// are reported beside it.
func TestSeenCounts(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\nname: memory\ndescription: index\n---\n")
	for i := range 200 {
		b.WriteString("- [e](e" + strings.Repeat("x", i%3) + ".md)\n")
	}
	r := Compute(b.String(), DefaultLines, DefaultUnits)
	if r.Cut || r.LinesTotal != 200 || r.FileLines != 204 || r.FrontmatterLines != 4 {
		t.Errorf("cut %v, lines %d of file %d, frontmatter %d", r.Cut, r.LinesTotal, r.FileLines, r.FrontmatterLines)
	}
}

// TestTooLarge: over 4 MiB, nothing loads and every subject is lost.
func TestTooLarge(t *testing.T) {
	text := "- [a](a.md)\n" + strings.Repeat("x", 10)
	if r := ComputeSized(text, MaxBytes, 200, 25000); r.Cut {
		t.Errorf("exactly 4 MiB is cut: %+v", r)
	}
	r := ComputeSized(text, MaxBytes+1, 200, 25000)
	if !r.Cut || !r.TooLarge || r.Limit != LimitSize || len(r.PastCut) != 1 || r.Text != "" || r.LinesLoaded != 0 {
		t.Errorf("over 4 MiB: %+v", r)
	}
}

// TestWarning pins the line appended to a cut index in its three forms.
func TestWarning(t *testing.T) {
	lines := strings.Repeat("- [a](a.md) — short\n", 201)
	r := Compute(lines, DefaultLines, DefaultUnits)
	want := `> WARNING: MEMORY.md is 201 lines (limit: 200). Only part of it was loaded: 1 of 201 lines were cut off, starting at line 201 ("- [a](a.md) — short"). Keep index entries to one line under ~200 chars; move detail into topic files.`
	if r.Warning != want || !strings.HasSuffix(r.Text, "\n\n"+want) {
		t.Errorf("warning %q", r.Warning)
	}
	long := strings.Repeat("y", 30000)
	r = Compute(long, DefaultLines, DefaultUnits)
	want = `> WARNING: MEMORY.md is 29.3KB (limit: 24.4KB) — index entries are too long. Only part of it was loaded: everything after the first 25000 characters of line 1 was cut off. Keep index entries to one line under ~200 chars; move detail into topic files.`
	if r.Warning != want {
		t.Errorf("warning %q", r.Warning)
	}
	both := strings.Repeat(strings.Repeat("z", 150)+"\n", 250)
	r = Compute(both, DefaultLines, DefaultUnits)
	if !strings.HasPrefix(r.Warning, "> WARNING: MEMORY.md is 250 lines and 36.9KB. Only part of it was loaded: 85 of 250 lines were cut off, starting at line 166 (\"zzz") {
		t.Errorf("warning %q", r.Warning)
	}
	if got := shorten(strings.Repeat("word ", 40), 80); got != strings.TrimSpace(strings.Repeat("word ", 15))+"…" {
		t.Errorf("shorten: %q", got)
	}
}

// TestRemovedASCIIShortcut: the printable-ASCII shortcut in removed gives
// the same answer as the full rule for every ASCII character, and keeps
// the tab and the newline while dropping the other controls and DEL.
func TestRemovedASCIIShortcut(t *testing.T) {
	for r := rune(0); r < 0x80; r++ {
		if got, want := removed(r), removedSlow(r); got != want {
			t.Errorf("removed(%U) = %v, the full rule says %v", r, got, want)
		}
	}
	for r, want := range map[rune]bool{'a': false, ' ': false, '~': false, '\t': false, '\n': false, 0x00: true, 0x1B: true, 0x7F: true} {
		if got := removed(r); got != want {
			t.Errorf("removed(%U) = %v, want %v", r, got, want)
		}
	}
}

// TestRunRefusesNonPositiveLimits: the CLI and the MCP tool both pass the
// limits they were given to Run (the MCP tool keeps an explicit 0 apart
// from "not given"), and Run refuses any below 1 as a usage error.
func TestRunRefusesNonPositiveLimits(t *testing.T) {
	for _, c := range []struct{ lines, units int }{{0, 25000}, {200, 0}, {-1, 25000}, {200, -5}} {
		_, err := Run(context.Background(), Request{Index: "unused.md", Lines: c.lines, Units: c.units})
		var e *outcome.Error
		if !errors.As(err, &e) || e.Status != outcome.Usage || e.Reason != ReasonBadLimits {
			t.Errorf("lines %d units %d: %v", c.lines, c.units, err)
		}
	}
}

// unitCutRunes is unitCut as it was, one character at a time: the oracle
// of the eight-bytes-at-once version.
func unitCutRunes(s string, units int) int {
	cut, hard, u := -1, len(s), 0
	for i, r := range s {
		if u > units {
			break
		}
		if r == '\n' && u > 0 {
			cut = i
		}
		w := textfile.UnitsOfRune(r)
		if u+w > units && hard == len(s) {
			hard = i
		}
		u += w
	}
	if cut > 0 {
		return cut
	}
	return hard
}

// TestUnitCutChunks: unitCut, which takes ASCII eight bytes at a time,
// cuts where looking at one character at a time cuts, for texts of ASCII,
// line breaks, em dashes, emoji and invalid bytes, at every limit up to
// past their length.
func TestUnitCutChunks(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	pieces := []string{"a", "b c", "\n", "\n\n", "—", "😀", "\xff", "\r\n", "0123456789abcdef"}
	for range 400 {
		var b strings.Builder
		for n := r.IntN(30); n > 0; n-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		checkUnitCut(t, b.String())
	}
	checkUnitCut(t, "\n0123456789abcdef\n")
}

func checkUnitCut(t *testing.T, s string) {
	t.Helper()
	for units := 0; units <= len(s)+2; units++ {
		if got, want := unitCut(s, units), unitCutRunes(s, units); got != want {
			t.Fatalf("unitCut(%q, %d) = %d, one character at a time %d", s, units, got, want)
		}
	}
}

func FuzzUnitCut(f *testing.F) {
	f.Add("\n0123456789abcdef\n—x\n😀")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 300 {
			return
		}
		checkUnitCut(t, s)
	})
}

// checkIdentityView holds the load cut of a text computed without a view
// (no frontmatter, no comment: the text is its own view) to the same cut
// computed through a view, as every text was before.
func checkIdentityView(t *testing.T, text string, lines, units int) {
	t.Helper()
	fast := Compute(text, lines, units)
	rewrites = func(string) bool { return true }
	defer func() { rewrites = mayRewrite }()
	slow := Compute(text, lines, units)
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("%q (%d lines, %d units): without a view %+v, through one %+v", text, lines, units, fast, slow)
	}
}

func TestIdentityView(t *testing.T) {
	for _, c := range []struct {
		text         string
		lines, units int
	}{
		{"## s\n- [a](a.md) — x\n- [b](b.md) — y\n", 2, 20},
		{"## s\n- [a](a.md) — x\n- [b](b.md) — y\n", 200, 25000},
		{"\uFEFF  \r\n## s\r\n- [🚀](a.md)\r- [b](b.md)\n\n", 1, 7},
		{"- [a](a.md)\n\n\n- [b](b.md)\n", 2, 0},
		{"text\n- [a](a.md) xxxxxxxxxxxxxxxxxx\n- [b](b.md)", 0, 15},
		{"", 1, 1},
		{"- [a](a.md)\n- [b](b.md)", 0, 10}, // the cut falls on the link's last byte
		{"- [a](a.md)\n- [b](b.md)", 0, 11},
		{"---\n- [a](a.md)\n", 1, 5},
		{"x <!-- y --> z\n- [a](a.md)\n", 1, 3},
	} {
		checkIdentityView(t, c.text, c.lines, c.units)
	}
}

func FuzzIdentityView(f *testing.F) {
	f.Add("## s\n- [a](a.md) — x\n- [b](b.md) — y\n", 2, 20)
	f.Add("\uFEFF  \r\n## s\r\n- [🚀](a.md)\r- [b](b.md)\n\n", 1, 7)
	f.Fuzz(func(t *testing.T, text string, lines, units int) {
		checkIdentityView(t, text, lines%300, units%400)
	})
}
