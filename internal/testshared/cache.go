package testshared

import (
	"os"
	"path/filepath"

	"github.com/memcompact/memcompact/internal/testshared/short"
)

// UseTempCache points the user cache directory (XDG_CACHE_HOME, where
// memcompact keeps its per-store result caches) at a fresh temporary
// directory, and returns the function that removes it. Tests lay out a new
// store in a new temporary directory each time, and each store has a cache
// file of its own: without this, every run of the suite left a few
// thousand files (600 MB) in the user's real cache. GOCACHE is pinned to
// where it was first, so a test that runs "go build" keeps the build cache.
func UseTempCache() (cleanup func()) {
	nothing := func() {}
	if os.Getenv("GOCACHE") == "" {
		if user, err := os.UserCacheDir(); err == nil {
			os.Setenv("GOCACHE", filepath.Join(user, "go-build"))
		}
	}
	dir, err := os.MkdirTemp("", "memcompact-cache-")
	if err != nil {
		return nothing
	}
	old, had := os.LookupEnv("XDG_CACHE_HOME")
	os.Setenv("XDG_CACHE_HOME", dir)
	return func() {
		if had {
			os.Setenv("XDG_CACHE_HOME", old)
		} else {
			os.Unsetenv("XDG_CACHE_HOME")
		}
		os.RemoveAll(dir)
	}
}

// RunWithTempCache runs a package's tests with UseTempCache and exits with
// their code: the whole TestMain of a package that needs nothing else.
// Under -short, as with short.RunInMemory, the temporary folders (the
// cache's among them) are in memory.
func RunWithTempCache(m interface{ Run() int }) {
	inMemory := func() {}
	if short.Parsed() {
		inMemory = short.UseMemoryTempDir()
	}
	uncache := UseTempCache()
	code := m.Run()
	uncache()
	inMemory()
	os.Exit(code)
}
