package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/snapshot"
	"github.com/memcompact/memcompact/internal/textfile"
)

func init() {
	register(&command{
		name:  "restore",
		usage: "restore SNAPSHOT [--to FILE] [--yes] [--root DIR] [--json]",
		short: "put a memory file back as a snapshot has it",
		long: `restore replaces a memory file with a snapshot from compaction/snapshots/
(SNAPSHOT is a path, or just the snapshot's name). The file is the budgeted
file whose base name the snapshot carries; --to names it when that is
ambiguous or the file is no longer in the policy.

restore shows the snapshot's date and size and asks before replacing (on a
terminal; elsewhere it needs --yes). The current file is first snapshotted
itself, under the usual naming rule, so a restore is undone by restoring
that snapshot.

Exit 0 restored (or already identical), 2 refused (no such snapshot, no
single file to restore to, not confirmed, write failure), 3 usage.`,
		run: runRestore,
	})
}

func runRestore(env *Env, args []string) (err error) {
	const usage = "restore SNAPSHOT [--to FILE] [--yes] [--root DIR] [--json]"
	var rootFlag, to string
	var yes, asJSON bool
	fset := newFlagSet("restore")
	fset.StringVar(&rootFlag, "root", "", "the memory root (the directory holding compaction/)")
	fset.StringVar(&to, "to", "", "the file to restore (when the snapshot's name does not say)")
	fset.BoolVar(&yes, "yes", false, "replace without asking")
	fset.BoolVar(&asJSON, "json", false, "print the result as JSON")
	alias(fset, "json", "Json")
	alias(fset, "yes", "y")
	pos, err := parseFlags(env, fset, usage, args)
	if err != nil {
		return err
	}
	defer func() { err = withJSONError(env, asJSON, err) }()
	if len(pos) != 1 {
		return Usagef("restore needs exactly one SNAPSHOT")
	}
	root, err := findRoot(rootFlag)
	if err != nil {
		return err
	}
	snapDir := filepath.Join(root, filepath.FromSlash(budget.SnapshotsRel))

	// The snapshot: a path, or a name in the snapshots folder.
	snapPath := pos[0]
	if _, err := os.Stat(snapPath); errors.Is(err, fs.ErrNotExist) && !strings.ContainsAny(snapPath, `/\`) {
		snapPath = filepath.Join(snapDir, snapPath)
	}
	snapRel, err := budget.Rel(root, snapPath)
	if err != nil || !strings.HasPrefix(snapRel, budget.SnapshotsRel+"/") || strings.Contains(strings.TrimPrefix(snapRel, budget.SnapshotsRel+"/"), "/") {
		return &ExitError{Code: ExitRefused, Err: fmt.Errorf("%s is not a snapshot in %s", pos[0], budget.SnapshotsRel), Hints: []string{"run 'memcompact snapshots' to list them"}}
	}
	snap, err := textfile.Read(snapPath)
	if errors.Is(err, fs.ErrNotExist) {
		err = fmt.Errorf("no snapshot %s in %s", filepath.Base(snapPath), budget.SnapshotsRel)
	}
	if err != nil {
		return &ExitError{Code: ExitRefused, Err: err, Hints: []string{"run 'memcompact snapshots' to list them"}}
	}
	base, taken, hasTime, _, ok := snapshot.ParseName(filepath.Base(snapPath))
	if !ok {
		return Refusef("%s is not named like a snapshot (BASE-YYYY-MM-DD[-HHMMSS][-vN].md)", snapRel)
	}

	// The file it restores.
	var rel string
	if to != "" {
		if rel, err = budget.Rel(root, to); err != nil {
			return &ExitError{Code: ExitRefused, Err: err}
		}
		if budget.Excluded(rel) {
			return Refusef("%s: files under compaction/ are never restored over", rel)
		}
	} else {
		p, err := loadPolicy(root)
		if err != nil {
			return err
		}
		files, _ := p.Files(root)
		var match []string
		for _, f := range files {
			if snapshot.Base(f.Rel) == base {
				match = append(match, f.Rel)
			}
		}
		switch len(match) {
		case 0:
			return &ExitError{Code: ExitRefused, Err: fmt.Errorf("no budgeted file is named %s.md; which file does %s restore?", base, snapRel), Hints: []string{"name it with --to FILE"}}
		case 1:
			rel = match[0]
		default:
			return &ExitError{Code: ExitRefused, Err: fmt.Errorf("%s could restore any of %s", snapRel, strings.Join(match, ", ")), Hints: []string{"name one with --to FILE"}}
		}
	}
	abs := filepath.Join(root, filepath.FromSlash(rel))
	when := taken.Format("2006-01-02")
	if hasTime {
		when = taken.Format("2006-01-02 15:04:05")
	}
	res := restoreResult{SchemaVersion: 1, File: rel, Snapshot: snapRel, Taken: when, Lines: len(textfile.Lines(snap.Text)), Bytes: len(snap.Raw)}

	cur, err := textfile.Read(abs)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Refusef("%v", err)
	}
	curDesc := "does not exist"
	if cur != nil {
		curDesc = fmt.Sprintf("is %d lines, %d bytes", len(textfile.Lines(cur.Text)), len(cur.Raw))
	}
	if !asJSON {
		fmt.Fprintf(env.Stdout, "Snapshot %s, taken %s: %d lines, %d bytes. %s %s now.\n", snapRel, when, res.Lines, res.Bytes, rel, curDesc)
	}
	if cur != nil && bytes.Equal(cur.Raw, snap.Raw) {
		res.Status = "unchanged"
		if asJSON {
			return printJSON(env, res)
		}
		fmt.Fprintf(env.Stdout, "%s is already identical to the snapshot; nothing to do.\n", rel)
		return nil
	}
	if !yes {
		if !isTerminal(env.Stdin) {
			return &ExitError{Code: ExitRefused, Err: fmt.Errorf("restoring %s needs confirmation; nothing was written", rel), Hints: []string{"run it in a terminal to be asked, or pass --yes"}}
		}
		if err := confirm(env, fmt.Sprintf("Replace %s with this snapshot?", rel)); err != nil {
			return err
		}
	}
	wantDigest := ""
	if cur != nil {
		safety, err := snapshot.Next(snapDir, rel, env.Today(), env.Now())
		if err != nil {
			return Refusef("%v", err)
		}
		if safety, err = snapshot.Take(snapDir, rel, safety, cur.Raw, env.Today(), env.Now()); err != nil {
			return Refusef("safety snapshot of %s: %v; nothing was restored", rel, err)
		}
		res.SafetySnapshot = budget.SnapshotsRel + "/" + filepath.Base(safety)
		wantDigest = cur.Digest
	}
	if err := atomicfile.Replace(abs, snap.Raw, wantDigest); err != nil {
		return Refusef("%s: %v; the file was not changed", rel, err)
	}
	res.Status = "restored"
	if asJSON {
		return printJSON(env, res)
	}
	fmt.Fprintf(env.Stdout, "Restored %s from %s.\n", rel, snapRel)
	if res.SafetySnapshot != "" {
		fmt.Fprintf(env.Stdout, "The version it replaced is in %s; restore that to undo.\n", res.SafetySnapshot)
	}
	return nil
}
