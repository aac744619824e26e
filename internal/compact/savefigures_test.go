package compact

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/summarize"
)

// TestConcurrentSaveFigures: saves that run at once into one budgeted file
// take turns, and each reports the figures the file had just after it:
// the save whose entry ends the file reports exactly the file's size, and
// every entry is in the file once.
func TestConcurrentSaveFigures(t *testing.T) {
	root := runRoot(t)
	path := filepath.Join(root, "topics", "tools.md")
	const n = 6
	results := make([]*SaveResult, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			entry := "## 2026-12-02 10:0" + itoa(i) + " — Concurrent " + itoa(i) + "\n- Fact number " + itoa(i) + " of the run.\n"
			res, err := Save(context.Background(), SaveRequest{Root: root, File: path, Entry: []byte(entry), EntryName: "the entry",
				Timeout: summarize.DefaultTimeout, Confirmed: true, Today: today, Now: now})
			if err != nil {
				t.Errorf("save %d: %v", i, err)
				return
			}
			results[i] = res
		}(i)
	}
	wg.Wait()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(got)
	for i := 0; i < n; i++ {
		if strings.Count(text, "— Concurrent "+itoa(i)+"\n") != 1 {
			t.Errorf("entry %d is in the file %d times", i, strings.Count(text, "— Concurrent "+itoa(i)+"\n"))
		}
	}
	for i, res := range results {
		if res == nil {
			continue
		}
		if strings.HasSuffix(strings.TrimRight(text, "\n"), "Fact number "+itoa(i)+" of the run.") {
			if want := budget.Measure(text, budget.Unit(res.Unit)); res.Size != want {
				t.Errorf("the last save reported %d %s; the file has %d", res.Size, res.Unit, want)
			}
		}
		if res.Size <= 0 {
			t.Errorf("save %d reported size %d", i, res.Size)
		}
	}
}
