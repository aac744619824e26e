package cli

// Shared plumbing of the faces of the MemoryCore verbs (init, budgets,
// set-budget, compact, save, restore, snapshots): turning an engine's
// refusal into an exit code and hints, asking for confirmation, printing
// JSON.

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/jsonout"
	"github.com/memcompact/memcompact/internal/outcome"
)

// rootHints replace the engine's hint for a reason every budget verb
// shares: on the command line, the root is named with --root.
var rootHints = map[outcome.Reason]string{
	budget.ReasonNoRoot: "run 'memcompact init' in the memory root, or pass --root DIR",
}

// fail turns an engine's error into the CLI's: its status is the exit code,
// and its hints are the engine's own, or the face's for its reason (from
// hints, else rootHints; "" is none) in their place: a command to paste
// rather than the engine's words. An error that is not an *outcome.Error
// is a refusal.
func fail(err error, hints map[outcome.Reason]string) error {
	if err == nil {
		return nil
	}
	var oe *outcome.Error
	if !errors.As(err, &oe) {
		return &exitError{Code: exitRefused, Err: err}
	}
	h := slices.Clone(oe.Hints)
	s, ok := hints[oe.Reason]
	if !ok {
		s, ok = rootHints[oe.Reason]
	}
	if ok {
		h = nil
		if s != "" {
			h = []string{s}
		}
	}
	return &exitError{Code: int(oe.Status), Err: oe, Hints: h}
}

// rootArgument reconciles the optional ROOT argument of init and budgets
// with --root: either may name the root, and naming two different roots is
// a usage error rather than a silent choice of one of them.
func rootArgument(verb string, pos []string, rootFlag string) (string, error) {
	switch {
	case len(pos) > 1:
		return "", usagef("%s takes at most one ROOT", verb)
	case len(pos) == 0:
		return rootFlag, nil
	case rootFlag != "" && rootFlag != pos[0]:
		return "", usagef("give ROOT or --root, not both")
	}
	return pos[0], nil
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

// ask asks question on the terminal and reports whether the answer was yes.
func ask(env *Env, question string) bool {
	fmt.Fprintf(env.Stderr, "%s [y/N] ", question)
	line, _ := bufio.NewReader(env.Stdin).ReadString('\n')
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true
	}
	return false
}

// withJSONError renders err as the memory-root error object
// (jsonout.RootError) on stdout when asJSON and err carries a code, then
// returns it unchanged: the message still goes to stderr, and a --json
// caller always gets a JSON object.
func withJSONError(env *Env, asJSON bool, err error) error {
	var ee *exitError
	if !asJSON || err == nil || !errors.As(err, &ee) || ee.Err == nil || ee == errHelp {
		return err
	}
	printJSON(env, jsonout.RootErrorOf(outcome.Status(ee.Code), ee.Err.Error()))
	return err
}
