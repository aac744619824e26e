package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/psflag"
)

const setBudgetUsage = "set-budget FILE N lines|chars [--newest N] [--root DIR] [--json]"

func init() {
	register(setBudgetUsage, runSetBudget)
}

func runSetBudget(env *Env, args []string) (err error) {
	fset := newFlagSet("set-budget")
	root := rootFlag(fset)
	newest := fset.Int("newest", -1, "how many newest entries stay verbatim")
	asJSON := jsonFlag(fset, "print the result as JSON")
	pos, err := parseFlags(env, fset, args)
	if err != nil {
		return err
	}
	defer func() { err = withJSONError(env, *asJSON, err) }()
	if len(pos) == 2 {
		// "450 lines" as one argument.
		if f := strings.Fields(pos[1]); len(f) == 2 {
			pos = []string{pos[0], f[0], f[1]}
		}
	}
	if len(pos) != 3 {
		return &exitError{Code: exitUsage, Err: fmt.Errorf("set-budget needs FILE, a number and a unit"), Hints: []string{"usage: memcompact " + setBudgetUsage}}
	}
	req := budget.SetRequest{Root: *root, File: pos[0], Budget: pos[1], Unit: pos[2]}
	if *newest != -1 || psflag.Given(fset, "newest") {
		req.Newest = newest
	}
	res, err := budget.SetBudget(context.Background(), req)
	return show(env, *asJSON, res, err, nil)
}
