package hookrun

import (
	"testing"

	"github.com/memcompact/memcompact/internal/testshared"
)

// TestMain keeps the result caches of the stores these tests lay out out
// of the user's real cache directory.
func TestMain(m *testing.M) { testshared.RunWithTempCache(m) }
