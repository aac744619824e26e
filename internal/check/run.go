package check

import (
	"context"
	"errors"
	"time"

	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/reference"
	"github.com/memcompact/memcompact/internal/store"
)

// Request is one check: an index and the reference copy to compare it
// against.
type Request struct {
	Index     string      // the index; "" for the current project's
	Reference string      // the reference copy's path; "" to resolve it as reference.Resolve does
	Today     time.Time   // the date the size axis reasons from
	Where     store.Where // where the current project's index and the installed reference are looked for
}

// Run checks the requested index. The check renders every outcome as a
// report, refusals and usage errors included (the reference script's
// contract), so Run always returns one; when the request itself is wrong
// it also returns an *outcome.Error carrying the hints.
func Run(ctx context.Context, req Request) (*Report, error) {
	index := req.Index
	if index == "" {
		found, err := req.Where.DefaultIndex("check")
		if err != nil {
			return UsageReport(found, err), err
		}
		index = found
	}
	getenv := req.Where.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	src := reference.Resolve(req.Reference, getenv, req.Where.Home)
	return Evaluate(Options{
		IndexPath: index,
		Reference: Reference{Display: src.Display, Path: src.Path, Text: src.Text},
		Today:     req.Today,
	}), nil
}

// UsageReport is the report of a check that could not start: err's
// message is its reason.
func UsageReport(index string, err error) *Report {
	reason := err.Error()
	var e *outcome.Error
	if errors.As(err, &e) {
		reason = e.Msg
	}
	return &Report{Result: UsageError, Index: index, Reason: reason}
}
