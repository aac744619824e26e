package hookstate

import (
	"testing"

	"github.com/memcompact/memcompact/internal/testshared/short"
)

// Under -short the tests' temporary stores are in memory, where a write's
// fsync costs nothing; the full run keeps them on disk.
func TestMain(m *testing.M) { short.RunInMemory(m) }
