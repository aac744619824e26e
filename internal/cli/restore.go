package cli

import (
	"context"
	"fmt"

	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/psflag"
	"github.com/memcompact/memcompact/internal/snapshot"
)

func init() {
	register("restore SNAPSHOT [--to FILE] [--yes] [--root DIR] [--json]", runRestore)
}

// restoreHints are restore's hints, by the engine's reason.
var restoreHints = map[outcome.Reason]string{
	snapshot.ReasonNoSnapshot:   "run 'memcompact snapshots' to list them",
	snapshot.ReasonNoTarget:     "name it with --to FILE",
	snapshot.ReasonAmbiguous:    "name one with --to FILE",
	snapshot.ReasonNeedsConfirm: "run it in a terminal to be asked, or pass --yes",
}

func runRestore(env *Env, args []string) (err error) {
	req := snapshot.RestoreRequest{Today: env.Today(), Now: env.Now()}
	fset := newFlagSet("restore")
	root := rootFlag(fset)
	fset.StringVar(&req.To, "to", "", "the file to restore (when the snapshot's name does not say)")
	fset.BoolVar(&req.Confirmed, "yes", false, "replace without asking")
	asJSON := jsonFlag(fset, "print the result as JSON")
	psflag.Alias(fset, "yes", "y")
	pos, err := parseFlags(env, fset, args)
	if err != nil {
		return err
	}
	defer func() { err = withJSONError(env, *asJSON, err) }()
	if len(pos) != 1 {
		return usagef("restore needs exactly one SNAPSHOT")
	}
	req.Root, req.Snapshot = *root, pos[0]
	// What is about to happen is shown once, before the question when
	// there is one.
	shown := false
	preview := func(r *snapshot.RestoreResult) {
		if !*asJSON && !shown {
			shown = true
			r.WritePreviewText(env.Stdout)
		}
	}
	if isTerminal(env.Stdin) {
		req.Confirm = func(r *snapshot.RestoreResult) bool {
			preview(r)
			return ask(env, fmt.Sprintf("Replace %s with this snapshot?", r.File))
		}
	}
	res, err := snapshot.Restore(context.Background(), req)
	if res != nil {
		preview(res)
	}
	return show(env, *asJSON, res, err, restoreHints)
}
