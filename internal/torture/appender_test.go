package torture

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAppenderRacingCompact runs a shell appending whole entries with ">>"
// (open, one write, close: what an editor's or an agent's append does)
// while memcompact compact --yes runs in a loop on the same file. Every
// appended entry must be in the final file, verbatim or as its fact in the
// history block.
func TestAppenderRacingCompact(t *testing.T) {
	appends := count(80, 1500)
	// The history block keeps one line per compacted entry, so the budget
	// leaves room for all of them; the seed puts the file over it.
	budget := appends + 100
	root, file := newRoot(t, budget, budget/5+2)
	script := filepath.Join(root, "append.sh")
	write(t, script, fmt.Sprintf(`i=0
while [ $i -lt %d ]; do
  printf '\n## 2026-06-01 10:00 — Appended %%s\n- stored `+"`app-%%s`"+`\n- We talked about it for a while.\n- Nothing else came of it.\n' $i $i >> topics/t.md
  i=$((i+1))
  sleep 0.0$((i %% 9 + 1))
done
`, appends))
	t0 := time.Now()
	app := exec.Command("sh", script)
	app.Dir = root
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- app.Wait() }()
	codes, compacted := map[int]int{}, 0
	for running := true; running; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("appender: %v", err)
			}
			running = false
		default:
			r := mc(t, root, "", nil, "compact", "topics/t.md", "--yes")
			codes[r.code]++
			if r.code != 0 && codes[r.code] <= 2 {
				t.Logf("compact exit %d: %s%s", r.code, r.stdout, r.stderr)
			}
			if strings.Contains(r.stdout, "Compacted ") {
				compacted++
			}
		}
	}
	final := read(t, file)
	lost := 0
	for i := 0; i < appends; i++ {
		if !strings.Contains(final, fmt.Sprintf("`app-%d`", i)) {
			lost++
		}
	}
	snaps, _ := os.ReadDir(filepath.Join(root, "compaction", "snapshots"))
	t.Logf("FIGURE appender vs compact: %d appends during %d compact runs in %s (%d compacted, %d within budget, %d over budget or aborted, %d refused), %d snapshots, %d appends lost",
		appends, codes[0]+codes[1]+codes[2], since(t0), compacted, codes[0]-compacted, codes[1], codes[2], len(snaps), lost)
	if lost > 0 {
		t.Errorf("%d of %d appends lost", lost, appends)
	}
	if compacted == 0 {
		t.Error("no compact run compacted; the test proves nothing")
	}
}
