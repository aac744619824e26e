package journal

import (
	"sync/atomic"
	"testing"
)

func TestEach(t *testing.T) {
	for _, c := range []struct{ workers, n int }{{4, 0}, {4, 1}, {1, 100}, {8, 1000}, {16, 3}} {
		seen := make([]atomic.Int32, c.n)
		each(c.workers, c.n, func(k int) bool { seen[k].Add(1); return true })
		for k := range seen {
			if got := seen[k].Load(); got != 1 {
				t.Errorf("workers %d, n %d: k %d done %d times, want once", c.workers, c.n, k, got)
			}
		}
	}
	// A false stops every worker: at most one more k each after it.
	var done atomic.Int32
	each(4, 100000, func(k int) bool { done.Add(1); return k != 10 })
	if got := done.Load(); got > 100 {
		t.Errorf("%d calls after a stop at k=10, want it to stop the workers", got)
	}
}
