package doctor

import (
	"context"
	"errors"
	"fmt"
	"github.com/memcompact/memcompact/internal/claudehooks"
	"os"
	"path/filepath"
	"time"

	"github.com/memcompact/memcompact/internal/check"
	"github.com/memcompact/memcompact/internal/journal"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/reference"
	"github.com/memcompact/memcompact/internal/store"
)

// Usage is the verb's synopsis, which its usage errors repeat.
const Usage = "doctor [--all] [--json] [--no-cache] [--reference FILE] [INDEX]"

// Request is one diagnosis: of one store, or of every store (All).
type Request struct {
	Index     string // the index or its store directory; "" for the current project's
	All       bool   // every store under <config dir>/projects/*/memory/
	Reference string // --reference: the reference copy for the strict check
	NoCache   bool   // --no-cache: read, scan and plan afresh, trusting no cache
	Today     time.Time
	Where     store.Where
	// Progress, when set, is called before each store of an All run.
	Progress func(i, n int, index string)
	// DryRun tries a Claude Code hook command (nil: claudehooks.DryRun).
	DryRun func(ctx context.Context, h claudehooks.Hook, command string) (string, error)
}

// Result is a diagnosis: Report for one store, All for every store.
type Result struct {
	Report *Report
	All    *All
}

// Status is the diagnosis's verdict: problems are defects, an unreadable
// index a refusal.
func (r *Result) Status() outcome.Status {
	if r.All != nil {
		return outcome.Status(r.All.ExitCode())
	}
	return outcome.Status(r.Report.ExitCode())
}

// JSON is the diagnosis's --json document.
func (r *Result) JSON() any {
	if r.All != nil {
		return r.All
	}
	return r.Report
}

// Reasons doctor rejects a request for.
const (
	ReasonNoConfigDir outcome.Reason = "no-config-dir"
	ReasonNoStores    outcome.Reason = "no-stores"
	ReasonNoSuchIndex outcome.Reason = "no-such-index"
)

// Run diagnoses the requested store or stores. doctor refuses nothing it
// can read: an unreadable index is a Report with that verdict.
func Run(ctx context.Context, req Request) (*Result, error) {
	getenv := req.Where.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	src := reference.Resolve(req.Reference, getenv, req.Where.Home)
	opt := Options{
		Reference:     check.Reference{Display: src.Display, Path: src.Path, Text: src.Text},
		ReferenceFlag: req.Reference,
		Today:         req.Today,
		NoCache:       req.NoCache || getenv("MEMCOMPACT_NO_CACHE") != "",
	}
	opt.DataDir, _ = journal.DataDir(getenv, req.Where.Home)
	opt.ClaudeHooks = claudehooks.Inspect(ctx, claudehooks.SettingsFiles(getenv, req.Where.Home, req.Where.Cwd), req.DryRun)
	if getenv("MEMCOMPACT_JOURNAL") != "off" {
		opt.JournalDir = opt.DataDir
	}
	if req.All {
		return runAll(req, getenv, opt)
	}
	opt.Index = req.Index
	if opt.Index == "" {
		if req.Where.Cwd != "" {
			loc, related := store.RelatedStores(getenv, req.Where.Home, req.Where.Cwd, req.Where.Options())
			opt.Location, opt.Related = &loc, related
		}
		found, err := req.Where.DefaultIndex("doctor")
		if err != nil {
			var e *outcome.Error
			if errors.As(err, &e) {
				e.Hints = append(e.Hints, "or diagnose every store: memcompact doctor --all")
				e.Hints = append(e.Hints, hookHints(opt)...)
			}
			return nil, err
		}
		opt.Index = found
	}
	// A store directory names its index; a directory where the index
	// belongs is left for Diagnose to report as unreadable.
	if fi, err := os.Stat(filepath.Join(opt.Index, store.IndexName)); err == nil && !fi.IsDir() {
		opt.Index = filepath.Join(opt.Index, store.IndexName)
	} else if _, err := os.Stat(opt.Index); errors.Is(err, os.ErrNotExist) {
		return nil, &outcome.Error{Status: outcome.Usage, Reason: ReasonNoSuchIndex, Msg: fmt.Sprintf("%s: no such file", opt.Index),
			Hints: []string{"usage: memcompact " + Usage}}
	}
	return &Result{Report: Diagnose(opt)}, nil
}

func runAll(req Request, getenv func(string) string, opt Options) (*Result, error) {
	if _, set := req.Where.Options().LookupEnvOr(getenv, "CLAUDE_CONFIG_DIR"); req.Where.Home == "" && !set {
		return nil, &outcome.Error{Status: outcome.Usage, Reason: ReasonNoConfigDir, Msg: "cannot find the Claude config dir: neither CLAUDE_CONFIG_DIR nor HOME is set"}
	}
	projects := filepath.Join(store.ConfigDirWith(getenv, req.Where.Home, req.Where.Cwd, req.Where.Options()), "projects")
	indexes, err := Indexes(projects)
	if err != nil {
		return nil, &outcome.Error{Status: outcome.Usage, Reason: ReasonNoStores, Msg: fmt.Sprintf("cannot list the stores: %v", err), Err: err,
			Hints: append([]string{"Claude Code keeps them under <config dir>/projects/*/memory/; the config dir is $CLAUDE_CONFIG_DIR or ~/.claude"}, hookHints(opt)...)}
	}
	all := DiagnoseAll(projects, indexes, opt, req.Progress)
	all.ByProject = ProjectsOf(projects, getenv, req.Where.Home, req.Where.Options())
	return &Result{All: all}, nil
}

// hookHints are the hooks' findings as hints of a refusal for want of a
// store: a project Claude Code has kept no memory for yet still has the
// hooks a user just installed, and doctor is where they look for them.
func hookHints(opt Options) []string {
	var hints []string
	for _, f := range HookFindings(opt) {
		h := f.Area + ": " + f.Summary
		if f.Status == StatusProblem {
			h = f.Area + ": problem: " + f.Summary
		}
		if f.Command != "" {
			h += " (" + f.Command + ")"
		}
		hints = append(hints, h)
		for _, d := range f.Details {
			hints = append(hints, "  "+d)
		}
	}
	return hints
}
