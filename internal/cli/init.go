package cli

import (
	"context"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/psflag"
)

func init() {
	register("init [ROOT] [--root DIR] [--json]", runInit)
}

func runInit(env *Env, args []string) (err error) {
	var rootFlag string
	var asJSON bool
	fset := newFlagSet("init")
	fset.StringVar(&rootFlag, "root", "", "the memory root (the directory to hold compaction/)")
	fset.BoolVar(&asJSON, "json", false, "print the result as JSON")
	psflag.Alias(fset, "json", "Json")
	pos, err := parseFlags(env, fset, args)
	if err != nil {
		return err
	}
	defer func() { err = withJSONError(env, asJSON, err) }()
	if rootFlag, err = rootArgument("init", pos, rootFlag); err != nil {
		return err
	}
	res, err := budget.Init(context.Background(), budget.InitRequest{Root: rootFlag, Today: env.Today()})
	if err != nil {
		return fail(err, nil)
	}
	if asJSON {
		return printJSON(env, res)
	}
	res.WriteText(env.Stdout)
	return nil
}
