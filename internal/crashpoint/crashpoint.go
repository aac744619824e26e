// Package crashpoint lets the torture tests kill memcompact at a named step
// of a write, the way a power cut or kill -9 would, to prove that every
// step leaves the files whole.
//
// It is compiled into every build but inert unless the environment variable
// MEMCOMPACT_TEST_CRASH_AT names a step: then the process sends itself
// SIGKILL when it reaches that step (on systems without SIGKILL it exits
// at once, skipping deferred functions). MEMCOMPACT_TEST_DELAY_MAX (a Go
// duration such as "2ms") adds a random pause at every step, so a racing
// test spreads its crashes and interleavings over the whole write.
package crashpoint

import (
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Env and DelayEnv are the variables the torture tests set.
const (
	Env      = "MEMCOMPACT_TEST_CRASH_AT"
	DelayEnv = "MEMCOMPACT_TEST_DELAY_MAX"
)

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
