package cli

import (
	"context"

	"github.com/memcompact/memcompact/internal/budget"
)

func init() {
	register("init [ROOT] [--root DIR] [--json]", runInit)
}

func runInit(env *Env, args []string) (err error) {
	fs := newFlagSet("init")
	root := fs.String("root", "", "the memory root (the directory to hold compaction/)")
	asJSON := jsonFlag(fs, "print the result as JSON")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	defer func() { err = withJSONError(env, *asJSON, err) }()
	if *root, err = rootArgument("init", pos, *root); err != nil {
		return err
	}
	res, err := budget.Init(context.Background(), budget.InitRequest{Root: *root, Today: env.Today()})
	return show(env, *asJSON, res, err, nil)
}
