package mdblocks

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestServeAndParse(t *testing.T) {
	Use(func(src []byte) ([]Block, error) {
		return []Block{{0, 4}, {10, 10}, {12, len(src)}}, nil
	})
	t.Cleanup(func() { Use(nil) })
	var out bytes.Buffer
	src := "<!--x-->\n\nabc<!-- tail -->\n"
	if err := Serve(strings.NewReader(src), &out); err != nil {
		t.Fatal(err)
	}
	if out.String() != "0 4\n10 10\n12 27\n" {
		t.Fatalf("Serve wrote %q", out.String())
	}
	got, err := parseBlocks(out.Bytes(), len(src))
	if err != nil || !slices.Equal(got, []Block{{0, 4}, {10, 10}, {12, 27}}) {
		t.Fatalf("parseBlocks = %v, %v", got, err)
	}
}

func TestParseBlocksRefuses(t *testing.T) {
	for _, out := range []string{"4 0\n", "0 4\n2 6\n", "0 99\n", "x y\n", "0\n", "-1 2\n", "0 4 5\n"} {
		if got, err := parseBlocks([]byte(out), 10); err == nil {
			t.Errorf("parseBlocks(%q) = %v, want an error", out, got)
		}
	}
}

func TestNoParser(t *testing.T) {
	Use(nil)
	if _, err := HTMLBlocks([]byte("<!-- x -->")); !errors.Is(err, ErrNoParser) {
		t.Fatalf("HTMLBlocks without a parser: %v", err)
	}
}

// FuzzParseBlocks: any answer is either refused or blocks that are
// ordered, non-overlapping and inside the document.
func FuzzParseBlocks(f *testing.F) {
	f.Add([]byte("0 4\n10 12\n"), 20)
	f.Add([]byte("3 2\n"), 5)
	f.Fuzz(func(t *testing.T, out []byte, n int) {
		blocks, err := parseBlocks(out, n)
		if err != nil {
			return
		}
		prev := 0
		for _, b := range blocks {
			if b.Start < prev || b.Stop < b.Start || b.Stop > n {
				t.Fatalf("parseBlocks(%q, %d) accepted %v", out, n, blocks)
			}
			prev = b.Stop
		}
	})
}
