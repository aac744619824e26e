package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/memcompact/memcompact/internal/sweep"
	"github.com/memcompact/memcompact/internal/textfile"
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
	var inventory string
	var strict bool
	flags.StringVar(&inventory, "inventory", "", "the enumeration artifact written by 'memcompact inventory --out'")
	alias(flags, "inventory", "InventoryPath")
	flags.BoolVar(&strict, "strict", false, "add the decision-grain check (recommended)")
	alias(flags, "strict", "Strict")
	pos, err := parseFlags(env, flags, "partition --inventory ARTIFACT [flags] INDEX", args)
	if err != nil {
		return err
	}
	if err := f.positional(pos, "partition"); err != nil {
		return sweepUsage(env, false, err.Error())
	}
	asOf, err := f.asOfDate(env)
	if err != nil {
		return err
	}
	// Entry-point usage errors are text even with --json, as in the reference.
	for _, req := range []struct{ path, what string }{{inventory, "enumeration artifact"}, {f.index, "index file"}} {
		if strings.TrimSpace(req.path) == "" {
			return sweepUsage(env, false, fmt.Sprintf("the %s path is required", req.what))
		}
		if !sweep.IsFile(req.path) {
			return sweepUsage(env, false, fmt.Sprintf("no %s at '%s'", req.what, req.path))
		}
	}
	af, err := textfile.Read(inventory)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return sweepUsage(env, false, fmt.Sprintf("no enumeration artifact at '%s'", inventory))
		}
		return Refusef("%v", err)
	}
	art, err := sweep.ParseArtifact(inventory, []byte(af.Text))
	if err != nil {
		return sweepUsage(env, false, err.Error())
	}
	p, err := sweep.ResolvePaths(f.index, f.ledger, f.slate, f.archive)
	if err != nil {
		return Refusef("%v", err)
	}
	if art.Index != "" && art.Index != p.Index {
		fmt.Fprintf(env.Stderr, "memcompact: warning: %s: the artifact enumerated '%s', not '%s'; check that it belongs to this store\n", inventory, art.Index, p.Index)
	}
	res, err := sweep.RunPartition(art, sweep.PartitionInput{Paths: p, AsOf: asOf, Strict: strict})
	if err != nil {
		return &ExitError{Code: ExitRefused, Err: err, Hints: []string{"nothing was decided; make the file readable and run the partition again"}}
	}
	printWarnings(env, res.Warnings)
	rep := res.Report
	if f.json {
		writeJSON(env, rep)
	} else {
		fmt.Fprintln(env.Stdout, strings.Join(partitionLines(rep), "\n"))
	}
	return exitCode(rep.ExitCode())
}

// partitionLines renders the report as the reference's text, with
// --strict's strays after it.
func partitionLines(r *sweep.PartitionReport) []string {
	lines := []string{
		"RESULT: " + r.Result,
		fmt.Sprintf("enumerated: %d subject(s) on %s, from %s", r.SubjectsChecked, psText(r.EnumeratedOn), psText(r.EnumeratedFrom)),
		fmt.Sprintf("accounted: %d", len(r.Accounted)),
		fmt.Sprintf("unaccounted: %d", len(r.Unaccounted)),
		fmt.Sprintf("unverifiable: %d", len(r.Unverifiable)),
	}
	if r.Strays != nil {
		lines = append(lines, fmt.Sprintf("strays: %d", len(*r.Strays)))
	}
	for _, u := range r.Unaccounted {
		lines = append(lines, fmt.Sprintf("  - %s [%s] - %s", u.Identity, u.Population, u.Why))
	}
	for _, u := range r.Unverifiable {
		lines = append(lines, fmt.Sprintf("  ? %s [%s] - %s", u.Identity, u.Population, u.Why))
	}
	for _, m := range r.RecordProblems {
		lines = append(lines, "  - "+m)
	}
	if r.Strays != nil {
		for _, s := range *r.Strays {
			where := ""
			if s.IndexLine > 0 {
				where = fmt.Sprintf(" (index line %d)", s.IndexLine)
			}
			lines = append(lines, fmt.Sprintf("  ! %s [%s] %s - %s%s", s.Identity, s.Disposition, s.Leg, s.Why, where))
		}
	}
	if len(r.Unverifiable) > 0 {
		lines = append(lines, "",
			"This store records no admitted dates, so presence cannot be established per life.",
			"Landing the admission rule - the third limb of the split shape - is what makes this",
			"check able to tell one life of a re-earned name from another.")
	}
	return lines
}

// psText renders an echoed artifact value as the reference interpolates it.
func psText(v []byte) string { return sweep.PSString(v) }
