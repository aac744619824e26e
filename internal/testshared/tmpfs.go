package testshared

import (
	"flag"
	"os"
	"runtime"
	"testing"
)

// UseMemoryTempDir points the test process's temporary directory at a
// fresh directory in memory (/dev/shm on Linux) when TMPDIR is not set and
// one is available, and returns the function that removes it.
//
// The CLI's robustness battery lays out a whole store for each of its
// ~2,800 cases and walks it twice; on a journaling disk the file-system
// calls, not memcompact, dominate its run (34 s of system time against 7 s
// in memory on the same 2 cores), so the same cases run several times
// faster. An explicit TMPDIR is left alone.
func UseMemoryTempDir() (cleanup func()) {
	nothing := func() {}
	dir := memoryDir()
	if dir == "" {
		return nothing
	}
	os.Setenv("TMPDIR", dir)
	return func() {
		os.Unsetenv("TMPDIR")
		os.RemoveAll(dir)
	}
}

// memoryDir makes a fresh directory in memory for a test process's
// temporary files, or returns "" where there is none or TMPDIR is set.
func memoryDir() string {
	if runtime.GOOS != "linux" || os.Getenv("TMPDIR") != "" {
		return ""
	}
	dir, err := os.MkdirTemp("/dev/shm", "memcompact-test-")
	if err != nil {
		return ""
	}
	return dir
}

// RunShortInMemory runs a package's tests and exits with their code: the
// whole TestMain of a package whose tests write stores to disk. Under
// -short their temporary folders are in memory (UseMemoryTempDir): the
// stores are small, and on a journaling disk each write's fsync, not
// memcompact, is most of their time (the journal's tests took 8 s on disk
// and 4 s in memory on 2 cores). The full run keeps them on disk, where
// fsync and rename do their real work.
func RunShortInMemory(m interface{ Run() int }) {
	if !flag.Parsed() {
		flag.Parse()
	}
	cleanup := func() {}
	if testing.Short() {
		cleanup = UseMemoryTempDir()
	}
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// ShortInMemory is RunShortInMemory for one test that is not parallel
// (such as the one running a package's CLI scripts): under -short, its
// temporary files and testscript's work folders (TMPDIR and GOTMPDIR) are
// in memory until it ends.
func ShortInMemory(t *testing.T) {
	t.Helper()
	if !testing.Short() {
		return
	}
	dir := memoryDir()
	if dir == "" {
		return
	}
	t.Setenv("TMPDIR", dir)
	t.Setenv("GOTMPDIR", dir)
	t.Cleanup(func() { os.RemoveAll(dir) })
}
