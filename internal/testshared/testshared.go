// Package testshared locates the test data that lives beside the
// repository rather than in it: the real memory stores collected from
// public repositories, and the reference documents. They are public
// content kept for testing, so they are read in place and never copied
// into the repository. Tree builds the small temporary trees other tests
// start from.
//
// The folder is $MEMCOMPACT_SHARED, else ../shared beside the repository
// (where CI puts it). Tests that need it skip, saying why, when it is
// absent, so the module's tests still pass on a machine without it.
package testshared

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Dir returns the absolute path of the shared folder, skipping the test
// when need (a path inside it) does not exist.
func Dir(t testing.TB, need string) string {
	t.Helper()
	dir := os.Getenv("MEMCOMPACT_SHARED")
	if dir == "" {
		dir = filepath.Join(repoRoot(), "..", "shared")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Skipf("shared test data: %v", err)
	}
	if _, err := os.Stat(filepath.Join(abs, need)); err != nil {
		t.Skipf("shared test data not found (%v); set MEMCOMPACT_SHARED to the folder holding %s", err, need)
	}
	return abs
}

// RealStores returns the folder of the real-store corpus, each store one
// sub-folder; the test is skipped when it is absent.
//
// Under -short the tests over them skip: they are the slow, realistic
// half of the suite, which the full "go test ./..." runs.
func RealStores(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the real stores are tried by the full go test ./...")
	}
	return filepath.Join(Dir(t, filepath.Join("corpus", "real-stores")), "corpus", "real-stores")
}

// repoRoot is the repository's root, found from this file's own location
// so that it does not depend on the test's working directory.
func repoRoot() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "."
	}
	return filepath.Join(filepath.Dir(file), "..", "..")
}
