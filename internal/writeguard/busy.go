package writeguard

import (
	"context"
	"fmt"
	"time"

	"github.com/memcompact/memcompact/internal/lockfile"
)

// BusyWait is how long the guard waits for another memcompact run (a
// sweep, a compaction, an undo) to let go of the store's lock before it
// denies a write: most of them finish well inside it.
const BusyWait = 2 * time.Second

// checkBusy denies a write to a store another memcompact run is rewriting
// under the store's lock. The agent's write would race that run's
// read-check-replace: it would be refused by it or put aside beside the
// file, or be judged against an index about to change. The sweep's own
// writes never pass through the guard, so the guard and a sweep never
// interleave. It reports whether it denied.
func checkBusy(v *Verdict, storeDir string, wait time.Duration) bool {
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	who, busy := lockfile.Busy(ctx, storeDir)
	if !busy {
		return false
	}
	v.Problems = append(v.Problems, Problem{
		Code:    "busy",
		Message: fmt.Sprintf("another memcompact run is rewriting this memory store right now (%s), and this write would race it", who),
		Fix:     "Wait a moment for it to finish, then Read the file again and redo this write against its current text",
	})
	return true
}
