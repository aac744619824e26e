package cli

import (
	"fmt"
	"path/filepath"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/snapshot"
)

func init() {
	register(&command{
		name:  "snapshots",
		usage: "snapshots [FILE] [--root DIR] [--json]",
		short: "list the snapshots compaction and restore have taken",
		long: `snapshots lists compaction/snapshots/, oldest first, one line per snapshot:
its path, when it was taken (from its name), its lines and bytes. With FILE,
only the snapshots of that file (by base name: main/main-memory.md has
main-memory-YYYY-MM-DD….md).

Exit codes: 0 listed (an empty list included), 2 refused (no memory root,
FILE outside it, an unreadable snapshots folder), 3 usage error.`,
		run: runSnapshots,
	})
}

func runSnapshots(env *Env, args []string) (err error) {
	const usage = "snapshots [FILE] [--root DIR] [--json]"
	var rootFlag string
	var asJSON bool
	fset := newFlagSet("snapshots")
	fset.StringVar(&rootFlag, "root", "", "the memory root (the directory holding compaction/)")
	fset.BoolVar(&asJSON, "json", false, "print the list as JSON")
	alias(fset, "json", "Json")
	pos, err := parseFlags(env, fset, usage, args)
	if err != nil {
		return err
	}
	defer func() { err = withJSONError(env, asJSON, err) }()
	if len(pos) > 1 {
		return Usagef("snapshots takes at most one FILE")
	}
	root, err := findRoot(rootFlag)
	if err != nil {
		return err
	}
	res := snapshotsResult{SchemaVersion: 1, Root: root, Snapshots: []snapshot.Info{}}
	base := ""
	if len(pos) == 1 {
		rel, err := budget.Rel(root, pos[0])
		if err != nil {
			return &ExitError{Code: ExitRefused, Err: err}
		}
		res.File, base = rel, snapshot.Base(rel)
	}
	dir := filepath.Join(root, filepath.FromSlash(budget.SnapshotsRel))
	list, err := snapshot.List(dir, base)
	if err != nil {
		return Refusef("%v", err)
	}
	for i := range list {
		list[i].Path = budget.SnapshotsRel + "/" + list[i].Name
	}
	if list != nil {
		res.Snapshots = list
	}
	if asJSON {
		return printJSON(env, res)
	}
	if len(list) == 0 {
		if res.File != "" {
			fmt.Fprintf(env.Stdout, "No snapshots of %s.\n", res.File)
		} else {
			fmt.Fprintln(env.Stdout, "No snapshots.")
		}
		return nil
	}
	for _, s := range list {
		fmt.Fprintf(env.Stdout, "%s  %s  %d lines  %d bytes\n", s.Path, s.Date, s.Lines, s.Bytes)
	}
	return nil
}
