package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/memcompact/memcompact/internal/lockfile"
	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/sweepact"
)

const sweepSynopsis = "sweep plan|review|apply|restore [flags] ..."

func init() {
	register(sweepSynopsis, runSweep)
	for _, c := range []*command{
		{name: "sweep plan", usage: "sweep plan [flags] INDEX", run: runSweepPlan},
		{name: "sweep review", usage: "sweep review [PLAN]", run: runSweepReview},
		{name: "sweep apply", usage: "sweep apply [flags] PLAN", run: runSweepApply},
		{name: "sweep restore", usage: "sweep restore --index INDEX IDENTITY", run: runSweepRestore},
	} {
		sweepSteps[c.name] = c
	}
}

// sweepSteps are the sweep's steps, by name ("sweep plan").
var sweepSteps = map[string]*command{}

func runSweep(env *Env, args []string) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
			// The sweep's help covers its four steps; each step's -h adds
			// its flags.
			fmt.Fprintln(env.Stdout, "usage: memcompact "+sweepSynopsis+"\n\n"+helpText("sweep"))
			return errHelp
		}
		return &exitError{Code: exitUsage, Err: errors.New("sweep needs a step: plan, review, apply or restore"), Hints: []string{"usage: memcompact " + sweepSynopsis}}
	}
	if step, ok := sweepSteps["sweep "+args[0]]; ok {
		return step.run(env, args[1:])
	}
	return &exitError{Code: exitUsage, Err: fmt.Errorf("unknown sweep step %q; one of plan, review, apply, restore", args[0])}
}

func oneIndex(pos []string, flagIndex, verb string) (string, error) {
	switch {
	case len(pos) == 0 && flagIndex != "":
		return flagIndex, nil
	case len(pos) == 1 && flagIndex == "":
		return pos[0], nil
	}
	return "", usagef("%s takes one index (positional or --index)", verb)
}

func runSweepPlan(env *Env, args []string) error {
	f, fs := newSweepFlags("sweep plan")
	var req sweepact.PlanFileRequest
	fs.IntVar(&req.TargetUnits, "target", 0, "aim the index at this many UTF-16 units (default: the load cut, or the budget when smaller)")
	fs.BoolVar(&req.Record, "record", false, "append a 'proposed' ledger record per proposed move")
	fs.StringVar(&req.Project, "project", "", "promote standing rules to this project's CLAUDE.md (default: the user's ~/.claude/CLAUDE.md)")
	fs.StringVar(&req.Out, "out", "", "write the plan file here (default: .memcompact/sweep-plan.json in the store)")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if req.Index, err = oneIndex(pos, f.index, "sweep plan"); err != nil {
		return err
	}
	if req.Project != "" {
		if abs, err := filepath.Abs(req.Project); err == nil {
			req.Project = abs
		}
	}
	if req.AsOf, err = f.asOfDate(env); err != nil {
		return err
	}
	req.LockWait = lockfile.DefaultWait
	res, err := sweepact.RunPlanFile(context.Background(), req)
	if err != nil {
		return fail(err, nil)
	}
	if f.json {
		writeJSON(env, res.Plan)
		return nil
	}
	sweepact.WritePlanText(env.Stdout, res.Plan, res.Path, res.Recorded)
	return nil
}

// planPath is the PLAN argument, or the default plan of --index's store.
func planPath(pos []string, index, verb string) (string, error) {
	switch {
	case len(pos) == 1:
		return pos[0], nil
	case len(pos) == 0 && index != "":
		return filepath.Join(filepath.Dir(index), sweepact.DefaultPlanRel), nil
	}
	return "", usagef("%s takes one plan file (or --index for the store's default plan)", verb)
}

func runSweepReview(env *Env, args []string) error {
	fs := newFlagSet("sweep review")
	var index string
	fs.StringVar(&index, "index", "", "the store's index (its default plan file is reviewed)")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	path, err := planPath(pos, index, "sweep review")
	if err != nil {
		return err
	}
	res, err := sweepact.RunReview(context.Background(), sweepact.ReviewRequest{PlanPath: path, In: env.Stdin, Out: env.Stdout})
	if res != nil {
		res.WriteText(env.Stdout, path)
	}
	return fail(err, nil)
}

func runSweepApply(env *Env, args []string) error {
	f, fs := newSweepFlags("sweep apply")
	req := sweepact.ApplyRequest{LockWait: lockfile.DefaultWait, Home: env.Home(), Now: env.Now}
	fs.BoolVar(&req.Yes, "yes", false, "the owner's yes to every pending decision")
	fs.BoolVar(&req.DryRun, "dry-run", false, "gate every act and show what would be done; write nothing")
	admission := fs.String("admission-landed", "", "the day the store's admission rule landed, yyyy-MM-dd (for remove-fails-admission)")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if req.PlanPath, err = planPath(pos, f.index, "sweep apply"); err != nil {
		return err
	}
	if req.AsOf, err = f.asOfDate(env); err != nil {
		return err
	}
	if *admission != "" {
		var ok bool
		if req.AdmissionLandedOn, ok = records.ParseDate(*admission); !ok {
			return usagef("--admission-landed must be a date in yyyy-MM-dd form; found %q", *admission)
		}
	}
	res, err := sweepact.RunApply(context.Background(), req)
	if f.json && res != nil {
		writeJSON(env, res)
	}
	if err != nil {
		if res != nil && !f.json {
			res.WriteRefusalsText(env.Stdout)
		}
		return fail(err, nil)
	}
	if req.DryRun {
		if !f.json {
			res.WriteDryRunText(env.Stdout)
		}
		return nil
	}
	if !f.json {
		res.WriteText(env.Stdout)
	}
	return exitCode(res.ExitCode())
}

func runSweepRestore(env *Env, args []string) error {
	f, fs := newSweepFlags("sweep restore")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || f.index == "" {
		return usagef("sweep restore takes --index INDEX and one IDENTITY (a life key, or a name when one life of it exited)")
	}
	asOf, err := f.asOfDate(env)
	if err != nil {
		return err
	}
	res, err := sweepact.RunRestore(context.Background(), sweepact.RestoreRequest{Index: f.index, Identity: pos[0], AsOf: asOf, LockWait: lockfile.DefaultWait})
	return showSweep(env, f.json, res, err)
}
