package compact

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/testshared"

	"github.com/memcompact/memcompact/internal/facts"
)

// TestRealStores runs the protocol (without writing) on every Markdown file
// of the real memory stores, named explicitly with a small newest tier: no
// panic, every outcome is a known one, and every compacted rewrite keeps
// every fact of the original file and is byte-identical after its block.
func TestRealStores(t *testing.T) {
	dir := testshared.RealStores(t)
	counts := map[string]int{}
	distilled, blocks := 0, 0 // lines of distilled entries, lines of the blocks
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
		o.Explicit = true
		pl := Prepare(context.Background(), o)
		counts[pl.Report.Status]++
		switch pl.Report.Status {
		case StatusCompacted:
			distilled += pl.Report.CompactedSize
			blocks += pl.Report.BlockSize
			text := strings.TrimPrefix(string(raw), "\uFEFF")
			if m := facts.Missing(facts.Extract(text), pl.NewText()); len(m) > 0 && !strings.Contains(text, "Compacted History") {
				t.Errorf("%s: the rewrite lost %v", p, m)
			}
		case StatusNothing, StatusRefused:
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
	t.Logf("outcomes: %v; %d lines of distilled entries became %d lines of blocks", counts, distilled, blocks)
}
