package torture

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestConcurrentCompactingSaves runs 8 memcompact save processes at once on
// one over-budget diary, each saving its own entries. Every save that exits
// 0 must have its entry in the final file (verbatim, or its fact in the
// history block); a save that exits non-zero said so.
func TestConcurrentCompactingSaves(t *testing.T) {
	const procs = 8
	per := count(4, 25)
	// Room in the budget for the history block's line per entry; the seed
	// puts the file just over it, so saves compact as they go.
	budget := procs*per + 60
	root, file := newRoot(t, budget, budget/5+2)
	t0 := time.Now()
	type ack struct {
		tok       string
		code      int
		compacted bool
	}
	acks := make(chan ack, procs*per)
	var wg sync.WaitGroup
	for p := 0; p < procs; p++ {
		wg.Add(1)
		go func(p int) {
			defer wg.Done()
			for i := 0; i < per; i++ {
				tok := fmt.Sprintf("tok-%d-%d", p, i)
				r := mc(t, root, entry(p*per+i, tok), nil, "save", "topics/t.md", "--yes")
				acks <- ack{tok, r.code, strings.Contains(r.stdout, "Compacted ")}
			}
		}(p)
	}
	wg.Wait()
	close(acks)
	final := reachable(t, root, file)
	codes := map[int]int{}
	lost, compactions := 0, 0
	for a := range acks {
		codes[a.code]++
		if a.compacted {
			compactions++
		}
		if a.code == 0 && !strings.Contains(final, "`"+a.tok+"`") {
			lost++
			t.Errorf("save of %s exited 0 but the entry is neither in the file nor in a snapshot it names", a.tok)
		}
	}
	t.Logf("FIGURE concurrent saves: %d processes × %d saves in %s: %d saved (exit 0; %d of them compacting first), %d not saved (exit 1), %d refused (exit 2), %d lost",
		procs, per, since(t0), codes[0], compactions, codes[1], codes[2], lost)
	if codes[0] == 0 || compactions == 0 {
		t.Error("no save succeeded, or none compacted; the test proves nothing")
	}
	if left := scratch(t, filepath.Join(root, "topics")); len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}
