package drift

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/store"
)

// Request is one drift question: which store, as of which day.
type Request struct {
	Store string      // the store directory or its index; "" for the current project's
	Today time.Time   // the day the ledger's exits are judged in force on
	Where store.Where // where the current project's store is looked for
}

// Reasons drift refuses or rejects a request for.
const (
	ReasonNoSuchStore outcome.Reason = "no-such-store"
	ReasonNoIndex     outcome.Reason = "no-index-in-store"
	ReasonUnreadable  outcome.Reason = "unreadable"
)

// Usage is the verb's synopsis, which its usage errors repeat.
const Usage = "drift [--json] [STORE]"

// Run compares the store's entry files with its index's pointers.
func Run(ctx context.Context, req Request) (*Result, error) {
	path := req.Store
	if path != "" {
		if _, err := os.Stat(path); err != nil {
			return nil, &outcome.Error{Status: outcome.Usage, Reason: ReasonNoSuchStore, Msg: fmt.Sprintf("%s: no such store or index file", path),
				Hints: []string{"usage: memcompact " + Usage}}
		}
	} else {
		index, err := req.Where.DefaultIndex("drift")
		if err != nil {
			return nil, err
		}
		path = index
	}
	res, err := Compute(path, records.DateOf(req.Today))
	switch {
	case errors.Is(err, ErrNoIndex):
		return nil, &outcome.Error{Status: outcome.Usage, Reason: ReasonNoIndex, Msg: err.Error(), Err: err,
			Hints: []string{"a store is the directory holding MEMORY.md; or name the index file itself"}}
	case errors.Is(err, fs.ErrNotExist):
		return nil, &outcome.Error{Status: outcome.Usage, Reason: ReasonNoSuchStore, Msg: err.Error(), Err: err}
	case err != nil:
		return nil, &outcome.Error{Status: outcome.Refused, Reason: ReasonUnreadable, Msg: err.Error(), Err: err}
	}
	return res, nil
}

// Status is clean when there is no drift, defects when there is.
func (r *Result) Status() outcome.Status {
	if r.Drifted() {
		return outcome.Defects
	}
	return outcome.Clean
}

// ErrorJSON is drift's --json object for a Run error.
func ErrorJSON(err error) JSONError {
	return JSONError{Version: JSONVersion, Result: outcome.StatusOf(err).String(), Reason: outcome.MessageOf(err)}
}
