package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/memcompact/memcompact/internal/compact"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/textfile"
)

const saveUsage = "save FILE [--entry FILE] [--yes] [--summarizer claude|anthropic|openai|CMD [--model M] [--base-url URL] [--strict] [--timeout D]] [--entry-heading H] [--root DIR] [--json]"

func init() {
	register(&command{
		name:  "save",
		usage: saveUsage,
		short: "append an entry to a memory file, compacting it first if it is over budget",
		long: `save appends an entry (standard input, or --entry FILE) to FILE, after a blank
line. If FILE is over its budget, it is compacted first (as 'memcompact
compact FILE' would, leaving room for the entry), and the compacted file and
the entry are written in one atomic replace; if the compaction cannot reach
the budget or is aborted, nothing is written and the entry is not saved. A
file within budget gets a plain append. A file not in the policy is saved
without a budget check. The first compaction of a file needs confirmation
(a terminal, or --yes).

Exit 0 saved; 1 not saved because the file is still over budget or the
compaction was aborted; 2 refused; 3 usage (including an empty entry).`,
		run: runSave,
	})
}

func runSave(env *Env, args []string) (err error) {
	var f compactFlags
	var entryFile string
	fset := compactFlagSet(&f, "save")
	fset.StringVar(&entryFile, "entry", "", "read the entry from this file instead of standard input")
	pos, err := parseFlags(env, fset, saveUsage, args)
	if err != nil {
		return err
	}
	defer func() { err = withJSONError(env, f.json, err) }()
	if len(pos) != 1 {
		return Usagef("save needs exactly one FILE")
	}
	c := f.request(env)
	req := compact.SaveRequest{Root: c.Root, File: pos[0], Summarizing: c.Summarizing, Timeout: c.Timeout, EntryHeading: c.EntryHeading,
		Confirmed: c.Confirmed, Confirm: c.Confirm, Today: c.Today, Now: c.Now}
	if req.Entry, req.EntryName, err = readEntry(env, entryFile); err != nil {
		return err
	}
	res, err := compact.Save(context.Background(), req)
	if err != nil {
		return fail(err, nil)
	}
	if f.json {
		if err := printJSON(env, res); err != nil && res.Outcome == outcome.Clean {
			return err
		}
		return exitCode(int(res.Outcome))
	}
	if res.Compaction != nil {
		renderCompact(env, res.Compaction, false)
	}
	switch {
	case res.Status == compact.StatusNotSaved && res.Unsaved != "":
		fmt.Fprintf(env.Stdout, "The entry was not saved into %s, which changed while it was being compacted; its text is in %s.\n", res.File, res.Unsaved)
	case res.Status == compact.StatusNotSaved:
		fmt.Fprintf(env.Stdout, "The entry was not saved: %s changed while it was being compacted.\n", res.File)
	case res.Status == compact.StatusSavedOverBudget:
		fmt.Fprintf(env.Stdout, "Saved the entry to %s: now %d/%d %s, over budget.\n", res.File, res.Size, res.Budget, res.Unit)
	case !res.Budgeted:
		fmt.Fprintf(env.Stdout, "Saved the entry to %s (not in the compaction policy, so no budget applies).\n", res.File)
	case res.Status == compact.StatusSaved && res.Size > res.Budget:
		fmt.Fprintf(env.Stdout, "Saved the entry to %s: now %d/%d %s. It is now over budget; the next save compacts it first.\n", res.File, res.Size, res.Budget, res.Unit)
	default:
		fmt.Fprintf(env.Stdout, "Saved the entry to %s: now %d/%d %s.\n", res.File, res.Size, res.Budget, res.Unit)
	}
	return exitCode(int(res.Outcome))
}

// readEntry reads the entry's bytes from entryFile, or else standard input
// (one byte past the size limit, so the engine can tell a larger entry),
// and the name errors give them.
func readEntry(env *Env, entryFile string) ([]byte, string, error) {
	if entryFile != "" {
		ef, err := textfile.Read(entryFile)
		if err != nil {
			return nil, "", Usagef("--entry: %v", err)
		}
		return ef.Raw, "--entry " + entryFile, nil
	}
	raw, err := io.ReadAll(io.LimitReader(env.Stdin, textfile.MaxSize+1))
	if err != nil {
		return nil, "", Usagef("reading the entry from standard input: %v", err)
	}
	return raw, "the entry on standard input", nil
}
