package cli

import (
	"context"

	"github.com/memcompact/memcompact/internal/psflag"
	"github.com/memcompact/memcompact/internal/sweep"
)

func init() {
	register("gate deferral|exit|admission|reconcile [flags] [INDEX]", runGate)
}

func runGate(env *Env, args []string) error {
	f, fs := newSweepFlags("gate", "ledger", "slate")
	var req sweep.GateRequest
	psflag.String(fs, &req.Gate, "gate", "Gate", "deferral, exit, admission or reconcile (or the first positional argument)")
	psflag.String(fs, &req.Identity, "identity", "Identity", "the entry's life key, <name>@<yyyy-MM-dd> or <name>@unknown")
	psflag.String(fs, &req.Entry, "entry", "EntryPath", "reconcile: the living entry body the life key is read from")
	psflag.String(fs, &req.Disposition, "disposition", "Disposition", "exit: the disposition being considered")
	psflag.String(fs, &req.Destination, "destination", "DestinationPath", "exit: the destination file to read")
	psflag.String(fs, &req.Probe, "probe", "LessonProbe", "exit: text the destination must carry (exact, case-sensitive)")
	psflag.Bool(fs, &req.Landed, "landed", "DestinationLanded", "exit: assert the destination has landed (merged to the default branch)")
	psflag.String(fs, &req.RuleLanded, "admission-rule-landed-on", "AdmissionRuleLandedOn", "admission: the date the store's admission rule landed, yyyy-MM-dd")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 && req.Gate == "" {
		req.Gate, pos = pos[0], pos[1:]
	}
	if err := f.positional(pos, "gate"); err != nil {
		return sweepUsage(env, f.json, err.Error())
	}
	req.Records = f.records(env)
	res, err := sweep.RunGate(context.Background(), req)
	if err != nil {
		return sweepError(env, f.json, err)
	}
	printWarnings(env, res.Warnings)
	if f.json {
		writeJSON(env, res.Verdict)
	} else {
		res.WriteText(env.Stdout)
	}
	return exitCode(int(res.Status()))
}
