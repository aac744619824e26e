package cli

import (
	"os"
	"testing"

	"github.com/memcompact/memcompact/internal/testshared"
)

// TestMain runs the package's tests with their temporary directories in
// memory when it can (see testshared.UseMemoryTempDir): the robustness
// battery's cost is its file-system calls.
func TestMain(m *testing.M) {
	cleanup := testshared.UseMemoryTempDir()
	uncache := testshared.UseTempCache()
	code := m.Run()
	uncache()
	cleanup()
	os.Exit(code)
}
