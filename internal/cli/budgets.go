package cli

import (
	"github.com/memcompact/memcompact/internal/budget"
)

func init() {
	register(&command{
		name:  "budgets",
		usage: "budgets [ROOT] [--root DIR] [--json]",
		short: "measure every budgeted memory file against its budget",
		long: `budgets reads ROOT/compaction/compaction-policy.md (ROOT defaults to the
nearest directory, from the working directory upward, that has one), expands
its globs and prints one line per budgeted file:

  main/main-memory.md: 312/500 lines (OK)

Exit 0 when every file is within budget, 1 when any is over, 2 when the
policy is missing or malformed (each bad line is named) or a file cannot be
read, 3 usage error (ROOT is not a directory).`,
		run: runBudgets,
	})
}

func runBudgets(env *Env, args []string) (err error) {
	const usage = "budgets [ROOT] [--root DIR] [--json]"
	var rootFlag string
	var asJSON bool
	fset := newFlagSet("budgets")
	fset.StringVar(&rootFlag, "root", "", "the memory root (the directory holding compaction/)")
	fset.BoolVar(&asJSON, "json", false, "print the report as JSON")
	alias(fset, "json", "Json")
	pos, err := parseFlags(env, fset, usage, args)
	if err != nil {
		return err
	}
	defer func() { err = withJSONError(env, asJSON, err) }()
	if rootFlag, err = rootArgument("budgets", pos, rootFlag); err != nil {
		return err
	}
	root, p, err := openPolicy(rootFlag)
	if err != nil {
		return err
	}
	rep := budget.Check(root, p)
	if asJSON {
		if err := printJSON(env, rep); err != nil {
			return err
		}
	} else {
		env.Stdout.Write([]byte(rep.Text()))
	}
	return exitCode(budgetsCode(rep))
}

// budgetsCode is the exit code of a budgets report: 2 if a file could not
// be measured, else 1 if any is over, else 0.
func budgetsCode(rep *budget.Report) int {
	switch {
	case rep.Errors > 0:
		return ExitRefused
	case rep.Over > 0:
		return ExitDefects
	}
	return ExitClean
}
