package check

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// syntheticIndex returns a legacy index carrying the test policy and n
// pointer lines of a real store's shape: one subject, a clause, ~110
// characters, an em dash.
func syntheticIndex(n int) string {
	var b strings.Builder
	b.WriteString(testHeader)
	b.WriteString("\n## Entries\n\n")
	for i := range n {
		fmt.Fprintf(&b, "- [lesson %d](reference_lesson_%d.md) — a stale read wins the race on attempt %d and the retry cap drops the write\n", i, i, i)
	}
	return b.String()
}

// BenchmarkCheck runs the whole check (read, parse, four axes) on
// synthetic indexes of growing size; time per op should grow linearly.
//
//	go test ./internal/check -run '^$' -bench BenchmarkCheck -benchmem
func BenchmarkCheck(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		dir := b.TempDir()
		path := filepath.Join(dir, "MEMORY.md")
		text := syntheticIndex(n)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
		opt := Options{IndexPath: path, Reference: Reference{Display: "ref", Data: []byte(testRef)}, Today: testToday}
		if r := Evaluate(opt); r.Result != Clean || r.SubjectsTotal != n {
			b.Fatalf("%d lines: %s, %d subjects", n, r.Result, r.SubjectsTotal)
		}
		b.Run(fmt.Sprintf("lines=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				Evaluate(opt)
			}
		})
	}
}
