package cli

import (
	"context"
	"io"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/psflag"
)

func init() {
	register("budgets [ROOT] [--root DIR] [--json]", runBudgets)
}

func runBudgets(env *Env, args []string) (err error) {
	var rootFlag string
	var asJSON bool
	fset := newFlagSet("budgets")
	fset.StringVar(&rootFlag, "root", "", "the memory root (the directory holding compaction/)")
	fset.BoolVar(&asJSON, "json", false, "print the report as JSON")
	psflag.Alias(fset, "json", "Json")
	pos, err := parseFlags(env, fset, args)
	if err != nil {
		return err
	}
	defer func() { err = withJSONError(env, asJSON, err) }()
	if rootFlag, err = rootArgument("budgets", pos, rootFlag); err != nil {
		return err
	}
	res, err := budget.Run(context.Background(), budget.Request{Root: rootFlag})
	if err != nil {
		return fail(err, nil)
	}
	if asJSON {
		if err := printJSON(env, res); err != nil {
			return err
		}
	} else {
		io.WriteString(env.Stdout, res.Text())
	}
	return exitCode(int(res.Outcome))
}
