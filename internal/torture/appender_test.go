package torture

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestAppenderRacingCompact races shell appenders against memcompact
// compact --yes on one file. Each round starts a compaction and, at a
// random moment within about twice the previous round's length, three
// shells that each append a whole entry with ">>" (open, one write, close: what an
// editor's or an agent's append does), so appends land in every phase of
// the compaction: before its read, during planning, around the rename, and
// after. Every appended entry must be in the final file, verbatim or as
// its fact in the history block.
func TestAppenderRacingCompact(t *testing.T) {
	appends := count(90, 1500)
	// The history block keeps one line per compacted entry, so the budget
	// leaves room for all of them; the seed puts the file over it.
	budget := appends + 100
	root, file := newRoot(t, budget, budget/5+2)
	t0 := time.Now()
	codes, compacted := map[int]int{}, 0
	last := 200 * time.Millisecond
	const perRound = 3
	for i := 0; i < appends; i += perRound {
		start := time.Now()
		var wg sync.WaitGroup
		for j := i; j < i+perRound && j < appends; j++ {
			wg.Add(1)
			go func(j int, delay time.Duration) {
				defer wg.Done()
				time.Sleep(delay)
				sh := fmt.Sprintf("printf '\\n## 2026-06-01 10:00 — Appended %d\\n- stored `app-%d`\\n- We talked about it for a while.\\n- Nothing else came of it.\\n' >> topics/t.md", j, j)
				app := exec.Command("sh", "-c", sh)
				app.Dir = root
				if out, err := app.CombinedOutput(); err != nil {
					t.Errorf("appender %d: %v %s", j, err, out)
				}
			}(j, time.Duration(rand.Int64N(int64(2*last))))
		}
		r := mc(t, root, "", nil, "compact", "topics/t.md", "--yes")
		// The compaction's own length, not the round's: the appenders'
		// delays must not feed back into the next round's.
		last = time.Since(start)
		wg.Wait()
		codes[r.code]++
		if strings.Contains(r.stdout, "Compacted ") {
			compacted++
		}
	}
	final := reachable(t, root, file)
	lost := 0
	for i := 0; i < appends; i++ {
		if !strings.Contains(final, fmt.Sprintf("`app-%d`", i)) {
			lost++
		}
	}
	ents, _ := os.ReadDir(filepath.Join(root, "compaction", "snapshots"))
	var snaps []os.DirEntry
	for _, e := range ents {
		// A catalogue lists earlier snapshots for the block; it is not one.
		if !strings.HasSuffix(e.Name(), "-catalogue.md") {
			snaps = append(snaps, e)
		}
	}
	rounds := (appends + perRound - 1) / perRound
	t.Logf("FIGURE appender vs compact: %d appends racing %d compact runs in %s (%d compacted, %d within budget, %d over budget or aborted, %d refused as changed), %d snapshots, %d appends lost",
		appends, rounds, since(t0), compacted, codes[0]-compacted, codes[1], codes[2], len(snaps), lost)
	if lost > 0 {
		t.Errorf("%d of %d appends lost", lost, appends)
	}
	if compacted == 0 {
		t.Error("no compact run compacted; the test proves nothing")
	}
	if len(snaps) != compacted {
		t.Errorf("%d snapshots for %d compactions: a refused compaction left one", len(snaps), compacted)
	}
}
