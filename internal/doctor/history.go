package doctor

import (
	"context"
	"fmt"
	"time"

	"github.com/memcompact/memcompact/internal/journal"
)

// historyWindow is how far back doctor looks in the store's journal for a
// mass deletion: long enough to cover the last few sessions.
const historyWindow = 7 * 24 * time.Hour

// historyFinding reports what the store's journal saw deleted lately (a
// background consolidation, a clean-up by an agent, another session's
// overwrite), each with the undo command that reverses it. No journal, no
// finding: the journal is the hooks' to keep.
func historyFinding(d *diagnosis) {
	if d.opt.JournalDir == "" {
		return
	}
	cmd := "memcompact history " + quote(d.dir)
	ws, ok, err := journal.Recent(context.Background(), journal.RecentRequest{Store: d.dir, DataDir: d.opt.JournalDir, Within: historyWindow})
	if err != nil {
		d.add(Finding{Area: AreaHistory, Status: StatusInfo, Summary: "not checked: " + err.Error(), Command: cmd})
		return
	}
	if !ok {
		return // no journal for this store yet
	}
	if un, _ := journal.Unprotected(d.dir, d.opt.JournalDir); len(un) > 0 {
		d.add(Finding{Area: AreaHistory, Status: StatusInfo, Summary: "unprotected: " + journal.UnprotectedNote(un), Command: cmd})
	}
	var det []string
	undo, events := "", map[string]bool{}
	for _, w := range ws {
		if w.Kind == "content-collapse" {
			continue
		}
		det = append(det, fmt.Sprintf("%s (%s): %s", w.Time, w.Snapshot, w.Message))
		undo, events[w.Snapshot] = w.Undo, true
	}
	if len(det) == 0 {
		d.add(Finding{Area: AreaHistory, Status: StatusOK, Summary: "no mass deletion or unrecorded pointer drop in the journal's last 7 days"})
		return
	}
	d.add(Finding{Area: AreaHistory, Status: StatusProblem,
		Summary: fmt.Sprintf("the journal saw entries deleted or pointers dropped with no record %d time(s) in the last 7 days; to bring the latest back: %s", len(events), undo),
		Details: most(det, 5), Command: cmd})
}
