package loadcut

import (
	"path/filepath"
	"testing"

	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/testshared"
	"github.com/memcompact/memcompact/internal/textfile"
)

// BenchmarkComputeRealIndex is the load cut of the largest real index
// (78 KB, cut by the unit limit), as doctor and the session-start hook
// compute it (with the loaded text) and as the pre-write guard does
// (over its own parse, without the text).
func BenchmarkComputeRealIndex(b *testing.B) {
	f, err := textfile.Read(filepath.Join(testshared.RealStores(b), "Warrenpoobear__claude-memory", "MEMORY.md"))
	if err != nil {
		b.Fatal(err)
	}
	ix := index.Parse(textfile.Lines(f.Text))
	b.Run("with-text", func(b *testing.B) {
		for b.Loop() {
			ComputeParsed(f.Text, ix, DefaultLines, DefaultUnits, true)
		}
	})
	b.Run("guard", func(b *testing.B) {
		for b.Loop() {
			ComputeParsed(f.Text, ix, DefaultLines, DefaultUnits, false)
		}
	})
}
