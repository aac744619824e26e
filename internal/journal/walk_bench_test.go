package journal

import (
	"context"
	"os"
	"testing"

	"github.com/memcompact/memcompact/internal/filecache"
)

// BenchmarkWalkStore: the snapshot's walk of the store named by
// MEMCOMPACT_BENCH_STORE (a large store kept between runs: making
// 100,000 files takes longer than walking them).
func BenchmarkWalkStore(b *testing.B) {
	store := os.Getenv("MEMCOMPACT_BENCH_STORE")
	if store == "" {
		b.Skip("MEMCOMPACT_BENCH_STORE names no store")
	}
	for i := 0; i < b.N; i++ {
		files, err := walkStore(context.Background(), store, filecache.NewStats())
		if err != nil || len(files) == 0 {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(files)), "files")
	}
}
