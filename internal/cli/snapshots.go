package cli

import (
	"context"

	"github.com/memcompact/memcompact/internal/psflag"
	"github.com/memcompact/memcompact/internal/snapshot"
)

func init() {
	register("snapshots [FILE] [--root DIR] [--json]", runSnapshots)
}

func runSnapshots(env *Env, args []string) (err error) {
	var req snapshot.CatalogRequest
	var asJSON bool
	fset := newFlagSet("snapshots")
	fset.StringVar(&req.Root, "root", "", "the memory root (the directory holding compaction/)")
	fset.BoolVar(&asJSON, "json", false, "print the list as JSON")
	psflag.Alias(fset, "json", "Json")
	pos, err := parseFlags(env, fset, args)
	if err != nil {
		return err
	}
	defer func() { err = withJSONError(env, asJSON, err) }()
	if len(pos) > 1 {
		return usagef("snapshots takes at most one FILE")
	}
	if len(pos) == 1 {
		req.File = pos[0]
	}
	res, err := snapshot.Catalog(context.Background(), req)
	if err != nil {
		return fail(err, nil)
	}
	if asJSON {
		return printJSON(env, res)
	}
	res.WriteText(env.Stdout)
	return nil
}
