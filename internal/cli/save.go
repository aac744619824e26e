package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/compact"
	"github.com/memcompact/memcompact/internal/lockfile"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/shellword"
	"github.com/memcompact/memcompact/internal/textfile"
)

const saveUsage = "save FILE [--entry FILE] [--yes] [--allow-secret] [--summarizer claude|anthropic|openai|CMD [--model M] [--base-url URL] [--strict] [--timeout D]] [--entry-heading H] [--root DIR] [--json]"

func init() {
	register(saveUsage, runSave)
}

func runSave(env *Env, args []string) (err error) {
	var f compactFlags
	var entryFile string
	var allowSecret bool
	fset := compactFlagSet(&f, "save")
	fset.StringVar(&entryFile, "entry", "", "read the entry from this file instead of standard input")
	fset.BoolVar(&allowSecret, "allow-secret", false, "save the entry even if it holds a secret")
	pos, err := parseFlags(env, fset, args)
	if err != nil {
		return err
	}
	defer func() { err = withJSONError(env, f.json, err) }()
	if len(pos) != 1 {
		return usagef("save needs exactly one FILE")
	}
	c := f.request(env)
	req := compact.SaveRequest{Root: c.Root, File: pos[0], Summarizing: c.Summarizing, Timeout: c.Timeout, EntryHeading: c.EntryHeading,
		Confirmed: c.Confirmed, Confirm: c.Confirm, AllowSecret: allowSecret, Today: c.Today, Now: c.Now}
	if req.Entry, req.EntryName, err = readEntry(env, entryFile); err != nil {
		return err
	}
	res, err := compact.Save(context.Background(), req)
	if err != nil {
		var oe *outcome.Error
		if res != nil && res.Unsaved != "" && errors.As(err, &oe) {
			oe.Hints = []string{keptEntryHint(oe.Reason, saveHints{file: pos[0], root: f.req.Root}, res.Root, res.Unsaved)}
		} else if entryFile != "" {
			// The entry is in its file still: the same command saves it.
			err = lockHint(err, "memcompact save "+shellword.Join(args))
		}
		return fail(err, compactHints(f.req.Root, ""))
	}
	if f.json {
		if err := printJSON(env, res); err != nil && res.Outcome == outcome.Clean {
			return err
		}
		return exitCode(int(res.Outcome))
	}
	if res.Compaction != nil {
		renderCompact(env, res.Compaction, false, nil)
	}
	h := saveHints{file: pos[0], root: f.req.Root}
	if msg, hint, ok := res.SecretRefusal(h.args(), wdPath(res.Root, res.Unsaved)); ok {
		outcome.Say(env.Stderr, outcome.KindError, msg)
		outcome.Say(env.Stderr, outcome.KindHint, hint)
	}
	res.WriteText(env.Stdout, h.args(), wdPath(res.Root, res.Unsaved))
	return exitCode(int(res.Outcome))
}

// saveHints writes save's hints as commands to paste where save was run:
// FILE and --root as the user gave them, the unsaved copy's path from the
// working directory.
type saveHints struct{ file, root string }

// args is FILE (and --root DIR) as given, quoted for a shell.
func (h saveHints) args() string { return shellword.Quote(h.file) + rootArg(h.root) }

// keptEntryHint is the hint of a refusal that kept the entry in
// compaction/unsaved/ (rel unsaved under root): what to do first, by the
// refusal's reason, then the command that saves the entry from there.
func keptEntryHint(reason outcome.Reason, h saveHints, root, unsaved string) string {
	first := fmt.Sprintf("fix those lines of %s (%s)", budget.PolicyRel, budget.PolicyRow)
	if reason == lockfile.ReasonHeld {
		first = "wait for the other run to finish"
	}
	return fmt.Sprintf("%s, then save the entry: memcompact save %s --entry %s", first, h.args(), wdPath(root, unsaved))
}

// wdPath is the root-relative rel as a path from the working directory
// (absolute when that is shorter to get right), quoted for a shell: how
// compact's and save's hints name a file.
func wdPath(root, rel string) string {
	p := filepath.Join(root, filepath.FromSlash(rel))
	if wd, err := os.Getwd(); err == nil {
		if r, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(r, "..") {
			p = r
		}
	}
	return shellword.Quote(p)
}

// readEntry reads the entry's bytes from entryFile, or else standard input
// (one byte past the size limit, so the engine can tell a larger entry),
// and the name errors give them.
func readEntry(env *Env, entryFile string) ([]byte, string, error) {
	if entryFile != "" {
		ef, err := textfile.Read(entryFile)
		if err != nil {
			return nil, "", usagef("--entry: %v", err)
		}
		return ef.Raw, "--entry " + entryFile, nil
	}
	raw, err := io.ReadAll(io.LimitReader(env.Stdin, textfile.MaxSize+1))
	if err != nil {
		return nil, "", usagef("reading the entry from standard input: %v", err)
	}
	return raw, "the entry on standard input", nil
}
