package sweep

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/memcompact/memcompact/internal/records"
)

// synthStore writes a store of n subjects: n-n/20 pointers (one per line),
// n/20 orphan entries, a ledger with an exit for every tenth subject and a
// slate with a critical row for every subject and a deferral for every
// fifth.
func synthStore(b *testing.B, n int) Paths {
	b.Helper()
	dir := b.TempDir()
	// MEMCOMPACT_BENCH_DIR puts the store elsewhere (a RAM disk, say), so
	// that the numbers measure the instrument rather than the disk.
	if base := os.Getenv("MEMCOMPACT_BENCH_DIR"); base != "" {
		d, err := os.MkdirTemp(base, "sweep-bench-")
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { os.RemoveAll(d) })
		dir = d
	}
	write := func(name string, fill func(w *bufio.Writer)) {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			b.Fatal(err)
		}
		w := bufio.NewWriter(f)
		fill(w)
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
	orphans := n / 20
	write("MEMORY.md", func(w *bufio.Writer) {
		fmt.Fprintln(w, "# Memory\n\n## Lessons")
		for i := 0; i < n-orphans; i++ {
			fmt.Fprintf(w, "- [lesson %d](entry_%06d.md) — what entry %d teaches, in a hook of ordinary length\n", i, i, i)
		}
	})
	for i := 0; i < n; i++ {
		write(fmt.Sprintf("entry_%06d.md", i), func(w *bufio.Writer) {
			fmt.Fprintf(w, "---\nname: entry-%d\nmetadata:\n  node_type: memory\n  admitted: 2026-0%d-1%d\n---\n\nbody %d\n", i, 1+i%9, i%10, i)
		})
	}
	life := func(i int) string { return fmt.Sprintf("entry_%06d@2026-0%d-1%d", i, 1+i%9, i%10) }
	write("LEDGER.md", func(w *bufio.Writer) {
		fmt.Fprintln(w, records.LedgerMarker)
		for i := 0; i < n; i += 10 {
			fmt.Fprintf(w, "2026-10-01 | executed | promote | %s | landed | guide\n", life(i))
		}
	})
	write("SLATE.md", func(w *bufio.Writer) {
		fmt.Fprintln(w, records.SlateMarker)
		for i := 0; i < n; i++ {
			fmt.Fprintf(w, "2026-10-01 | %s | critical | no | ordinary\n", life(i))
			if i%5 == 0 {
				fmt.Fprintf(w, "2026-10-01 | %s | deferral | 1 | until 2026-11-01 - later\n", life(i))
			}
		}
	})
	p, err := ResolvePaths(filepath.Join(dir, "MEMORY.md"), "", "", "")
	if err != nil {
		b.Fatal(err)
	}
	// Flush the new files before timing, so write-back of the store just
	// written is not charged to the instrument that reads it.
	syscall.Sync()
	return p
}

var asOfBench = records.Date{Y: 2026, M: 12, D: 2}

func benchInventory(b *testing.B, n int) {
	skipLargeInShort(b, n)
	p := synthStore(b, n)
	b.ResetTimer()
	for b.Loop() {
		inv, err := BuildInventory(p, asOfBench)
		if err != nil {
			b.Fatal(err)
		}
		if inv.Artifact.SubjectCount == 0 {
			b.Fatal("empty")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/subject")
}

func benchPartition(b *testing.B, n int) {
	skipLargeInShort(b, n)
	p := synthStore(b, n)
	inv, err := BuildInventory(p, asOfBench)
	if err != nil {
		b.Fatal(err)
	}
	data, _ := json.Marshal(inv.Artifact)
	b.ResetTimer()
	for b.Loop() {
		art, err := ParseArtifact("inventory.json", data)
		if err != nil {
			b.Fatal(err)
		}
		res, err := RunPartition(art, PartitionInput{Paths: p, AsOf: asOfBench, Strict: true})
		if err != nil {
			b.Fatal(err)
		}
		if res.Report.SubjectsChecked != inv.Artifact.SubjectCount {
			b.Fatalf("checked %d", res.Report.SubjectsChecked)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/subject")
}

func BenchmarkInventory10k(b *testing.B)  { benchInventory(b, 10_000) }
func BenchmarkInventory100k(b *testing.B) { benchInventory(b, 100_000) }
func BenchmarkPartition10k(b *testing.B)  { benchPartition(b, 10_000) }
func BenchmarkPartition100k(b *testing.B) { benchPartition(b, 100_000) }

// skipLargeInShort skips the 100k-subject stores under -short: CI runs
// every benchmark once with -short so none can rot, and building a store
// that size takes minutes on a loaded 2-core runner.
func skipLargeInShort(b *testing.B, n int) {
	if testing.Short() && n > 10_000 {
		b.Skipf("%d subjects: skipped with -short", n)
	}
}
