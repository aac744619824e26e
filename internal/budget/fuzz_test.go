package budget

import (
	"bytes"
	"testing"
)

// FuzzParse checks that parse never panics, that a parsed policy prints back
// byte for byte, and that Set changes only its row and re-parses.
func FuzzParse(f *testing.F) {
	f.Add([]byte(goodPolicy))
	f.Add([]byte(DefaultPolicy()))
	f.Add([]byte("| File | Budget | Newest |\r\n|-|-|-|\r\n| a | 1 line | 1 |"))
	f.Add([]byte("\uFEFF| File | Budget | Newest |\n|-|-|-|\n| a\\|b | 1 char each | last 1 |\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		p, err := parse("p.md", raw)
		if err != nil {
			return
		}
		if !bytes.Equal(p.Bytes(), raw) {
			t.Fatalf("Bytes differs from input")
		}
		for _, r := range p.Rows {
			ch, err := p.Set(r.Pattern, r.Budget+1, Chars, 3)
			if err != nil {
				t.Fatalf("Set(%q): %v", r.Pattern, err)
			}
			q, err := parse("p.md", ch.Data)
			if err != nil {
				t.Fatalf("after Set(%q): %v\n%q", r.Pattern, err, ch.Data)
			}
			got, ok := q.Row(r.Pattern)
			if !ok || got.Budget != r.Budget+1 || got.Unit != Chars || got.Newest != 3 {
				t.Fatalf("after Set(%q): row %+v", r.Pattern, got)
			}
		}
		if _, err := p.Set("fuzz/new.md", 7, Lines, -1); err != nil {
			t.Fatal(err)
		}
	})
}
