package sweepact

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/jsonout"
	"github.com/memcompact/memcompact/internal/records"
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

// WritePlan writes the plan file atomically, replacing an earlier plan.
func WritePlan(path string, pl *Plan) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	want := ""
	switch old, err := textfile.Read(path); {
	case err == nil:
		want = old.Digest
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	return atomicfile.Replace(path, EncodePlan(pl), want)
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
