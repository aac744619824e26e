package loadcut

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/memcompact/memcompact/internal/outcome"
	memstore "github.com/memcompact/memcompact/internal/store"
	"github.com/memcompact/memcompact/internal/textfile"
)

// Request is one question to the load verb: what does a session load of
// this index under these limits?
type Request struct {
	Index string         // the index; "" for the current project's
	Lines int            // the line limit, DefaultLines for Claude Code's
	Units int            // the unit limit, DefaultUnits for Claude Code's
	Text  bool           // also return the memory text as Claude Code loads it
	Where memstore.Where // where the current project's index is looked for
}

// Outcome is the load verb's answer: the index it read and what loads.
type Outcome struct {
	Index    string
	Result   Result
	WithText bool // the request asked for the loaded text
	// Store is where the index was found and which rule chose it, when it
	// was found from the working directory rather than given.
	Store *memstore.Location
}

// Status is clean when everything loads, defects when anything is cut or
// hidden, or when memory is switched off (nothing loads).
func (o *Outcome) Status() outcome.Status {
	if o.Result.Lost() || o.Result.MemoryOff != "" || o.Result.IndexSkipped != "" {
		return outcome.Defects
	}
	return outcome.Clean
}

// JSON is the outcome's --json document.
func (o *Outcome) JSON() Report {
	rep := NewReport(o.Index, o.Result)
	rep.Store = o.Store
	if o.WithText {
		rep.LoadedText = &o.Result.Text
	}
	return rep
}

// Reasons load refuses or rejects a request for.
const (
	ReasonBadLimits  outcome.Reason = "bad-limits"
	ReasonNoSuchFile outcome.Reason = "no-such-file"
	ReasonNotAFile   outcome.Reason = "not-a-file"
	ReasonUnreadable outcome.Reason = "unreadable"
)

// Run reads the index and computes its load cut. A refusal or usage error
// is an *outcome.Error whose File is the index (when known); ErrorJSON
// renders it as load's --json error object.
func Run(ctx context.Context, req Request) (*Outcome, error) {
	lines, units := req.Lines, req.Units
	if lines < 1 || units < 1 {
		return nil, &outcome.Error{Status: outcome.Usage, Reason: ReasonBadLimits, Msg: "--lines and --units must be positive",
			Hints: []string{"Claude Code's limits are 200 lines and 25,000 units"}}
	}
	indexPath := req.Index
	var loc *memstore.Location
	if indexPath == "" {
		l, p, err := req.Where.LocateIndex("load")
		if l != nil && l.IndexContent != nil {
			// The index text comes from the environment; the file on
			// disk, if any, is not read.
			return offIf(&Outcome{Index: filepath.Join(l.Dir, memstore.IndexName), Result: ComputeGiven(*l.IndexContent, lines, units), WithText: req.Text, Store: l}), nil
		}
		if err != nil {
			var e *outcome.Error
			if errors.As(err, &e) {
				e.File = p
			}
			return nil, &locatedError{err, l}
		}
		indexPath, loc = p, l
	}
	f, err := textfile.Read(indexPath)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, &outcome.Error{Status: outcome.Usage, Reason: ReasonNoSuchFile, File: indexPath, Msg: fmt.Sprintf("index not found at '%s'", indexPath)}
	case errors.Is(err, textfile.ErrNotRegular):
		return nil, &outcome.Error{Status: outcome.Usage, Reason: ReasonNotAFile, File: indexPath, Msg: fmt.Sprintf("'%s' is not a file", indexPath)}
	case err != nil:
		return nil, &outcome.Error{Status: outcome.Refused, Reason: ReasonUnreadable, File: indexPath, Msg: err.Error(), Err: err}
	}
	return offIf(&Outcome{Index: indexPath, Result: ComputeSized(f.Text, len(f.Raw), lines, units), WithText: req.Text, Store: loc}), nil
}

// offIf is o with nothing loaded when the current project's sessions load
// no memory (memory switched off). An index named on the command line is
// judged as a file, whatever this project's sessions do.
func offIf(o *Outcome) *Outcome {
	switch {
	case o.Store == nil:
	case o.Store.MemoryOff != "":
		o.Result = o.Result.switchOff(o.Store.MemoryOff)
	case o.Store.IndexSkipped != "":
		o.Result = o.Result.skipIndex(o.Store.IndexSkipped)
	}
	return o
}

// locatedError is a failure to find the current project's index that
// keeps where it was looked for, for the JSON error object.
type locatedError struct {
	error
	store *memstore.Location
}

func (e *locatedError) Unwrap() error { return e.error }

// ErrorJSON is load's --json object for a Run error: its reason is the
// error's message without the file, which the object names on its own.
func ErrorJSON(err error) ErrorReport {
	r := ErrorReport{SchemaVersion: 1, Outcome: "refused", Reason: err.Error(), Hints: []string{}}
	var e *outcome.Error
	if errors.As(err, &e) {
		r.Outcome = e.Status.String()
		r.Index, r.Reason = e.File, e.Msg
		if e.Hints != nil {
			r.Hints = e.Hints
		}
	}
	var le *locatedError
	if errors.As(err, &le) {
		r.Store = le.store
	}
	return r
}
