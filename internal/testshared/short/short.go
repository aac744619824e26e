// Package short holds what the tests change under -short (go test
// -short, the quick loop) to run in seconds while still trying every
// package's behaviour: temporary stores in memory, and a sample of
// Unicode. It imports the standard library only, so the many small test
// executables that use it stay small and quick to link (package
// testshared brings testscript with it).
package short

import (
	"flag"
	"iter"
	"os"
	"runtime"
	"testing"
	"unicode/utf8"
)

// MemoryDir makes a fresh directory in memory (/dev/shm on Linux) for a
// test process's temporary files, or returns "" where there is none or
// TMPDIR is set (an explicit TMPDIR is left alone).
func MemoryDir() string {
	if runtime.GOOS != "linux" || os.Getenv("TMPDIR") != "" {
		return ""
	}
	dir, err := os.MkdirTemp("/dev/shm", "memcompact-test-")
	if err != nil {
		return ""
	}
	return dir
}

// UseMemoryTempDir points the process's temporary directory (TMPDIR) at a
// MemoryDir, when there is one, and returns the function that removes it.
func UseMemoryTempDir() (cleanup func()) {
	dir := MemoryDir()
	if dir == "" {
		return func() {}
	}
	os.Setenv("TMPDIR", dir)
	return func() {
		os.Unsetenv("TMPDIR")
		os.RemoveAll(dir)
	}
}

// Parsed reports testing.Short() from a TestMain, parsing the test flags
// first if they were not yet (testing.Short panics before).
func Parsed() bool {
	if !flag.Parsed() {
		flag.Parse()
	}
	return testing.Short()
}

// RunInMemory runs a package's tests and exits with their code: the whole
// TestMain of a package whose tests write stores to disk. Under -short
// their temporary folders are in memory: the stores are small, and on a
// journaling disk each write's fsync, not memcompact, is most of their
// time (the journal's tests took 8 s on disk and 4 s in memory on 2
// cores). The full run keeps them on disk, where fsync and rename do
// their real work.
func RunInMemory(m interface{ Run() int }) {
	cleanup := func() {}
	if Parsed() {
		cleanup = UseMemoryTempDir()
	}
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// runeStride is how far apart the runes above the Basic Multilingual
// Plane are that -short tries: a prime, so the sample falls on every
// alignment of the Unicode tables' ranges.
const runeStride = 13

// Runes is every valid rune (the surrogates skipped), for the tests that
// compare a fast path with its plain rule over all of Unicode. Under
// -short it is every rune of the Basic Multilingual Plane, where nearly
// every script and every width and case rule lives, and every 13th rune
// above it with the last one (about 143,000 runes, not 1.1 million); the
// full run tries them all.
func Runes() iter.Seq[rune] {
	step := rune(1)
	if testing.Short() {
		step = runeStride
	}
	return func(yield func(rune) bool) {
		for r := rune(0); r <= utf8.MaxRune; r++ {
			if r > 0xFFFF && (r-0x10000)%step != 0 && r != utf8.MaxRune {
				continue
			}
			if utf8.ValidRune(r) && !yield(r) {
				return
			}
		}
	}
}
