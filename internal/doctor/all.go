package doctor

import (
	"os"
	"path/filepath"
	"sort"
)

// Indexes lists the MEMORY.md of every store under projects
// (<config dir>/projects/*/memory/MEMORY.md), sorted. A store directory
// without an index file is skipped: Claude Code has not written one yet.
func Indexes(projects string) ([]string, error) {
	entries, err := os.ReadDir(projects)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		p := filepath.Join(projects, e.Name(), "memory", "MEMORY.md")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out, nil
}

// DiagnoseAll diagnoses each index with opt (Index replaced), calling
// progress before each one when it is not nil. The areas that are the
// machine's, not a store's (the hooks installed in Claude Code, the hooks'
// record of failures) are diagnosed once, into Hooks, and left out of
// every store's report: one broken hook is one problem, not one per store.
func DiagnoseAll(projects string, indexes []string, opt Options, progress func(i, n int, index string)) *All {
	a := &All{SchemaVersion: SchemaVersion, Projects: projects, Stores: []*Report{}, ByProject: []ProjectStores{}, Hooks: HookFindings(opt)}
	for i, ix := range indexes {
		if progress != nil {
			progress(i, len(indexes), ix)
		}
		o := opt
		o.Index = ix
		o.DataDir, o.ClaudeHooks = "", nil // said once, in a.Hooks
		r := Diagnose(o)
		a.Stores = append(a.Stores, r)
		switch r.Result {
		case "healthy":
			a.Healthy++
		case "problems":
			a.WithProblems++
		default:
			a.Unreadable++
		}
	}
	return a
}

// HookFindings are the findings of the areas doctor reports about the
// machine rather than a store: the hooks' record (AreaHookRuns, from
// opt.DataDir) and the hooks installed in Claude Code (AreaClaudeHooks,
// from opt.ClaudeHooks).
func HookFindings(opt Options) []Finding {
	d := &diagnosis{opt: opt, r: &Report{Findings: []Finding{}}}
	hookRunsFinding(d)
	claudeHooksFinding(d)
	return d.r.Findings
}
