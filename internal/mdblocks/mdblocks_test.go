package mdblocks

import "testing"

func TestHTMLBlocks(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []string // each block's text
	}{
		{"<!-- a -->\n\n- [x](x.md) — y\n", []string{"<!-- a -->"}},
		{"# T\n\n<!-- a\nb -->\ntext\n", []string{"<!-- a\nb -->"}},
		{"- item\n  <!-- in a list -->\n", nil},
		{"```\n<!-- in code -->\n```\n", nil},
		{"para <!-- inline -->\n", nil},
		{"<div>\nx\n</div>\n\n<!-- c -->\n", []string{"<div>\nx\n</div>", "<!-- c -->"}},
		// A comment that opens and never closes runs to the end.
		{"- [a](a.md) — a\n<!-- open\n- [b](b.md) — b\n", []string{"<!-- open\n- [b](b.md) — b"}},
	} {
		blocks := HTMLBlocks([]byte(c.src))
		var got []string
		for _, b := range blocks {
			got = append(got, trimEOL(c.src[b.Start:b.Stop]))
		}
		if len(got) != len(c.want) {
			t.Errorf("%q: blocks %q, want %q", c.src, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%q: block %d is %q, want %q", c.src, i, got[i], c.want[i])
			}
		}
	}
}

func trimEOL(s string) string {
	for len(s) > 0 && (s[len(s)-1] == '\n' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s
}

// FuzzHTMLBlocks: goldmark's blocks of any text are ordered and inside it.
func FuzzHTMLBlocks(f *testing.F) {
	f.Add([]byte("<!-- a -->\n- x\n<!--\nb\n-->\n"))
	f.Add([]byte("<div>\n\n<!-- unclosed\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		blocks := HTMLBlocks(src)
		prev := 0
		for _, b := range blocks {
			if b.Start < prev || b.Stop < b.Start || b.Stop > len(src) {
				t.Fatalf("blocks %v out of order or bounds in %d bytes", blocks, len(src))
			}
			prev = b.Stop
		}
	})
}
