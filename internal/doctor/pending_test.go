package doctor

import (
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/secrets"
)

// TestPendingScan: the scan's report comes back whole, and a panic in the
// scan (its own goroutine) comes back as an error, not a crash.
func TestPendingScan(t *testing.T) {
	want := &secrets.Report{}
	if got, err := startScan(func() *secrets.Report { return want }).report(); got != want || err != nil {
		t.Errorf("report = %p, %v; want %p", got, err, want)
	}
	p := startScan(func() *secrets.Report { panic("boom") })
	if rep, err := p.report(); rep != nil || err == nil || !strings.Contains(err.Error(), "internal error (boom)") {
		t.Errorf("report after a panic = %v, %v", rep, err)
	}
}
