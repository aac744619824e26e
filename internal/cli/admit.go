package cli

import (
	"context"
	"fmt"

	"github.com/memcompact/memcompact/internal/loadcut"
	"github.com/memcompact/memcompact/internal/lockfile"
	"github.com/memcompact/memcompact/internal/sweepact"
)

func init() {
	register(&command{
		name:  "admit",
		usage: "admit --index INDEX --hook TEXT [--title T] [--section '## S'] [--critical yes|no --why TEXT] FILE",
		short: "admit an entry: its life key, an R1-passing pointer, its critical row",
		long:  help("admit"),
		run:   runAdmit,
	})
	register(&command{
		name:  "adopt",
		usage: "adopt [--yes] INDEX",
		short: "give a store with no policy the split shape (stanza, POLICY.md, budget)",
		long:  help("adopt"),
		run:   runAdopt,
	})
	register(&command{
		name:  "observe-limit",
		usage: "observe-limit [--value N] [--method TEXT] INDEX",
		short: "append a dated limit observation to the store's values region",
		long:  help("observe-limit"),
		run:   runObserveLimit,
	})
}

func runAdmit(env *Env, args []string) error {
	fs := newFlagSet("admit")
	var f sweepFlags
	f.define(fs)
	var req sweepact.AdmitRequest
	fs.StringVar(&req.Hook, "hook", "", "what the entry teaches: the pointer's recall hook")
	fs.StringVar(&req.Title, "title", "", "the pointer's link text (default: the entry's name)")
	fs.StringVar(&req.Section, "section", "", "the '## ' heading to put the pointer under (default: the end)")
	fs.StringVar(&req.Critical, "critical", "", "append the slate's critical row: yes or no")
	fs.StringVar(&req.Why, "why", "", "why the entry is or is not critical")
	pos, err := parseFlags(env, fs, "admit --index INDEX --hook TEXT FILE", args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || f.index == "" || req.Hook == "" {
		return usagef("admit takes --index INDEX, --hook TEXT and one entry FILE")
	}
	if req.AsOf, err = f.asOfDate(env); err != nil {
		return err
	}
	req.Index, req.File, req.LockWait, req.Now = f.index, pos[0], lockfile.DefaultWait, env.Now
	res, err := sweepact.RunAdmit(context.Background(), req)
	if err != nil {
		return fail(err, nil)
	}
	if f.json {
		writeJSON(env, res)
		return nil
	}
	res.WriteText(env.Stdout)
	return nil
}

func runAdopt(env *Env, args []string) error {
	fs := newFlagSet("adopt")
	var f sweepFlags
	f.define(fs)
	var yes bool
	fs.BoolVar(&yes, "yes", false, "write (without it, only the diff is shown)")
	pos, err := parseFlags(env, fs, "adopt [--yes] INDEX", args)
	if err != nil {
		return err
	}
	ix, err := oneIndex(pos, f.index, "adopt")
	if err != nil {
		return err
	}
	asOf, err := f.asOfDate(env)
	if err != nil {
		return err
	}
	res, err := sweepact.RunAdopt(context.Background(), sweepact.AdoptRequest{Index: ix, Yes: yes, AsOf: asOf, LockWait: lockfile.DefaultWait, Now: env.Now})
	if err != nil {
		return fail(err, nil)
	}
	if f.json {
		writeJSON(env, res)
		return nil
	}
	res.WriteText(env.Stdout)
	return nil
}

func runObserveLimit(env *Env, args []string) error {
	fs := newFlagSet("observe-limit")
	var f sweepFlags
	f.define(fs)
	var value int
	var method string
	fs.IntVar(&value, "value", loadcut.DefaultUnits, "the observed limit, in characters (UTF-16 units)")
	fs.StringVar(&method, "method", sweepact.DefaultLimitMethod, "how the limit was observed")
	pos, err := parseFlags(env, fs, "observe-limit [flags] INDEX", args)
	if err != nil {
		return err
	}
	ix, err := oneIndex(pos, f.index, "observe-limit")
	if err != nil {
		return err
	}
	asOf, err := f.asOfDate(env)
	if err != nil {
		return err
	}
	row, err := sweepact.RunObserveLimit(context.Background(), sweepact.ObserveRequest{Index: ix, Value: value, Method: method, AsOf: asOf, LockWait: lockfile.DefaultWait})
	if err != nil {
		return fail(err, nil)
	}
	fmt.Fprintln(env.Stdout, row)
	return nil
}
