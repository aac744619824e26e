package sweepact

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/testshared"
)

// plannedCopy copies the real store name into a temporary folder and
// writes its sweep plan as of asOf to the default place, as 'sweep plan'
// does: the folder, the plan's path and the plan.
func plannedCopy(t *testing.T, name, asOf string) (dir, planPath string, pl *Plan) {
	t.Helper()
	dir = t.TempDir()
	copyDir(t, filepath.Join(testshared.RealStores(t), name), dir)
	pl, err := RunPlan(PlanRequest{Index: filepath.Join(dir, "MEMORY.md"), AsOf: date(t, asOf)})
	if err != nil {
		t.Fatal(err)
	}
	planPath = filepath.Join(dir, DefaultPlanRel)
	if err := WritePlan(planPath, pl); err != nil {
		t.Fatal(err)
	}
	return dir, planPath, pl
}

// TestForeignLedgerWriterLosesNoRow runs a sweep of a real cut store while
// another writer keeps replacing LEDGER.md the way an editor does (read
// it, write a temp file, rename it over), without the store's lock, so
// every record the sweep appended between its read and its rename is gone.
// The writer stops when the sweep reaches its last check; then the
// ledger must carry every record of every act, and the sweep-complete row.
func TestForeignLedgerWriterLosesNoRow(t *testing.T) {
	const asOf = "2026-12-02"
	dir, planPath, _ := plannedCopy(t, "davidtleess__dg-cockpit", asOf)
	ledger := filepath.Join(dir, "LEDGER.md")
	var stop atomic.Bool
	var replaced atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			b, err := os.ReadFile(ledger)
			if err != nil {
				time.Sleep(100 * time.Microsecond)
				continue
			}
			time.Sleep(time.Millisecond) // the editor's think time
			tmp := ledger + ".editor-tmp"
			row := fmt.Sprintf("%s | proposed | demote | foreign_%d@unknown | a session proposed it | ARCHIVE.md\n", asOf, replaced.Load())
			if os.WriteFile(tmp, append(b, row...), 0o644) == nil && os.Rename(tmp, ledger) == nil {
				replaced.Add(1)
			}
			time.Sleep(2 * time.Millisecond)
		}
	}()
	ensureHook = func(step string) {
		if step == "final" {
			stop.Store(true)
			wg.Wait()
		}
	}
	defer func() { ensureHook = nil; stop.Store(true); wg.Wait() }()
	res, err := RunApply(context.Background(), ApplyRequest{PlanPath: planPath, Yes: true, AsOf: date(t, asOf), Home: t.TempDir()})
	if err != nil {
		t.Fatalf("apply: %v", err)
	}
	if replaced.Load() == 0 {
		t.Fatal("the foreign writer never replaced the ledger; the test tested nothing")
	}
	l, err := records.ReadLedger(ledger, date(t, asOf))
	if err != nil || !l.Complete() {
		t.Fatalf("the ledger does not read whole: %v", err)
	}
	have := map[string]bool{}
	complete := false
	for _, r := range l.Records {
		if r.Status == records.StatusExecuted {
			have[r.Identity+" "+r.Disposition] = true
		}
		complete = complete || r.Disposition == "sweep-complete"
	}
	lost := 0
	for _, a := range res.Acts {
		d := a.Disposition
		if d == "duplicates" {
			d = "settle-in-place"
		}
		if d != Complete && !have[a.Identity+" "+d] {
			lost++
			t.Errorf("the record of %s %s is gone from the ledger", d, a.Identity)
		}
	}
	if !complete {
		t.Error("the sweep-complete record is gone from the ledger")
	}
	if len(res.Partition.Unaccounted) > 0 {
		t.Errorf("the partition finds %d subject(s) unaccounted", len(res.Partition.Unaccounted))
	}
	t.Logf("%d acts; the writer replaced the ledger %d times; %d record(s) appended again; %d lost", len(res.Acts), replaced.Load(), res.LedgerRepaired, lost)
}
