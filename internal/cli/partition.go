package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/memcompact/memcompact/internal/sweep"
)

func init() {
	register(&command{
		name:  "partition",
		usage: "partition --inventory ARTIFACT [flags] INDEX",
		short: "reconcile a pre-sweep inventory against the post-sweep store",
		long: `Partition reads the enumeration artifact the inventory wrote before the
sweep and accounts for every subject in it against the index, archive and
ledger as they now stand, on life keys: still hot, demoted (a demotion in
force corroborated by an archive line), exited with a record, or an orphan
this sweep assessed. Anything else left recall without a record.

--strict adds the decision-grain check: by set equality over every decided
life, exits in force whose pointer is still in the index, kept entries
missing from it, and demotions no archive line carries. Plain partition
cannot see those (an exit in force accounts a subject even when its pointer
never left); --strict names each one. Use --strict.

Exit 0 accounted, 1 unaccounted (or strays under --strict), 2 unverifiable
(no admitted dates on either side), 3 usage error.`,
		run: runPartition,
	})
}

func runPartition(env *Env, args []string) error {
	flags := newFlagSet("partition")
	var f sweepFlags
	f.define(flags, "ledger", "slate", "archive")
	var req sweep.PartitionRequest
	flags.StringVar(&req.Inventory, "inventory", "", "the enumeration artifact written by 'memcompact inventory --out'")
	alias(flags, "inventory", "InventoryPath")
	flags.BoolVar(&req.Strict, "strict", false, "add the decision-grain check (recommended)")
	alias(flags, "strict", "Strict")
	pos, err := parseFlags(env, flags, "partition --inventory ARTIFACT [flags] INDEX", args)
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
		fmt.Fprintln(env.Stdout, strings.Join(res.Report.Lines(), "\n"))
	}
	return exitCode(int(res.Status()))
}
