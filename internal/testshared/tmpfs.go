package testshared

import "github.com/memcompact/memcompact/internal/testshared/short"

// UseMemoryTempDir points the test process's temporary directory at a
// fresh directory in memory (/dev/shm on Linux) when TMPDIR is not set and
// one is available, and returns the function that removes it.
//
// The CLI's robustness battery lays out a whole store for each of its
// ~2,800 cases and walks it twice; on a journaling disk the file-system
// calls, not memcompact, dominate its run (34 s of system time against 7 s
// in memory on the same 2 cores), so the same cases run several times
// faster. An explicit TMPDIR is left alone.
func UseMemoryTempDir() (cleanup func()) { return short.UseMemoryTempDir() }
