package sweepact

import (
	"context"
	"time"

	"github.com/memcompact/memcompact/internal/lockfile"
)

// lockStore takes the store's advisory lock for the sweep's duration, so two
// sweeps, or a sweep and an admission or the pre-write guard, never
// interleave a read-check-write. wait 0 is the lock's default wait. The
// refusal names the holder.
func lockStore(ctx context.Context, dir string, wait time.Duration) (func(), error) {
	if wait > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, wait)
		defer cancel()
	}
	release, err := lockfile.Lock(ctx, dir)
	if err != nil {
		return nil, err
	}
	return func() { release() }, nil
}
