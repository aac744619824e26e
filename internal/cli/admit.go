package cli

import (
	"context"
	"fmt"

	"github.com/memcompact/memcompact/internal/loadcut"
	"github.com/memcompact/memcompact/internal/lockfile"
	"github.com/memcompact/memcompact/internal/sweepact"
)

func init() {
	register("admit --index INDEX --hook TEXT FILE", runAdmit)
	register("adopt [--yes] INDEX", runAdopt)
	register("observe-limit [flags] INDEX", runObserveLimit)
}

func runAdmit(env *Env, args []string) error {
	f, fs := newSweepFlags("admit")
	var req sweepact.AdmitRequest
	fs.StringVar(&req.Hook, "hook", "", "what the entry teaches: the pointer's recall hook")
	fs.StringVar(&req.Title, "title", "", "the pointer's link text (default: the entry's name)")
	fs.StringVar(&req.Section, "section", "", "the '## ' heading to put the pointer under (default: the end)")
	fs.StringVar(&req.Critical, "critical", "", "append the slate's critical row: yes or no")
	fs.StringVar(&req.Why, "why", "", "why the entry is or is not critical")
	pos, err := parseFlags(env, fs, args)
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
	return showSweep(env, f.json, res, err)
}

func runAdopt(env *Env, args []string) error {
	f, fs := newSweepFlags("adopt")
	req := sweepact.AdoptRequest{LockWait: lockfile.DefaultWait, Now: env.Now}
	fs.BoolVar(&req.Yes, "yes", false, "write (without it, only the diff is shown)")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if req.Index, err = oneIndex(pos, f.index, "adopt"); err != nil {
		return err
	}
	if req.AsOf, err = f.asOfDate(env); err != nil {
		return err
	}
	res, err := sweepact.RunAdopt(context.Background(), req)
	return showSweep(env, f.json, res, err)
}

func runObserveLimit(env *Env, args []string) error {
	f, fs := newSweepFlags("observe-limit")
	req := sweepact.ObserveRequest{LockWait: lockfile.DefaultWait}
	fs.IntVar(&req.Value, "value", loadcut.DefaultUnits, "the observed limit, in characters (UTF-16 units)")
	fs.StringVar(&req.Method, "method", sweepact.DefaultLimitMethod, "how the limit was observed")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if req.Index, err = oneIndex(pos, f.index, "observe-limit"); err != nil {
		return err
	}
	if req.AsOf, err = f.asOfDate(env); err != nil {
		return err
	}
	row, err := sweepact.RunObserveLimit(context.Background(), req)
	if err != nil {
		return fail(err, nil)
	}
	fmt.Fprintln(env.Stdout, row)
	return nil
}
