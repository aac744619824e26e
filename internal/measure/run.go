package measure

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/textfile"
)

// Request is one measure question: measure Path, or validate the record
// Validate. Give exactly one.
type Request struct {
	Path     string
	Validate string
	AsOf     string    // yyyy-MM-dd stamped on a measurement; "" for Today
	Today    time.Time // the local date
	Home     string    // the home directory, for the home-relative surface
}

// Result is a measurement, or the verdict on a record.
type Result struct {
	Measurement *Measurement
	Verdict     *Verdict
}

// Status is defects for a non-conforming record, else clean.
func (r *Result) Status() outcome.Status {
	if r.Verdict != nil && !r.Verdict.Conforming() {
		return outcome.Defects
	}
	return outcome.Clean
}

// JSON is the result's --json document.
func (r *Result) JSON() any {
	if r.Verdict != nil {
		return r.Verdict
	}
	return r.Measurement
}

// WriteText prints the result as the reference script does: the verdict
// on a record and its problems, or the measurement's row.
func (r *Result) WriteText(w io.Writer) {
	if v := r.Verdict; v != nil {
		fmt.Fprintf(w, "RESULT: %s\n", v.Result)
		for _, p := range v.Problems {
			fmt.Fprintf(w, "  - %s\n", p)
		}
		return
	}
	fmt.Fprintln(w, r.Measurement.Row())
}

// Reasons measure rejects a request for. ReasonNoFile is printed as text
// even under --json, as the reference script prints it.
const (
	ReasonUsage      outcome.Reason = "usage"
	ReasonNoFile     outcome.Reason = "no-file"
	ReasonUnreadable outcome.Reason = "unreadable"
)

// UsageJSON is the reference script's JSON form of a usage error.
type UsageJSON struct {
	Result string `json:"result"`
	Reason string `json:"reason"`
}

// ErrorJSON is measure's --json object for a usage error from Run.
func ErrorJSON(err error) UsageJSON {
	return UsageJSON{Result: "usage-error", Reason: outcome.MessageOf(err)}
}

// WriteErrorText prints a usage error from Run as the reference script
// does, the text form of ErrorJSON.
func WriteErrorText(w io.Writer, err error) {
	fmt.Fprintf(w, "RESULT: usage-error\nreason: %s\n", outcome.MessageOf(err))
}

func usage(format string, a ...any) error {
	return &outcome.Error{Status: outcome.Usage, Reason: ReasonUsage, Msg: fmt.Sprintf(format, a...)}
}

// Run measures or validates.
func Run(ctx context.Context, req Request) (*Result, error) {
	switch {
	case req.Path != "" && req.Validate != "":
		return nil, usage("supply -Path or -Validate, not both")
	case req.Validate != "":
		v := Validate(req.Validate)
		return &Result{Verdict: &v}, nil
	case req.Path == "":
		return nil, usage("supply -Path to measure a destination, or -Validate to check a measurement record")
	}
	date := req.Today
	if req.AsOf != "" {
		d, ok := textfile.ParseDate(req.AsOf)
		if !ok {
			return nil, usage("-AsOf must be a real date in yyyy-MM-dd form; found '%s'", req.AsOf)
		}
		date = d
	}
	// A missing path, or one that is not a regular file, is a usage error
	// printed as text even under -Json, as the reference script prints it.
	if fi, err := os.Stat(req.Path); err != nil || !fi.Mode().IsRegular() {
		return nil, &outcome.Error{Status: outcome.Usage, Reason: ReasonNoFile, Msg: fmt.Sprintf("no file at '%s'", req.Path)}
	}
	m, err := Measure(req.Path, date, req.Home)
	if err != nil {
		return nil, &outcome.Error{Status: outcome.Refused, Reason: ReasonUnreadable, Msg: fmt.Sprintf("%s: %v", req.Path, errors.Unwrap(err)), Err: err,
			Hints: []string{"the file exists but could not be read, so nothing was measured"}}
	}
	return &Result{Measurement: &m}, nil
}
