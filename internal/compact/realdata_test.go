package compact

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/testshared"
)

// TestRealStores compacts every Markdown file of the real memory stores to
// half its size, with a small newest tier, and writes it: no panic, every
// outcome a known one, and every rewrite has the properties of
// checkRewrite, the snapshots on disk included.
func TestRealStores(t *testing.T) {
	dir := testshared.RealStores(t)
	counts := map[string]int{}
	distilled, blocks := 0, 0 // chars of distilled entries, chars of the blocks
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		root := t.TempDir()
		if err := os.WriteFile(filepath.Join(root, "m.md"), raw, 0o644); err != nil {
			return err
		}
		o := opts(root, "m.md", 1<<20, 3)
		o.Row.Unit = budget.Chars
		o.Row.Budget = max(1, budget.Measure(string(raw), budget.Chars)*7/10)
		o.Explicit, o.noSuggest = true, true
		pl := Prepare(context.Background(), o)
		counts[pl.Report.Status]++
		switch pl.Report.Status {
		case StatusCompacted:
			distilled += pl.Report.CompactedSize
			blocks += pl.Report.BlockSize
			if err := pl.Write(); err != nil {
				t.Errorf("%s: %v", p, err)
				return nil
			}
			got, _ := os.ReadFile(filepath.Join(root, "m.md"))
			checkRewrite(t, p, string(raw), string(got), root, "", mustKeepOf(pl))
		case StatusNothing, StatusRefused, StatusShortfall:
		default:
			t.Errorf("%s: unexpected outcome %s: %s", p, pl.Report.Status, pl.Report.Message)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if counts[StatusCompacted] == 0 {
		t.Errorf("no real file was compacted: %v", counts)
	}
	t.Logf("outcomes: %v; %d chars of distilled entries became %d chars of blocks", counts, distilled, blocks)
}
