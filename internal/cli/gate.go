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
	fs.StringVar(&req.Gate, "gate", "", "deferral, exit, admission or reconcile (or the first positional argument)")
	psflag.Alias(fs, "gate", "Gate")
	fs.StringVar(&req.Identity, "identity", "", "the entry's life key, <name>@<yyyy-MM-dd> or <name>@unknown")
	psflag.Alias(fs, "identity", "Identity")
	fs.StringVar(&req.Entry, "entry", "", "reconcile: the living entry body the life key is read from")
	psflag.Alias(fs, "entry", "EntryPath")
	fs.StringVar(&req.Disposition, "disposition", "", "exit: the disposition being considered")
	psflag.Alias(fs, "disposition", "Disposition")
	fs.StringVar(&req.Destination, "destination", "", "exit: the destination file to read")
	psflag.Alias(fs, "destination", "DestinationPath")
	fs.StringVar(&req.Probe, "probe", "", "exit: text the destination must carry (exact, case-sensitive)")
	psflag.Alias(fs, "probe", "LessonProbe")
	fs.BoolVar(&req.Landed, "landed", false, "exit: assert the destination has landed (merged to the default branch)")
	psflag.Alias(fs, "landed", "DestinationLanded")
	fs.StringVar(&req.RuleLanded, "admission-rule-landed-on", "", "admission: the date the store's admission rule landed, yyyy-MM-dd")
	psflag.Alias(fs, "admission-rule-landed-on", "AdmissionRuleLandedOn")
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
