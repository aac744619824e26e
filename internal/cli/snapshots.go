package cli

import (
	"context"

	"github.com/memcompact/memcompact/internal/snapshot"
)

func init() {
	register("snapshots [FILE] [--show SNAPSHOT] [--root DIR] [--json]", runSnapshots)
}

func runSnapshots(env *Env, args []string) (err error) {
	fs := newFlagSet("snapshots")
	root := rootFlag(fs)
	asJSON := jsonFlag(fs, "print the list as JSON")
	showSnap := fs.String("show", "", "print this snapshot whole (a name in compaction/snapshots/ or a path)")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	defer func() { err = withJSONError(env, *asJSON, err) }()
	if len(pos) > 1 {
		return usagef("snapshots takes at most one FILE")
	}
	req := snapshot.CatalogRequest{Root: *root, Show: *showSnap}
	if len(pos) == 1 {
		req.File = pos[0]
	}
	res, err := snapshot.Catalog(context.Background(), req)
	return show(env, *asJSON, res, err, nil)
}
