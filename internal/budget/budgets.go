package budget

import (
	"context"

	"github.com/memcompact/memcompact/internal/outcome"
)

// Request asks for the budgets report of a memory root.
type Request struct {
	// Root is the memory root; "" means the nearest one from the working
	// directory upward.
	Root string
}

// Result is the budgets verdict: the report (its JSON is the report's) and
// the status it implies.
type Result struct {
	*Report
	// Outcome is Refused if a file could not be measured, else Defects if
	// any is over budget, else Clean.
	Outcome outcome.Status `json:"-"`
}

// Run measures every budgeted file of the root against its budget: the
// budgets verb.
func Run(_ context.Context, req Request) (*Result, error) {
	root, p, err := Open(req.Root)
	if err != nil {
		return nil, err
	}
	rep := Check(root, p)
	return &Result{Report: rep, Outcome: rep.status()}, nil
}

// status is the outcome a report implies.
func (r *Report) status() outcome.Status {
	switch {
	case r.Errors > 0:
		return outcome.Refused
	case r.Over > 0:
		return outcome.Defects
	}
	return outcome.Clean
}
