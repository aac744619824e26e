package drift

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/records"
)

// benchStore builds a store of n entry files: every fifth pointer dangles
// and every tenth entry is an orphan, so every path of Compute is taken.
func benchStore(b *testing.B, n int) string {
	dir := b.TempDir()
	var idx strings.Builder
	idx.WriteString("# Memory\n\n## Lessons\n")
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("reference_lesson_%05d.md", i)
		if i%10 != 0 {
			fmt.Fprintf(&idx, "- [lesson %d](%s) — what lesson %d teaches\n", i, name, i)
		}
		if i%5 != 1 {
			body := fmt.Sprintf("---\nmetadata:\n  node_type: memory\n  admitted: 2026-01-%02d\n---\nlesson %d\n", 1+i%28, i)
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(dir, IndexName), []byte(idx.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return dir
}

func benchCompute(b *testing.B, n int) {
	dir := benchStore(b, n)
	for b.Loop() {
		if _, err := Compute(dir, records.MaxDate); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCompute10(b *testing.B)   { benchCompute(b, 10) }
func BenchmarkCompute100(b *testing.B)  { benchCompute(b, 100) }
func BenchmarkCompute1000(b *testing.B) { benchCompute(b, 1000) }
