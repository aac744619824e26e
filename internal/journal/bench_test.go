package journal

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// benchStore writes a store of n entries of size bytes each, with an index
// pointing at every one.
func benchStore(b *testing.B, n, size int) (store, data string) {
	b.Helper()
	dir := b.TempDir()
	if d := os.Getenv("MEMCOMPACT_BENCH_DIR"); d != "" {
		var err error
		if dir, err = os.MkdirTemp(d, "journal-bench-"); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { os.RemoveAll(dir) })
	}
	later(b) // the files were written before the snapshots, as in a real store
	store, data = filepath.Join(dir, "memory"), filepath.Join(dir, "data")
	os.MkdirAll(store, 0o755)
	var ix strings.Builder
	ix.WriteString("# Memory\n")
	body := strings.Repeat("A line of an entry that teaches something useful. ", size/50+1)[:size]
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("entry_%05d.md", i)
		fmt.Fprintf(&ix, "- [Entry %d](%s) — what entry %d teaches\n", i, name, i)
		os.WriteFile(filepath.Join(store, name), []byte(fmt.Sprintf("entry %d\n%s\n", i, body)), 0o644)
	}
	os.WriteFile(filepath.Join(store, IndexName), []byte(ix.String()), 0o644)
	settle()
	return store, data
}

var benchSizes = []struct {
	entries, size int
}{{10, 1000}, {1000, 1000}, {5000, 4000}}

// startedBackground reports whether a session start's notes say it
// started a background run (not that an earlier one finished or runs).
func startedBackground(notes []string) bool {
	all := strings.Join(notes, " ")
	return strings.Contains(all, "is journaling") || strings.Contains(all, "is recording this store's current state in the background")
}

// latestIn is the newest snapshot of store's journal under data.
func (*Journal) latestIn(data, store string) (*Manifest, error) {
	j, err := open(data, store)
	if err != nil {
		return nil, err
	}
	return j.latest()
}

func BenchmarkSnapshot(b *testing.B) {
	for _, sz := range benchSizes {
		// CI runs every benchmark once with -short so none can rot; the
		// 20 MB store takes most of a minute to snapshot on a loaded runner.
		if testing.Short() && sz.entries > 1000 {
			continue
		}
		name := fmt.Sprintf("entries=%d/bytes=%d", sz.entries, sz.entries*sz.size)
		b.Run("cold/"+name, func(b *testing.B) {
			store, data := benchStore(b, sz.entries, sz.size)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				os.RemoveAll(data)
				b.StartTimer()
				if _, err := Snapshot(context.Background(), SnapshotRequest{Store: store, DataDir: data, Cause: "bench"}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("unchanged/"+name, func(b *testing.B) {
			store, data := benchStore(b, sz.entries, sz.size)
			Snapshot(context.Background(), SnapshotRequest{Store: store, DataDir: data, Cause: "bench"})
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r, err := Snapshot(context.Background(), SnapshotRequest{Store: store, DataDir: data, Cause: "bench"})
				if err != nil || !r.Unchanged {
					b.Fatal(err, r)
				}
			}
		})
		b.Run("one-changed/"+name, func(b *testing.B) {
			store, data := benchStore(b, sz.entries, sz.size)
			Snapshot(context.Background(), SnapshotRequest{Store: store, DataDir: data, Cause: "bench"})
			p := filepath.Join(store, "entry_00000.md")
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				os.WriteFile(p, []byte(fmt.Sprintf("version %d\n", i)), 0o644)
				t := time.Now().Add(time.Duration(i) * time.Second)
				os.Chtimes(p, t, t)
				b.StartTimer()
				if r, err := Snapshot(context.Background(), SnapshotRequest{Store: store, DataDir: data, Cause: "bench"}); err != nil || r.Read != 1 {
					b.Fatal(err, r)
				}
			}
		})
	}
}

func BenchmarkHistory(b *testing.B) {
	for _, n := range []int{10, 1000} {
		b.Run(fmt.Sprintf("entries=%d/snapshots=20", n), func(b *testing.B) {
			store, data := benchStore(b, n, 1000)
			for k := 0; k < 20; k++ {
				p := filepath.Join(store, fmt.Sprintf("entry_%05d.md", k%n))
				os.WriteFile(p, []byte(fmt.Sprintf("version %d\n", k)), 0o644)
				t := time.Now().Add(time.Duration(k) * time.Second)
				os.Chtimes(p, t, t)
				Snapshot(context.Background(), SnapshotRequest{Store: store, DataDir: data, Cause: "bench"})
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				h, err := RunHistory(context.Background(), HistoryRequest{Store: store, DataDir: data})
				if err != nil || len(h.Steps) == 0 {
					b.Fatal(err)
				}
			}
		})
	}
}

// bigStores runs the 100,000-file store too (it takes minutes to make and
// journal): go test -run '^$' -bench JournalStores -journal.big.
var bigStores = flag.Bool("journal.big", false, "benchmark the 100,000-file store too")

// BenchmarkJournalStores measures a 5,000-entry store (and, with
// -journal.big, a 100,000-file one) as the hooks meet it: a first session
// start (within the hook's 3-second budget; what it cannot read, a
// background run finishes: hook-ms and background-ms), an unchanged
// session start, a snapshot of one changed file, history, and the
// journal's size after a consolidation and four undos (journal/store).
func BenchmarkJournalStores(b *testing.B) {
	stores := []struct{ entries, size int }{{5000, 1000}}
	if *bigStores {
		stores = append(stores, struct{ entries, size int }{100000, 300})
	}
	// What a session start leaves to the background, a child of this
	// test binary finishes.
	ended := inBackground(b, "background", "")
	for _, sz := range stores {
		name := fmt.Sprintf("files=%d", sz.entries)
		hook := func(store, data, session string) ([]string, error) {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			notes, err := SessionStart(ctx, HookRequest{Store: store, DataDir: data, Session: session, Secret: containsSecret, Background: true})
			if err != nil && strings.Contains(err.Error(), "the next snapshot continues") {
				// Out of time before any part could be committed (a
				// loaded machine): the hook notes it; the next goes on.
				return []string{"in parts (no part this time)"}, nil
			}
			return notes, err
		}
		b.Run(name+"/session-start-first", func(b *testing.B) {
			// The hook as the hooks run it: what it cannot read within
			// its budget a background run (a child of this test binary)
			// finishes. hook-ms is the first session start's own time,
			// background-ms the background run's, from the hook's return.
			store, data := benchStore(b, sz.entries, sz.size)
			var hookTime, bgTime time.Duration
			inBG := 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				os.RemoveAll(data)
				b.StartTimer()
				ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
				began := time.Now()
				notes, err := SessionStart(ctx, HookRequest{Store: store, DataDir: data, Session: "s", Secret: containsSecret, Background: true})
				cancel()
				returned := time.Now()
				hookTime = max(hookTime, returned.Sub(began))
				if err != nil {
					b.Fatal(err)
				}
				if startedBackground(notes) {
					inBG++
					if err := <-ended; err != nil {
						b.Fatalf("the background run: %v", err)
					}
					bgTime = max(bgTime, time.Since(returned))
				}
				if m, _ := (&Journal{}).latestIn(data, store); m == nil || m.Partial {
					b.Fatalf("the store is not journaled whole after the first session start and its background run")
				}
			}
			b.ReportMetric(float64(hookTime.Milliseconds()), "hook-ms")
			b.ReportMetric(float64(bgTime.Milliseconds()), "background-ms")
			b.ReportMetric(float64(inBG)/float64(b.N), "in-background")
		})
		// The journal as a few session starts leave it: whole (taken here
		// without a deadline, not in parts), then one session start.
		store, data := benchStore(b, sz.entries, sz.size)
		if _, err := Snapshot(context.Background(), SnapshotRequest{Store: store, DataDir: data, Cause: "session-start", Session: "w0", Secret: containsSecret}); err != nil {
			b.Fatal(err)
		}
		if notes, err := hook(store, data, "w1"); err != nil {
			b.Fatal(err)
		} else if startedBackground(notes) {
			<-ended
		}
		b.Run(name+"/session-start-unchanged", func(b *testing.B) {
			inBG := 0
			for i := 0; i < b.N; i++ {
				notes, err := hook(store, data, fmt.Sprint("u", i))
				if err != nil {
					b.Fatal(err)
				}
				if startedBackground(notes) {
					// The walk did not finish within the budget: the
					// background run, awaited off the clock, finishes it.
					inBG++
					b.StopTimer()
					<-ended
					b.StartTimer()
				}
			}
			b.ReportMetric(float64(inBG)/float64(b.N), "in-background")
		})
		b.Run(name+"/snapshot-one-changed", func(b *testing.B) {
			p := filepath.Join(store, "entry_00000.md")
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				os.WriteFile(p, []byte(fmt.Sprintf("version %d\n", i)), 0o644)
				t := time.Now().Add(-time.Hour + time.Duration(i)*time.Second)
				os.Chtimes(p, t, t)
				b.StartTimer()
				if _, err := Snapshot(context.Background(), SnapshotRequest{Store: store, DataDir: data, Cause: "bench"}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/history", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := RunHistory(context.Background(), HistoryRequest{Store: store, DataDir: data}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/size-after-consolidation-and-four-undos", func(b *testing.B) {
			if sz.entries > 5000 {
				// Each undo's writes rescan the store's folder for debris
				// (atomicfile), quadratic on 100,000 files: hours.
				b.Skip("measured on the 5,000-entry store only")
			}
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				st, dt := benchStore(b, sz.entries, sz.size)
				files := map[string]string{}
				ents, _ := os.ReadDir(st)
				for _, e := range ents {
					raw, _ := os.ReadFile(filepath.Join(st, e.Name()))
					files[e.Name()] = string(raw)
				}
				b.StartTimer()
				f := &fixture{t: b, store: st, data: dt, clk: newClock()}
				jb, sbytes := consolidationAndFourUndos(b, f, files)
				b.ReportMetric(float64(jb)/float64(sbytes), "journal/store")
				b.ReportMetric(float64(jb), "journal-bytes")
			}
		})
	}
}
