package sweepact

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/memcompact/memcompact/internal/jsonout"
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
	if err != nil {
		return nil, refusef(ReasonPlanInvalid, path, "the plan could not be read: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(f.Text)))
	dec.DisallowUnknownFields()
	var pl Plan
	if err := dec.Decode(&pl); err != nil {
		return nil, refusef(ReasonPlanInvalid, path, "not a sweep plan: %v", err)
	}
	if err := validatePlan(&pl); err != nil {
		return nil, refusef(ReasonPlanInvalid, path, "%v", err)
	}
	pl.readFrom, pl.readDigest = absPath(path), f.Digest
	return &pl, nil
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
			return fmt.Errorf("subject %d: %s", n, why)
		}
		if j, dup := ids[s.Identity]; dup {
			return fmt.Errorf("subject %d: '%s' is planned twice (also subject %d); one subject takes one disposition", n, s.Identity, j)
		}
		ids[s.Identity] = n
		if !slices.Contains(PlanDispositions, s.Disposition) {
			return fmt.Errorf("subject %d (%s): unknown disposition %q; one of %v", n, s.Identity, s.Disposition, PlanDispositions)
		}
		switch s.Decision {
		case Pending, Accepted, Rejected:
		default:
			return fmt.Errorf("subject %d (%s): unknown decision %q; one of pending, accepted, rejected", n, s.Identity, s.Decision)
		}
		switch s.Critical {
		case "", "yes", "no":
		default:
			return fmt.Errorf("subject %d (%s): critical must be yes, no or empty; found %q", n, s.Identity, s.Critical)
		}
		if s.Disposition == "dedupe-into" && s.Into == "" {
			return fmt.Errorf("subject %d (%s): dedupe-into names no surviving entry in 'into'", n, s.Identity)
		}
		if s.Disposition == "keep-hot-with-expiry" {
			if _, ok := records.ParseDate(s.Until); !ok {
				return fmt.Errorf("subject %d (%s): keep-hot-with-expiry needs 'until' as a yyyy-MM-dd date; found %q", n, s.Identity, s.Until)
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
