//go:build memcompact_crashpoints

package crashpoint

import (
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Enabled reports whether this build has the crash points (the
// memcompact_crashpoints tag).
const Enabled = true

// asked reads what the torture tests asked for, once, at the first step
// (not before main: every run of every executable links this package).
var asked = sync.OnceValues(func() (crashAt string, maxDelay time.Duration) {
	maxDelay, _ = time.ParseDuration(os.Getenv(DelayEnv))
	return os.Getenv(Env), maxDelay
})

// At marks the named step. It does nothing unless a torture test asked
// to stop or pause there. "step#N" in Env stops at the N-th arrival at
// step, so a test can reach a step that a write passes many times (every
// append is a replace) at each of its arrivals in turn.
func At(step string) {
	crashAt, maxDelay := asked()
	if maxDelay > 0 {
		time.Sleep(rand.N(maxDelay))
	}
	if crashAt == "" {
		return
	}
	if crashAt == step {
		kill()
	}
	if name, n, ok := strings.Cut(crashAt, "#"); ok && name == step {
		mu.Lock()
		arrivals++
		hit := strconv.Itoa(arrivals) == n
		mu.Unlock()
		if hit {
			kill()
		}
	}
}

var (
	mu       sync.Mutex
	arrivals int
)
