package doctor

import (
	"testing"

	"github.com/memcompact/memcompact/internal/secrets"
)

// TestPendingScan: the scan's report comes back whole, and a panic in the
// scan is raised where the report is asked for (the goroutine that can
// recover it), not in the scan's own, which would end the process.
func TestPendingScan(t *testing.T) {
	want := &secrets.Report{}
	if got := startScan(func() *secrets.Report { return want }).report(); got != want {
		t.Errorf("report = %p, want %p", got, want)
	}
	p := startScan(func() *secrets.Report { panic("boom") })
	p.wait()
	defer func() {
		if r := recover(); r != "boom" {
			t.Errorf("recovered %v, want the scan's panic", r)
		}
	}()
	p.report()
	t.Error("report returned after the scan panicked")
}
