package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/psflag"
	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/sweep"
)

func init() {
	register("inventory [flags] INDEX", runInventory)
}

// sweepFlags are the flags the sweep verbs share.
type sweepFlags struct {
	index, ledger, slate, archive, asOf string
	json                                bool
}

// newSweepFlags is the flag set of the sweep verb name, with the flags the
// sweep verbs share (and the given records' paths) defined on f.
func newSweepFlags(name string, records ...string) (*sweepFlags, *flag.FlagSet) {
	fs := newFlagSet(name)
	f := &sweepFlags{}
	psflag.String(fs, &f.index, "index", "IndexPath", "the store's index file (or the positional INDEX)")
	for _, r := range records {
		switch r {
		case "ledger":
			psflag.String(fs, &f.ledger, "ledger", "LedgerPath", "LEDGER.md (default: beside the index)")
		case "slate":
			psflag.String(fs, &f.slate, "slate", "SlatePath", "SLATE.md (default: beside the index)")
		case "archive":
			psflag.String(fs, &f.archive, "archive", "ArchivePath", "ARCHIVE.md (default: beside the index)")
		}
	}
	psflag.String(fs, &f.asOf, "as-of", "AsOf", "the date to reason from, yyyy-MM-dd (default: today, or MEMCOMPACT_TODAY)")
	psflag.Bool(fs, &f.json, "json", "Json", "print JSON")
	return f, fs
}

// asOfDate returns --as-of, or today.
func (f *sweepFlags) asOfDate(env *Env) (records.Date, error) {
	if f.asOf == "" {
		return records.DateOf(env.Today()), nil
	}
	d, ok := records.ParseDate(strings.TrimSpace(f.asOf))
	if !ok {
		return records.Date{}, usagef("--as-of must be a date in yyyy-MM-dd form; found %q", f.asOf)
	}
	return d, nil
}

// records is the store the flags name, for an engine's Request.
func (f *sweepFlags) records(env *Env) sweep.Records {
	return sweep.Records{Index: f.index, Ledger: f.ledger, Slate: f.slate, Archive: f.archive, AsOf: f.asOf, Today: env.Today()}
}

// positional takes the index from the one positional argument, if given.
func (f *sweepFlags) positional(pos []string, verb string) error {
	switch {
	case len(pos) == 0:
		return nil
	case len(pos) == 1 && f.index == "":
		f.index = pos[0]
		return nil
	}
	return fmt.Errorf("%s takes one index; got %s", verb, strings.Join(pos, " "))
}

// sweepError reports an engine error of a sweep verb: a usage error the
// reference scripts print on stdout as they do, anything else in
// memcompact's own voice.
func sweepError(env *Env, asJSON bool, err error) error {
	if outcome.ReasonOf(err) == sweep.ReasonUsage {
		return sweepUsage(env, asJSON, outcome.MessageOf(err))
	}
	return engineError(err)
}

// sweepUsage renders a usage error the way the reference scripts do, on
// stdout (text, or {result, reason} with --json), and returns exit 3.
func sweepUsage(env *Env, asJSON bool, reason string) error {
	if asJSON {
		writeJSON(env, sweep.UsageJSON(reason))
	} else {
		sweep.WriteUsageText(env.Stdout, reason)
	}
	return exitCode(exitUsage)
}

func runInventory(env *Env, args []string) error {
	f, fs := newSweepFlags("inventory", "ledger", "slate", "archive")
	var req sweep.InventoryRequest
	fs.StringVar(&req.Out, "out", "", "also write the artifact to this file (parent folders are created)")
	psflag.Alias(fs, "out", "OutputPath", "output")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if err := f.positional(pos, "inventory"); err != nil {
		return sweepUsage(env, false, err.Error())
	}
	req.Records = f.records(env)
	res, err := sweep.RunInventory(context.Background(), req)
	if err != nil {
		return sweepError(env, false, err)
	}
	printWarnings(env, res.Warnings)
	writeJSON(env, res.Artifact)
	return nil
}
