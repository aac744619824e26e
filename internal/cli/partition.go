package cli

import (
	"context"

	"github.com/memcompact/memcompact/internal/psflag"
	"github.com/memcompact/memcompact/internal/sweep"
)

func init() {
	register("partition --inventory ARTIFACT [flags] INDEX", runPartition)
}

func runPartition(env *Env, args []string) error {
	f, flags := newSweepFlags("partition", "ledger", "slate", "archive")
	var req sweep.PartitionRequest
	psflag.String(flags, &req.Inventory, "inventory", "InventoryPath", "the enumeration artifact written by 'memcompact inventory --out'")
	psflag.Bool(flags, &req.Strict, "strict", "Strict", "add the decision-grain check (recommended)")
	pos, err := parseFlags(env, flags, args)
	if err != nil {
		return err
	}
	if err := f.positional(pos, "partition"); err != nil {
		return sweepUsage(env, false, err.Error())
	}
	req.Records = f.records(env)
	res, err := sweep.RunPartitionCheck(context.Background(), req)
	if err != nil {
		// Entry-point usage errors are text even with --json, as in the reference.
		return sweepError(env, false, err)
	}
	printWarnings(env, res.Warnings)
	if f.json {
		writeJSON(env, res.Report)
	} else {
		res.WriteText(env.Stdout)
	}
	return exitCode(int(res.Status()))
}
