// Command memcompact keeps an AI agent's file-based memory small without
// making it forget. Run "memcompact help" for its verbs.
package main

import (
	"os"
	"runtime/debug"

	"github.com/memcompact/memcompact/internal/cli"
)

func main() {
	if collectLate(os.Args[1:], os.Getenv) {
		debug.SetGCPercent(-1)
		debug.SetMemoryLimit(hookMemoryLimit)
	}
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// hookMemoryLimit is the heap a hook grows before the garbage collector
// runs at all.
const hookMemoryLimit = 256 << 20

// collectLate reports whether this run is a hook, which should not collect
// garbage until its heap nears hookMemoryLimit: a hook is a short process
// on every session start and every write whose heap stays a few megabytes
// on real stores, so collecting during it is work thrown away at exit (a
// fifth of a pre-write's instructions on the largest real store). The
// limit brings the collector back for a hook on a huge store. A user's own
// GOGC or GOMEMLIMIT is left in charge.
func collectLate(args []string, getenv func(string) string) bool {
	return len(args) > 0 && args[0] == "hook" && getenv("GOGC") == "" && getenv("GOMEMLIMIT") == ""
}
