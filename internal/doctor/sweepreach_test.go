package doctor

import (
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/loadcut"
	"github.com/memcompact/memcompact/internal/sweepact"
)

// A cut index's session note points at the sweep, with the figure its
// plan would reach; without a plan it says nothing of one.
func TestSessionNotePointsAtSweep(t *testing.T) {
	r := &Report{Result: "problems", Index: "/s/MEMORY.md", Store: "/s",
		Load: loadcut.Result{Cut: true, LinesTotal: 404, UnitsTotal: 77878, LineLimit: 200, UnitLimit: 25000, FirstCutLine: 101}}
	if note := SessionNote(r); strings.Contains(note, "sweep plan") {
		t.Errorf("no plan, yet the note offers one:\n%s", note)
	}
	r.SweepReach = &sweepact.Figures{Lines: 154, Units: 18164, SubjectsTotal: 36, SubjectsLoaded: 36}
	note := SessionNote(r)
	if !strings.Contains(note, "'memcompact sweep plan /s/MEMORY.md' proposes one that brings it to 154 lines, 18164 characters, 36 of 36 subjects loading") {
		t.Errorf("the note does not point at the sweep with its figure:\n%s", note)
	}
}
