package hookrun

import (
	"runtime/debug"
	"testing"
)

// TestCollectLate: a short run defers collection unless the user set GOGC or
// GOMEMLIMIT, whose settings then stay as they are.
func TestCollectLate(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	for _, c := range []struct {
		env  map[string]string
		want bool
	}{
		{nil, true},
		{map[string]string{"GOGC": "50"}, false},
		{map[string]string{"GOMEMLIMIT": "1GiB"}, false},
	} {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(1 << 40)
		got := CollectLate(func(k string) string { return c.env[k] })
		pct, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(-1)
		if got != c.want {
			t.Errorf("CollectLate(%v) = %v, want %v", c.env, got, c.want)
		}
		if c.want && (pct != -1 || limit != MemoryLimit) {
			t.Errorf("CollectLate(%v) left GC percent %d and limit %d", c.env, pct, limit)
		}
		if !c.want && (pct != 100 || limit != 1<<40) {
			t.Errorf("CollectLate(%v) changed the user's settings to %d and %d", c.env, pct, limit)
		}
	}
}
