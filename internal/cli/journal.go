package cli

import (
	"context"
	"errors"

	"github.com/memcompact/memcompact/internal/journal"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/store"
)

const (
	journalUsage = "journal [prune [--dry-run]] [--include-secrets] [--json] [STORE]"
	historyUsage = "history [--since WHEN] [--file PATH] [--json] [STORE]"
	undoUsage    = "undo (--entry NAME [--at SNAP] | --file PATH --at SNAP | --removed-since SNAP | --to SNAP) [--yes] [--json] [--store STORE]"
)

func init() {
	register(journalUsage, runJournal)
	register(historyUsage, runHistory)
	register(undoUsage, runUndo)
}

// journalHint is what journal and undo add to a refusal by the journal,
// except when the store or the data directory was not found.
func journalHint(err error, hint string) error {
	switch outcome.ReasonOf(err) {
	case store.ReasonNoIndex, journal.ReasonNoStore, journal.ReasonNoDataDir:
		return fail(err, nil)
	}
	e := fail(err, nil).(*exitError)
	e.Hints = append(e.Hints, hint)
	return e
}

func runJournal(env *Env, args []string) error {
	fs := newFlagSet("journal")
	asJSON := fs.Bool("json", false, "print one JSON object instead of text")
	secretsToo := fs.Bool("include-secrets", false, "keep the bytes of files that match a secret rule too")
	dry := fs.Bool("dry-run", false, "with prune: say what would be removed, remove nothing")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	prune := len(pos) > 0 && pos[0] == "prune"
	if prune {
		pos = pos[1:]
	}
	dir, err := oneArg("journal", "store", "", pos)
	if err != nil {
		return engineError(err)
	}
	if prune {
		return runPrune(env, journal.PruneRequest{Store: dir, Where: env.where(), DryRun: *dry, Now: env.Now}, *asJSON)
	}
	res, err := journal.RunRecord(context.Background(), journal.RecordRequest{Store: dir, Where: env.where(), IncludeSecrets: *secretsToo, Now: env.Now})
	if err != nil {
		return journalHint(err, "memcompact keeps its journal under $MEMCOMPACT_DATA_DIR (else $XDG_DATA_HOME/memcompact, else ~/.local/share/memcompact); make it writable or point it elsewhere")
	}
	return render(env, *asJSON, res.JSON(), res)
}

// runPrune is 'journal prune'.
func runPrune(env *Env, req journal.PruneRequest, asJSON bool) error {
	res, err := journal.RunPrune(context.Background(), req)
	if err != nil {
		return fail(err, nil)
	}
	return render(env, asJSON, res.JSON(), res)
}

func runHistory(env *Env, args []string) error {
	fs := newFlagSet("history")
	asJSON := fs.Bool("json", false, "print one JSON object instead of text")
	since := fs.String("since", "", "only steps after WHEN: a snapshot, YYYY-MM-DD, an RFC 3339 time, or an age (7d, 36h)")
	file := fs.String("file", "", "only changes to this store path (e.g. MEMORY.md, feedback_testing.md)")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	dir, err := oneArg("history", "store", "", pos)
	if err != nil {
		return engineError(err)
	}
	res, err := journal.RunHistory(context.Background(), journal.HistoryRequest{Store: dir, Where: env.where(), Since: *since, File: *file, Now: env.Now})
	if err != nil {
		return fail(err, nil)
	}
	if err := render(env, *asJSON, res.JSON(), res); err != nil {
		return err
	}
	return exitCode(int(res.Status()))
}

func runUndo(env *Env, args []string) error {
	fs := newFlagSet("undo")
	asJSON := fs.Bool("json", false, "print one JSON object instead of text")
	yes := fs.Bool("yes", false, "undo without asking")
	req := journal.UndoRequest{Where: env.where(), Now: env.Now}
	fs.StringVar(&req.Entry, "entry", "", "bring back this removed entry (store path or name) and its pointer lines")
	fs.StringVar(&req.File, "file", "", "bring back this store path as --at has it")
	fs.StringVar(&req.At, "at", "", "the snapshot for --file (or --entry)")
	fs.StringVar(&req.RemovedSince, "removed-since", "", "bring back every entry removed since this snapshot")
	fs.StringVar(&req.To, "to", "", "bring the whole store back to this snapshot")
	storeFlag := fs.String("store", "", "the store folder or its MEMORY.md (default: the current project's)")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if *storeFlag != "" {
		pos = append(pos, *storeFlag)
	}
	if req.Store, err = oneArg("undo", "store", "", pos); err != nil {
		return engineError(err)
	}
	var asked error
	req.Confirm = func(r *journal.UndoResult) bool {
		if !*asJSON {
			r.WritePlanText(env.Stdout)
		}
		asked = confirmUndo(env, *yes)
		return asked == nil
	}
	res, err := journal.RunUndo(context.Background(), req)
	if *asJSON && res != nil {
		if jerr := printJSON(env, res.JSON()); jerr != nil {
			return jerr
		}
	}
	if err != nil {
		if !*asJSON && res != nil {
			res.WriteText(env.Stdout) // a partial undo: what was written, and how to undo it
		}
		return journalHint(err, "'memcompact history' shows the snapshots and what changed")
	}
	if asked != nil {
		return asked
	}
	if !*asJSON {
		res.WriteText(env.Stdout)
	}
	return nil
}

// confirmUndo is nil when the undo may go ahead (--yes, or yes on a
// terminal), else the refusal to return.
func confirmUndo(env *Env, yes bool) error {
	switch {
	case yes:
		return nil
	case !isTerminal(env.Stdin):
		return &exitError{Code: exitRefused, Err: errors.New("undo needs confirmation; nothing was changed"), Hints: []string{"run it in a terminal to be asked, or pass --yes"}}
	case !ask(env, "Apply this undo?"):
		return refusef("not confirmed; nothing was changed")
	}
	return nil
}
