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
	var req budget.SetRequest
	var asJSON bool
	newest := -1
	fset := newFlagSet("set-budget")
	fset.StringVar(&req.Root, "root", "", "the memory root (the directory holding compaction/)")
	fset.IntVar(&newest, "newest", -1, "how many newest entries stay verbatim")
	fset.BoolVar(&asJSON, "json", false, "print the result as JSON")
	psflag.Alias(fset, "json", "Json")
	pos, err := parseFlags(env, fset, args)
	if err != nil {
		return err
	}
	defer func() { err = withJSONError(env, asJSON, err) }()
	if len(pos) == 2 {
		// "450 lines" as one argument.
		if f := strings.Fields(pos[1]); len(f) == 2 {
			pos = []string{pos[0], f[0], f[1]}
		}
	}
	if len(pos) != 3 {
		return &exitError{Code: exitUsage, Err: fmt.Errorf("set-budget needs FILE, a number and a unit"), Hints: []string{"usage: memcompact " + setBudgetUsage}}
	}
	req.File, req.Budget, req.Unit = pos[0], pos[1], pos[2]
	if newest != -1 || psflag.Given(fset, "newest") {
		req.Newest = &newest
	}
	res, err := budget.SetBudget(context.Background(), req)
	if err != nil {
		return fail(err, nil)
	}
	if asJSON {
		return printJSON(env, res)
	}
	res.WriteText(env.Stdout)
	return nil
}
