package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/textfile"
)

func init() {
	register(&command{
		name:  "init",
		usage: "init [ROOT] [--root DIR] [--json]",
		short: "set up budgeted compaction in a memory root",
		long: `init sets up a memory root (ROOT, or --root, or the nearest directory from the
working directory upward that already has a policy, or else the working
directory): it creates compaction/ and compaction/snapshots/, writes
compaction/compaction-policy.md with default budgets if there is none (an
existing policy only gets a short installation note appended), and adds a
Memory Compaction section to master-memory.md if the file exists and does
not already name compaction/compaction-policy.md. It compacts nothing, and
prints the budget report. A second run changes nothing.

Exit 0 when set up (even if some files are over budget: init only reports),
2 when the existing policy is malformed (nothing is written), 3 when ROOT is
not a directory.`,
		run: runInit,
	})
}

// masterSection is the Memory Compaction section init adds to
// master-memory.md; it names the policy file, which is also how init knows
// the section is already there.
func masterSection(eol string) string {
	s := strings.Join([]string{
		"## Memory Compaction",
		"*Long-lived memory files have size budgets; old entries are distilled, never dropped.*",
		"",
		"- Each file's budget and how many newest entries stay verbatim: `" + budget.PolicyRel + "`.",
		"- Before saving to a budgeted file, measure it (`memcompact budgets`); if it is over",
		"  budget, compact it first (`memcompact save FILE` does both).",
		"- Every rewrite first copies the file to `" + budget.SnapshotsRel + "/`;",
		"  `memcompact restore SNAPSHOT` puts a copy back.",
		"- The oldest entries become one `## Compacted History` block; secrets are never summarized.",
		"",
	}, "\n")
	return strings.ReplaceAll(s, "\n", eol)
}

func runInit(env *Env, args []string) (err error) {
	const usage = "init [ROOT] [--root DIR] [--json]"
	var rootFlag string
	var asJSON bool
	fset := newFlagSet("init")
	fset.StringVar(&rootFlag, "root", "", "the memory root (the directory to hold compaction/)")
	fset.BoolVar(&asJSON, "json", false, "print the result as JSON")
	alias(fset, "json", "Json")
	pos, err := parseFlags(env, fset, usage, args)
	if err != nil {
		return err
	}
	defer func() { err = withJSONError(env, asJSON, err) }()
	if rootFlag, err = rootArgument("init", pos, rootFlag); err != nil {
		return err
	}
	root := ""
	if rootFlag != "" {
		if root, err = findRoot(rootFlag); err != nil {
			return err
		}
	} else if wd, werr := os.Getwd(); werr != nil {
		return Refusef("cannot read the working directory: %v", werr)
	} else if root, err = budget.FindRoot(wd); err != nil {
		root, err = wd, nil
	}

	policyPath := filepath.Join(root, filepath.FromSlash(budget.PolicyRel))
	// Decide everything before writing anything: a malformed policy is
	// refused with nothing created.
	existing, rerr := textfile.Read(policyPath)
	if rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
		return Refusef("%v", rerr)
	}
	if existing != nil {
		if _, err := loadPolicy(root); err != nil {
			return err
		}
	}

	// master-memory.md too is read before anything is written, so one that
	// cannot be read refuses init with the policy untouched.
	master := filepath.Join(root, "master-memory.md")
	mf, merr := textfile.Read(master)
	if merr != nil && !errors.Is(merr, fs.ErrNotExist) {
		return Refusef("%v", merr)
	}

	res := initResult{SchemaVersion: 1, Root: root, Actions: []string{}}
	for _, d := range []string{budget.Dir, budget.SnapshotsRel} {
		dir := filepath.Join(root, filepath.FromSlash(d))
		fi, err := os.Stat(dir)
		switch {
		case err == nil && fi.IsDir():
			continue
		case err == nil:
			return Refusef("%s exists and is not a directory", dir)
		}
		if err := os.Mkdir(dir, 0o755); err != nil {
			return Refusef("%v", err)
		}
		res.Actions = append(res.Actions, "created "+d+"/")
	}
	today := env.Today().Format("2006-01-02")
	if existing == nil {
		if err := atomicfile.Replace(policyPath, []byte(budget.DefaultPolicy()), ""); err != nil {
			return Refusef("%v", err)
		}
		res.Actions = append(res.Actions, "wrote "+budget.PolicyRel+" with the default budgets")
	} else if !strings.Contains(existing.Text, budget.InstallNoteMarker) {
		note := budget.InstallNote(today)
		if !strings.HasSuffix(existing.Text, "\n") && !strings.HasSuffix(existing.Text, "\r") && existing.Text != "" {
			note = "\n" + note
		}
		if err := atomicfile.Append(policyPath, []byte(withEOL(note, existing.Text))); err != nil {
			return Refusef("%v", err)
		}
		res.Actions = append(res.Actions, "kept the existing "+budget.PolicyRel+" and appended an installation note")
	}
	if mf != nil {
		if !strings.Contains(mf.Text, budget.PolicyRel) {
			eol := eolOf(mf.Text)
			add := eol + masterSection(eol)
			if mf.Text != "" && !strings.HasSuffix(mf.Text, "\n") && !strings.HasSuffix(mf.Text, "\r") {
				add = eol + add
			}
			if err := atomicfile.Append(master, []byte(add)); err != nil {
				return Refusef("%v", err)
			}
			res.Actions = append(res.Actions, "added the Memory Compaction section to master-memory.md")
		}
	}
	res.Changed = len(res.Actions) > 0

	p, err := loadPolicy(root)
	if err != nil {
		return err
	}
	res.Budgets = budget.Check(root, p)
	if asJSON {
		return printJSON(env, res)
	}
	if res.Changed {
		for _, a := range res.Actions {
			fmt.Fprintf(env.Stdout, "init: %s\n", a)
		}
		fmt.Fprintf(env.Stdout, "Memory compaction is set up in %s. Nothing was compacted. Budgets now:\n", root)
	} else {
		fmt.Fprintf(env.Stdout, "Memory compaction was already set up in %s; nothing changed. Budgets now:\n", root)
	}
	env.Stdout.Write([]byte(res.Budgets.Text()))
	return nil
}

// eolOf is the line ending text mostly uses.
func eolOf(text string) string {
	if strings.Count(text, "\r\n")*2 > strings.Count(text, "\n") {
		return "\r\n"
	}
	return "\n"
}

// withEOL converts s's LF line endings to those of like.
func withEOL(s, like string) string {
	if eol := eolOf(like); eol != "\n" {
		return strings.ReplaceAll(s, "\n", eol)
	}
	return s
}
