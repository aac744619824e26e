package hookrun

import (
	"fmt"
	"io"
	"runtime/debug"
	"slices"
)

// WriteNotes prints the notes for stderr, a line each, naming the event:
// Claude Code shows a hook's stderr in its transcript, where a note must
// say which hook wrote it.
func (r *Result) WriteNotes(w io.Writer) {
	for _, n := range r.Notes {
		fmt.Fprintf(w, "memcompact hook %s: %s\n", r.Event, n)
	}
}

// IsEvent reports whether name is an event Run runs.
func IsEvent(name string) bool {
	return slices.Contains([]string{EventPreWrite, EventSessionStart, EventPostRead}, name)
}

// MemoryLimit is the heap a hook grows before the garbage collector runs
// at all (see CollectLate).
const MemoryLimit = 256 << 20

// CollectLate makes this process, a hook or another short run of
// memcompact, leave garbage uncollected until its heap nears MemoryLimit,
// unless the user set GOGC or GOMEMLIMIT (then theirs stay in charge), and
// reports whether it did. A hook is a short process on every session start
// and every write whose heap stays a few megabytes on real stores, so
// collecting during it is work thrown away at exit (a fifth of a
// pre-write's instructions on the largest real store, a fifth of a first
// doctor's time); the limit brings the collector back on a huge store.
func CollectLate(getenv func(string) string) bool {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return false
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(MemoryLimit)
	return true
}
