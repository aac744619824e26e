package doctor

import (
	"fmt"

	"github.com/memcompact/memcompact/internal/drift"
	"github.com/memcompact/memcompact/internal/records"
)

// driftFinding reports orphan entry files and dangling pointers, as the
// drift verb finds them (exited orphans are not drift).
func driftFinding(d *diagnosis) {
	cmd := "memcompact drift " + quote(d.dir)
	res, err := drift.ComputeParsed(d.opt.Index, d.lines, d.ix, records.DateOf(d.opt.Today), d.entryFiles())
	if err != nil {
		d.add(Finding{Area: AreaDrift, Status: StatusInfo, Summary: "not checked: " + err.Error(), Command: cmd})
		return
	}
	d.r.Orphans, d.r.Dangling = len(res.Orphans), len(res.Dangling)
	if !res.Drifted() {
		d.add(Finding{Area: AreaDrift, Status: StatusOK, Summary: fmt.Sprintf("every one of %d entry file(s) is linked, and every pointer reaches its file", res.Entries)})
		return
	}
	det := mostOf(len(res.Orphans)+len(res.Dangling), 5, func(i int) string {
		if i < len(res.Orphans) {
			return "orphan: " + res.Orphans[i].File + " (no pointer names it)"
		}
		g := res.Dangling[i-len(res.Orphans)]
		return fmt.Sprintf("dangling: line %d: %s (%s)", g.Line, g.Target, g.Reason)
	})
	d.add(Finding{Area: AreaDrift, Status: StatusProblem,
		Summary: fmt.Sprintf("%d orphan entry file(s) the agent is never led to, %d pointer(s) to missing files", len(res.Orphans), len(res.Dangling)),
		Details: det, Command: cmd})
}
