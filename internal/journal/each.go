package journal

import (
	"sync"
	"sync/atomic"
)

// each calls do(k) for every k in [0, n) on at most workers goroutines,
// each taking the next k not yet taken, so a slow file holds up one
// worker, not a fixed share of the work. do returns false to stop every
// worker: an error, or a context the caller found done.
func each(workers, n int, do func(k int) bool) {
	var (
		next atomic.Int64
		wg   sync.WaitGroup
	)
	for range min(workers, n) {
		wg.Go(func() {
			for k := int(next.Add(1) - 1); k < n; k = int(next.Add(1) - 1) {
				if !do(k) {
					next.Store(int64(n))
					return
				}
			}
		})
	}
	wg.Wait()
}
