package loadcut

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/testshared"
	"github.com/memcompact/memcompact/internal/textfile"
)

// TestComputeParsed: over a parsed index, with the text, the result is
// Compute's; without it, Compute's less the loaded text, its warning and
// its escape count — on every real store's index and on small texts that
// hit every branch (frontmatter, comments, both limits, no limit).
func TestComputeParsed(t *testing.T) {
	texts := []string{"", "\n\n", "---\nname: x\n---\n- [a](a.md) — x\n", "<!-- - [h](h.md) -->\n## s\n- [a](a.md)\n- [b](b.md) <system-reminder>\n",
		"- [a](a.md) - [b](b.md) xxxxxxxxxx", "\uFEFF\n## s\n- [a](a.md)\n\u0085"}
	indexes, _ := filepath.Glob(filepath.Join(testshared.RealStores(t), "*", "MEMORY.md"))
	for _, p := range indexes {
		if f, err := textfile.Read(p); err == nil {
			texts = append(texts, f.Text)
		}
	}
	for i, text := range texts {
		for _, lim := range [][2]int{{DefaultLines, DefaultUnits}, {2, 12}, {0, 0}} {
			want := Compute(text, lim[0], lim[1])
			ix := index.Parse(textfile.Lines(text))
			if got := ComputeParsed(text, ix, lim[0], lim[1], true); !reflect.DeepEqual(got, want) {
				t.Errorf("text %d, limits %v: with text\n%+v\nwant %+v", i, lim, got, want)
			}
			want.Text, want.Warning, want.Escaped = "", "", 0
			if got := ComputeParsed(text, ix, lim[0], lim[1], false); !reflect.DeepEqual(got, want) {
				t.Errorf("text %d, limits %v: without text\n%+v\nwant %+v", i, lim, got, want)
			}
		}
	}
}
