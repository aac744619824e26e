package cli

import (
	"context"
	"io"

	"github.com/memcompact/memcompact/internal/budget"
)

func init() {
	register("budgets [ROOT] [--root DIR] [--json]", runBudgets)
}

func runBudgets(env *Env, args []string) (err error) {
	fs := newFlagSet("budgets")
	root := rootFlag(fs)
	asJSON := jsonFlag(fs, "print the report as JSON")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	defer func() { err = withJSONError(env, *asJSON, err) }()
	if *root, err = rootArgument("budgets", pos, *root); err != nil {
		return err
	}
	res, err := budget.Run(context.Background(), budget.Request{Root: *root})
	if err != nil {
		return fail(err, nil)
	}
	if *asJSON {
		if err := printJSON(env, res); err != nil {
			return err
		}
	} else {
		io.WriteString(env.Stdout, res.Text())
	}
	return exitCode(int(res.Outcome))
}
