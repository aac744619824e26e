package compact

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// FuzzPrepare runs the protocol on arbitrary text: it must never panic, and
// whenever it decides to compact, the rewrite must have the properties of
// checkRewrite.
func FuzzPrepare(f *testing.F) {
	f.Add(diary(4, "\n"), 2)
	f.Add("# M\n## Compacted History\n*Distilled from 1 entry on x.*\n- `a`\n---\n- b 5 s\n- c\n- d\n", 1)
	f.Add("## a\r\n- x=1\r\n## b\r\n- y\r\n## Secrets\r\n- P_TOKEN=zz\r\n", 1)
	f.Fuzz(func(t *testing.T, text string, newest int) {
		if newest < 0 || newest > 50 {
			return
		}
		root := t.TempDir()
		p := filepath.Join(root, "m.md")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		o := opts(root, "m.md", 1<<20, newest)
		o.Explicit = true
		pl := Prepare(context.Background(), o)
		if pl.Report.Status != StatusCompacted {
			return
		}
		checkRewrite(t, "fuzz", text, pl.NewText(), root, pl.snapRel(), mustKeepOf(pl))
	})
}
