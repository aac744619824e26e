package doctor

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkSessionStart measures what "memcompact hook session-start" does
// on every session (a quick diagnosis and the note) on stores of growing
// size, each pointer with its entry file, in the case the hook is tuned
// for: nothing changed since the last session. The store is laid out,
// left to settle past the result cache's racy window (a file changed
// within it is never trusted on its stamp, so a store written a moment
// ago is re-read every time), and diagnosed once before the timer starts.
func BenchmarkSessionStart(b *testing.B) { benchSessionStart(b, true) }

// BenchmarkSessionStartFresh is BenchmarkSessionStart on a store written
// just before, as a test or a run right after a save sees it: every file
// is within the racy window, so every one is read and the sweep figure is
// planned afresh on each run.
func BenchmarkSessionStartFresh(b *testing.B) { benchSessionStart(b, false) }

// settleWait outlasts filecache's racy window (2s).
const settleWait = 2100 * time.Millisecond

func benchSessionStart(b *testing.B, warm bool) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprintf("pointers=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			var ix strings.Builder
			ix.WriteString("# Memory\n\n## Feedback\n")
			for i := 1; i <= n; i++ {
				fmt.Fprintf(&ix, "- [Lesson %d](feedback_l%d.md) — what lesson %d teaches about retries\n", i, i, i)
				if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("feedback_l%d.md", i)), []byte("---\nname: l\n---\nRetry three times, then back off.\n"), 0o644); err != nil {
					b.Fatal(err)
				}
			}
			index := filepath.Join(dir, "MEMORY.md")
			if err := os.WriteFile(index, []byte(ix.String()), 0o644); err != nil {
				b.Fatal(err)
			}
			opt := Options{Index: index, Today: time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC), Quick: true}
			if warm {
				time.Sleep(settleWait)
				_ = SessionNote(Diagnose(opt))
			}
			b.ResetTimer()
			for b.Loop() {
				_ = SessionNote(Diagnose(opt))
			}
		})
	}
}
