package cli

// Shared plumbing of the MemoryCore verbs (init, budgets, set-budget,
// compact, save, restore, snapshots): finding the memory root, loading its
// policy, asking for confirmation, printing JSON.

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/jsonout"
	"github.com/memcompact/memcompact/internal/textfile"
)

// findRoot returns the memory root: --root if given, else the nearest
// directory from the working directory upward holding the policy.
func findRoot(rootFlag string) (string, error) {
	if rootFlag != "" {
		abs, err := filepath.Abs(rootFlag)
		if err != nil {
			return "", Usagef("--root %s: %v", rootFlag, err)
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return "", Usagef("--root %s: not a directory", rootFlag)
		}
		return abs, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", Refusef("cannot read the working directory: %v", err)
	}
	root, err := budget.FindRoot(wd)
	if err != nil {
		return "", &ExitError{Code: ExitRefused, Err: err, Hints: []string{"run 'memcompact init' in the memory root, or pass --root DIR"}}
	}
	return root, nil
}

// rootArgument reconciles the optional ROOT argument of init and budgets
// with --root: either may name the root, and naming two different roots is
// a usage error rather than a silent choice of one of them.
func rootArgument(verb string, pos []string, rootFlag string) (string, error) {
	switch {
	case len(pos) > 1:
		return "", Usagef("%s takes at most one ROOT", verb)
	case len(pos) == 0:
		return rootFlag, nil
	case rootFlag != "" && rootFlag != pos[0]:
		return "", Usagef("give ROOT or --root, not both")
	}
	return pos[0], nil
}

// openPolicy finds the memory root as findRoot does and loads its policy as
// loadPolicy does: the first step of every verb that works under a policy.
func openPolicy(rootFlag string) (string, *budget.Policy, error) {
	root, err := findRoot(rootFlag)
	if err != nil {
		return "", nil, err
	}
	p, err := loadPolicy(root)
	if err != nil {
		return "", nil, err
	}
	return root, p, nil
}

// loadPolicy reads root's policy; a malformed one is a refusal listing
// every bad line.
func loadPolicy(root string) (*budget.Policy, error) {
	p, _, err := loadPolicyFile(root)
	return p, err
}

// loadPolicyFile is loadPolicy that also returns the policy file as read,
// for a verb that rewrites the policy (see budget.LoadFile).
func loadPolicyFile(root string) (*budget.Policy, *textfile.File, error) {
	p, f, err := budget.LoadFile(root)
	if err == nil {
		return p, f, nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, &ExitError{Code: ExitRefused, Err: fmt.Errorf("%s: no compaction policy", filepath.Join(root, filepath.FromSlash(budget.PolicyRel))), Hints: []string{"run 'memcompact init' to create one"}}
	}
	var list budget.ErrorList
	if errors.As(err, &list) {
		return nil, nil, &ExitError{Code: ExitRefused, Err: fmt.Errorf("malformed compaction policy; nothing was changed\n%s", indentErrors(list.Error())), Hints: []string{"fix the budgets table: | File | Budget | Newest tier | Notes |, budgets as \"N lines\" or \"N chars\""}}
	}
	return nil, nil, Refusef("%v", err)
}

func indentErrors(s string) string {
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}

// budgetedFile resolves a FILE argument to its root-relative path and row.
// A file outside the root, under compaction/, or without a row is refused:
// the policy is the contract, and a file it does not name is never touched.
func budgetedFile(root string, p *budget.Policy, file string) (string, *budget.Row, error) {
	rel, err := budget.Rel(root, file)
	if err != nil {
		return "", nil, &ExitError{Code: ExitRefused, Err: err, Hints: []string{"FILE paths are relative to the working directory; the memory root is where compaction/ is"}}
	}
	if budget.Excluded(rel) {
		return "", nil, Refusef("%s: files under compaction/ are never compacted", rel)
	}
	row, ok := p.Lookup(rel)
	if !ok {
		return "", nil, &ExitError{Code: ExitRefused, Err: fmt.Errorf("%s is not in the compaction policy; a file without a budget is never compacted", rel), Hints: []string{"add it with 'memcompact set-budget " + file + " N lines'"}}
	}
	return rel, row, nil
}

// isTerminal reports whether r is an interactive terminal.
func isTerminal(r any) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	// /dev/null is a character device too, and the usual stdin of a script.
	if null, err := os.Stat(os.DevNull); err == nil && os.SameFile(fi, null) {
		return false
	}
	return true
}

// confirm asks question on the terminal and reports whether the answer was
// yes. Without a terminal it returns a refusal naming the --yes flag, since
// silence from a script must never count as consent.
func confirm(env *Env, question string) error {
	if !isTerminal(env.Stdin) {
		return &ExitError{Code: ExitRefused, Err: errors.New(question + " (confirmation needed, and there is no terminal to ask)")}
	}
	fmt.Fprintf(env.Stderr, "%s [y/N] ", question)
	line, _ := bufio.NewReader(env.Stdin).ReadString('\n')
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return nil
	}
	return Refusef("not confirmed; nothing was changed")
}

// printJSON prints v as indented JSON on stdout.
func printJSON(env *Env, v any) error { return jsonout.Write(env.Stdout, v) }

// jsonRefusal prints a refusal as JSON on stdout (the message still goes to
// stderr), so a --json caller always gets a JSON object.
type jsonError struct {
	SchemaVersion int    `json:"schema_version"`
	Status        string `json:"status"`
	Code          int    `json:"code"`
	Error         string `json:"error"`
}

// withJSONError renders err as a JSON object when asJSON and err carries a
// code, then returns it unchanged.
func withJSONError(env *Env, asJSON bool, err error) error {
	var ee *ExitError
	if !asJSON || err == nil || !errors.As(err, &ee) || ee.Err == nil || ee == errHelp {
		return err
	}
	status := map[int]string{ExitDefects: "failed", ExitRefused: "refused", ExitUsage: "usage"}[ee.Code]
	printJSON(env, jsonError{SchemaVersion: 1, Status: status, Code: ee.Code, Error: ee.Err.Error()})
	return err
}
