package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/memcompact/memcompact/internal/drift"
	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/store"
)

const driftUsage = "drift [--json] [STORE]"

func init() {
	register(&command{
		name:  "drift",
		usage: driftUsage,
		short: "find orphan entry files and dangling pointers in a memory store",
		long: `drift compares a memory store's entry files with its index's pointers:

  orphan    an entry file (*.md beside the index, other than the index,
            LEDGER.md, SLATE.md, ARCHIVE.md, POLICY.md and the policy file
            the index names) that no link in the index names; an orphan
            whose exit is in force in LEDGER.md left on the record and is
            listed as exited, not as drift
  dangling  a pointer (a link to a .md file on a list-item line of the
            index) whose file does not exist

STORE is the store directory or its index file; it defaults to the current
project's Claude Code memory store. Nothing is written.

Exit codes: 0 no drift, 1 drift, 2 the index or LEDGER.md could not be
read, 3 usage error (STORE missing, no store found).`,
		run: runDrift,
	})
}

func runDrift(env *Env, args []string) error {
	var asJSON bool
	flags := newFlagSet("drift")
	flags.BoolVar(&asJSON, "json", false, "print one JSON object instead of text")
	alias(flags, "json", "Json")
	indexFlag := indexFlag(flags)
	pos, err := parseFlags(env, flags, driftUsage, args)
	if err != nil {
		return err
	}
	pos = withIndexFlag(*indexFlag, pos)
	fail := func(code int, err error, hints ...string) error {
		if asJSON {
			result := "refused"
			if code == ExitUsage {
				result = "usage-error"
			}
			drift.WriteJSON(env.Stdout, drift.JSONError{Version: drift.JSONVersion, Result: result, Reason: err.Error()})
		}
		return &ExitError{Code: code, Err: err, Hints: hints}
	}
	if len(pos) > 1 {
		return fail(ExitUsage, fmt.Errorf("drift takes one store; found %d arguments", len(pos)), "usage: memcompact "+driftUsage)
	}

	var path string
	if len(pos) == 1 {
		path = pos[0]
		if _, err := os.Stat(path); err != nil {
			return fail(ExitUsage, fmt.Errorf("%s: no such store or index file", path), "usage: memcompact "+driftUsage)
		}
	} else {
		cwd, err := os.Getwd()
		if err != nil {
			return fail(ExitUsage, fmt.Errorf("no store given, and the working directory is unknown: %v", err), "name the store: memcompact drift path/to/memory")
		}
		index, _, err := store.FindIndex(env.Getenv, env.Home(), cwd)
		if err != nil {
			var hints []string
			var nie *store.NoIndexError
			if errors.As(err, &nie) {
				hints = nie.HintsFor("drift")
			}
			return fail(ExitUsage, err, hints...)
		}
		path = index
	}

	res, err := drift.Compute(path, records.DateOf(env.Today()))
	switch {
	case errors.Is(err, drift.ErrNoIndex):
		return fail(ExitUsage, err, "a store is the directory holding MEMORY.md; or name the index file itself")
	case errors.Is(err, fs.ErrNotExist):
		return fail(ExitUsage, err)
	case err != nil:
		return fail(ExitRefused, err)
	}
	if asJSON {
		err = drift.WriteJSON(env.Stdout, res.JSON())
	} else {
		err = res.WriteText(env.Stdout)
	}
	code := ExitClean
	if res.Drifted() {
		code = ExitDefects
	}
	if err != nil {
		return &ExitError{Code: worst(code, ExitRefused), Err: err}
	}
	return exitCode(code)
}
