package sweepact

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/memcompact/memcompact/internal/jsonout"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/sweep"
	"github.com/memcompact/memcompact/internal/textfile"
)

// DefaultPlanRel is where plan writes the plan file by default, inside the store.
const DefaultPlanRel = ".memcompact/sweep-plan.json"

// EncodePlan renders a plan as the editable JSON file.
func EncodePlan(pl *Plan) []byte {
	var b bytes.Buffer
	if err := jsonout.Write(&b, pl); err != nil {
		panic(err) // only our own struct is encoded
	}
	return b.Bytes()
}

// WritePlan writes the plan file as every writer writes (sweep.WriteOutput):
// under the store's lock, never through a symlink leading out of the
// store, by atomic replace. A plan read from this file (ReadPlan) replaces
// only the bytes it was read from, so an edit the owner made to the file
// meanwhile is refused, never overwritten; a new plan replaces any earlier
// one.
func WritePlan(path string, pl *Plan) error {
	var prior *string
	if pl.readFrom != "" && pl.readFrom == absPath(path) {
		prior = &pl.readDigest
	}
	d, err := sweep.WriteOutput(context.Background(), filepath.Dir(pl.Index), path, prior, func() ([]byte, error) {
		return EncodePlan(pl), nil
	})
	if err == nil && prior != nil {
		pl.readDigest = d
	}
	return err
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// ReadPlan reads and validates a plan file: its kind and version, every
// disposition and decision spelled as the plan spells them, no subject
// twice, every dedupe naming its survivor. It does not compare the plan
// with the store; Apply does that under the lock.
func ReadPlan(path string) (*Plan, error) {
	f, err := textfile.Read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &outcome.Error{Status: outcome.Usage, Reason: ReasonNoPlan, Msg: "no sweep plan at '" + path + "'",
			Hints: []string{"make one first: 'memcompact sweep plan INDEX' (the sweep_plan tool over MCP) writes it, " + DefaultPlanRel + " beside the index"}}
	}
	if err != nil {
		return nil, refusef(ReasonPlanInvalid, path, "the plan could not be read: %v", cause(err))
	}
	if t := strings.TrimSpace(f.Text); t != "" && t[0] != '{' {
		// Most often the index itself, given where the plan belongs.
		return nil, refusef(ReasonPlanInvalid, path, "not a sweep plan (a plan is the JSON file 'memcompact sweep plan' writes, by default %s beside the index); apply and review take that file, or --index INDEX for the store's default plan", DefaultPlanRel)
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(f.Text)))
	dec.DisallowUnknownFields()
	var pl Plan
	if err := dec.Decode(&pl); err != nil {
		e := refusef(ReasonPlanInvalid, path, "not a sweep plan: %v", err)
		e.Line, e.Msg = jsonErrorAt(f.Text, dec, err, e.Msg)
		return nil, e
	}
	if err := validatePlan(&pl); err != nil {
		e := refusef(ReasonPlanInvalid, path, "%v", err)
		if se := (*subjectError)(nil); errors.As(err, &se) {
			e.Line = subjectLine(f.Text, se.n)
		}
		return nil, e
	}
	pl.readFrom, pl.readDigest = absPath(path), f.Digest
	return &pl, nil
}

// jsonErrorAt locates a decoding error in the plan's text for an owner who
// edited it by hand: the line of the error (0 when unknown) and the message
// with its column, and for a misspelt field the fields a subject takes.
func jsonErrorAt(text string, dec *json.Decoder, err error, msg string) (int, string) {
	off := dec.InputOffset()
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
		want := map[reflect.Kind]string{reflect.Int: "a whole number", reflect.Bool: "true or false", reflect.String: "text in quotes",
			reflect.Slice: "a list [...]", reflect.Struct: "an object {...}", reflect.Pointer: "a number or null"}[te.Type.Kind()]
		if te.Field != "" && want != "" {
			msg = fmt.Sprintf("not a sweep plan: %s must be %s, found %s", te.Field, want, te.Value)
		}
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		// The decoder reports no offset for it: the field's first
		// occurrence as a key is where the owner typed it.
		name := strings.TrimPrefix(err.Error(), "json: unknown field ")
		off = -1
		if i := strings.Index(text, name+":"); i >= 0 {
			off = int64(i) + 1
		} else if i := strings.Index(text, name); i >= 0 {
			off = int64(i) + 1
		}
		msg += "; check its spelling (a subject's fields: identity, name, population, line, disposition, decision, reason, evidence, critical, critical_why, assess, destination, lesson_probe, destination_landed, into, until, duplicate_lines, units, recalls, loads_now)"
	}
	if off <= 0 || off > int64(len(text)) {
		return 0, msg
	}
	before := text[:off]
	line := strings.Count(before, "\n") + 1
	col := len(before) - strings.LastIndexByte(before, '\n')
	return line, fmt.Sprintf("%s (column %d)", msg, col)
}

// subjectError is a validation error about the plan's n-th subject
// (1-based), so a refusal can name the line the owner edits.
type subjectError struct {
	n   int
	msg string
}

func (e *subjectError) Error() string { return e.msg }

func subjectErr(n int, format string, a ...any) error {
	return &subjectError{n: n, msg: fmt.Sprintf(format, a...)}
}

// subjectLine is the line of the n-th subject's "identity" key in a plan
// file's text, or 0.
func subjectLine(text string, n int) int {
	off := 0
	for k := 0; k < n; k++ {
		i := strings.Index(text[off:], `"identity"`)
		if i < 0 {
			return 0
		}
		off += i + 1
	}
	return strings.Count(text[:off], "\n") + 1
}

func validatePlan(pl *Plan) error {
	if pl.Kind != PlanKind || pl.SchemaVersion != PlanVersion {
		return fmt.Errorf("not a sweep plan: kind %q version %d; this memcompact reads %q version %d", pl.Kind, pl.SchemaVersion, PlanKind, PlanVersion)
	}
	if pl.IndexSHA256 == "" || pl.Index == "" {
		return fmt.Errorf("the plan names no index or carries no index digest; make a new plan with 'memcompact sweep plan'")
	}
	if _, ok := records.ParseDate(pl.PlannedOn); !ok {
		return fmt.Errorf("planned_on %q is not a yyyy-MM-dd date", pl.PlannedOn)
	}
	ids := map[string]int{}
	for i, s := range pl.Subjects {
		n := i + 1
		if _, why := records.ParseIdentity(s.Identity, records.MaxDate); why != "" {
			return subjectErr(n, "subject %d: %s", n, why)
		}
		if j, dup := ids[s.Identity]; dup {
			return subjectErr(n, "subject %d: '%s' is planned twice (also subject %d); one subject takes one disposition", n, s.Identity, j)
		}
		ids[s.Identity] = n
		if !slices.Contains(PlanDispositions, s.Disposition) {
			return subjectErr(n, "subject %d (%s): unknown disposition %q; one of %v", n, s.Identity, s.Disposition, PlanDispositions)
		}
		switch s.Decision {
		case Pending, Accepted, Rejected:
		default:
			return subjectErr(n, "subject %d (%s): unknown decision %q; one of pending, accepted, rejected", n, s.Identity, s.Decision)
		}
		switch s.Critical {
		case "", "yes", "no":
		default:
			return subjectErr(n, "subject %d (%s): critical must be yes, no or empty; found %q", n, s.Identity, s.Critical)
		}
		if s.Disposition == "dedupe-into" && s.Into == "" {
			return subjectErr(n, "subject %d (%s): dedupe-into names no surviving entry in 'into'", n, s.Identity)
		}
		if s.Disposition == "keep-hot-with-expiry" {
			if _, ok := records.ParseDate(s.Until); !ok {
				return subjectErr(n, "subject %d (%s): keep-hot-with-expiry needs 'until' as a yyyy-MM-dd date; found %q", n, s.Identity, s.Until)
			}
		}
	}
	for _, s := range pl.Subjects {
		if s.Disposition == "dedupe-into" && ids[s.Into] == 0 {
			return fmt.Errorf("%s: dedupe-into names '%s', which is not a subject of this plan", s.Identity, s.Into)
		}
	}
	return nil
}
