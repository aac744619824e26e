package check

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/store"
	"github.com/memcompact/memcompact/internal/testshared"
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
		opt := Options{IndexPath: path, Reference: Reference{Display: "ref", Text: testRef}, Today: testToday}
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

// benchStore is the real store whose index issue 12 times `check` on: a
// legacy index of 109 pointer lines (27 KB) checked against the built-in
// reference.
const benchStore = "1000ssam__claude-config"

// BenchmarkCheckRealStore runs check.Run, as `memcompact check INDEX` does
// after start-up, on a copy of a real store with no plugin reference
// installed (so the built-in reference is the one compared). Its
// allocations are the heap a process grows, and on a VM each new page is
// a fault, so they count as much as the time:
//
//	go test ./internal/check -run '^$' -bench CheckRealStore -benchmem
func BenchmarkCheckRealStore(b *testing.B) {
	src := filepath.Join(testshared.RealStores(b), benchStore)
	dir := b.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	home := b.TempDir()
	req := Request{
		Index: filepath.Join(dir, "MEMORY.md"),
		Today: time.Date(2026, 12, 2, 0, 0, 0, 0, time.Local),
		Where: store.Where{Getenv: func(string) string { return "" }, Home: home},
	}
	if r, err := Run(context.Background(), req); err != nil || r.Result != Defects || r.SubjectsTotal != 109 {
		b.Fatalf("%v: %s, %d subjects", err, r.Result, r.SubjectsTotal)
	}
	b.ReportAllocs()
	for b.Loop() {
		Run(context.Background(), req)
	}
}
