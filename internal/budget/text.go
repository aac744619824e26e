package budget

import (
	"fmt"
	"io"
)

// WriteText prints what set-budget did to the file's row: added it, left
// it as it was, or changed it (with the values it had before).
func (res *SetResult) WriteText(w io.Writer) {
	switch res.Action {
	case ActionAdded:
		fmt.Fprintf(w, "Added %s to %s: %s, newest tier last %d entries (line %d).\n", res.File, res.Policy, res.New.BudgetText(), res.Newest, res.Line)
	case ActionUnchanged:
		fmt.Fprintf(w, "%s already has %s, newest tier last %d entries; nothing changed.\n", res.File, res.New.BudgetText(), res.Newest)
	default:
		fmt.Fprintf(w, "Set %s to %s, newest tier last %d entries (was %s, last %d; line %d of %s).\n", res.File, res.New.BudgetText(), res.Newest, res.Old.BudgetText(), res.Old.Newest, res.Line, res.Policy)
	}
}

// WriteText prints what init did (each action, or that nothing changed)
// and the budget report after it.
func (res *InitResult) WriteText(w io.Writer) {
	if res.Changed {
		for _, a := range res.Actions {
			fmt.Fprintf(w, "init: %s\n", a)
		}
		fmt.Fprintf(w, "Memory compaction is set up in %s. Nothing was compacted. Budgets now:\n", res.Root)
	} else {
		fmt.Fprintf(w, "Memory compaction was already set up in %s; nothing changed. Budgets now:\n", res.Root)
	}
	io.WriteString(w, res.Budgets.Text())
}
