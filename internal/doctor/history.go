package doctor

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/hookstate"
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

// hookRunsFinding reports what the Claude Code hooks recorded in the last
// 7 days they could not do (a denial of a write they could not judge, a
// journal that failed, a bug), and a guard the user switched off: a hook
// that fails is otherwise seen only in Claude Code's debug log.
func hookRunsFinding(d *diagnosis) {
	if d.opt.DataDir == "" {
		return
	}
	events, err := hookstate.Read(d.opt.DataDir)
	if err != nil {
		d.add(Finding{Area: AreaHookRuns, Status: StatusInfo, Summary: "not checked: " + err.Error()})
		return
	}
	fails, off := hookstate.Since(events, d.opt.Today.Add(-historyWindow))
	if off {
		d.add(Finding{Area: AreaHookRuns, Status: StatusProblem,
			Summary: "the write guard ran switched off (MEMCOMPACT_GUARD=off in the hooks' environment) in the last 7 days: memory writes went through unchecked; remove the setting to turn it back on"})
	}
	if len(fails) == 0 {
		if !off && len(events) > 0 {
			d.add(Finding{Area: AreaHookRuns, Status: StatusOK, Summary: "no hook failed in the last 7 days"})
		}
		return
	}
	var det []string
	for _, f := range fails[max(0, len(fails)-5):] {
		det = append(det, fmt.Sprintf("%s %s: %s", f.At.Local().Format("2006-01-02 15:04"), f.Hook, f.Failure))
	}
	d.add(Finding{Area: AreaHookRuns, Status: StatusProblem,
		Summary: fmt.Sprintf("memcompact's hooks failed %d time(s) in the last 7 days (the latest below; all in %s)", len(fails), hookstate.Path(d.opt.DataDir)),
		Details: det})
}

// claudeHooksFinding reports memcompact's hooks in Claude Code's settings:
// not installed (a note: nothing guards the store), installed and each
// command run once with the version it runs, a command that cannot run or
// a hook missing (problems: a failing pre-write hook lets writes through),
// and hooks installed twice (in two settings files, or in settings and by
// the memcompact plugin: each runs twice).
func claudeHooksFinding(d *diagnosis) {
	in := d.opt.ClaudeHooks
	if in == nil {
		return
	}
	for _, u := range in.Unreadable {
		d.add(Finding{Area: AreaClaudeHooks, Status: StatusInfo, Summary: "cannot read a settings file: " + u})
	}
	var det []string
	files := map[string]bool{}
	var broken []string
	for _, h := range in.Hooks {
		files[h.Settings] = true
		if h.Runs {
			det = append(det, fmt.Sprintf("%s: %s runs memcompact %s: %s", h.Settings, h.Hook, h.Version, h.Command))
		} else {
			det = append(det, fmt.Sprintf("%s: %s cannot run: %s", h.Settings, h.Hook, h.Error))
			broken = append(broken, fmt.Sprintf("%s (%s)", h.Hook, h.Command))
		}
	}
	switch {
	case len(in.Hooks) == 0 && in.Plugin == "":
		d.add(Finding{Area: AreaClaudeHooks, Status: StatusInfo,
			Summary: "memcompact's Claude Code hooks are not installed: no session-start note, and nothing guards writes to memory",
			Command: "memcompact hooks install"})
		return
	case len(in.Hooks) == 0:
		d.add(Finding{Area: AreaClaudeHooks, Status: StatusOK,
			Summary: fmt.Sprintf("run by the memcompact plugin (%s, enabled in %s)", in.Plugin, in.PluginSettings)})
		return
	}
	if in.Plugin != "" {
		d.add(Finding{Area: AreaClaudeHooks, Status: StatusProblem,
			Summary: fmt.Sprintf("installed twice: in settings and by the memcompact plugin (%s, enabled in %s); each hook runs twice", in.Plugin, in.PluginSettings),
			Details: det, Command: "memcompact hooks uninstall"})
	} else if len(files) > 1 {
		d.add(Finding{Area: AreaClaudeHooks, Status: StatusProblem,
			Summary: fmt.Sprintf("installed in %d settings files; each hook runs once per file", len(files)),
			Details: det, Command: "memcompact hooks uninstall --settings FILE"})
	}
	if len(broken) > 0 {
		d.add(Finding{Area: AreaClaudeHooks, Status: StatusProblem,
			Summary: fmt.Sprintf("%d hook command(s) cannot run: %s; Claude Code treats a failing hook as a non-blocking error, so writes go through unguarded. Install again from the memcompact you use", len(broken), strings.Join(broken, ", ")),
			Details: det, Command: "memcompact hooks install"})
	}
	if len(in.Missing) > 0 {
		d.add(Finding{Area: AreaClaudeHooks, Status: StatusProblem,
			Summary: "installed in part: " + strings.Join(in.Missing, ", ") + " missing",
			Details: det, Command: "memcompact hooks install"})
	}
	if len(broken) == 0 && len(in.Missing) == 0 && in.Plugin == "" && len(files) == 1 {
		d.add(Finding{Area: AreaClaudeHooks, Status: StatusOK,
			Summary: fmt.Sprintf("installed in %s; each command ran once (memcompact %s)", in.Hooks[0].Settings, in.Hooks[0].Version),
			Details: det})
	}
}
