package sweepact

import (
	"context"
	"path/filepath"
	"time"
)

// PlanFileRequest is the "sweep plan" verb: a plan, written to its file,
// and with Record its proposals appended to the ledger.
type PlanFileRequest struct {
	PlanRequest
	Out      string        // the plan file; "" for DefaultPlanRel in the store
	Record   bool          // append a 'proposed' ledger record per proposed move
	LockWait time.Duration // how long Record waits for the store's lock
}

// PlanFileResult is the plan made, where it was written, and how many
// proposals were recorded.
type PlanFileResult struct {
	Plan     *Plan
	Path     string
	Recorded int
}

// RunPlanFile makes the plan (RunPlan), writes it to its file, and with
// Record appends the proposals (RunRecordProposals). The plan file is
// written before any proposal is recorded, so a refused record leaves a
// plan the owner can still review; the result is returned with that error.
func RunPlanFile(_ context.Context, req PlanFileRequest) (*PlanFileResult, error) {
	req.RecordLedger = req.Record // a ledger that cannot take the proposals is refused before the plan is written
	pl, err := RunPlan(req.PlanRequest)
	if err != nil {
		return nil, err
	}
	res := &PlanFileResult{Plan: pl, Path: req.Out}
	if res.Path == "" {
		res.Path = filepath.Join(filepath.Dir(pl.Index), DefaultPlanRel)
	}
	if err := WritePlan(res.Path, pl); err != nil {
		return nil, refusef(ReasonWrite, res.Path, "the plan could not be written: %v", err)
	}
	if req.Record {
		if res.Recorded, err = RunRecordProposals(pl, req.AsOf, req.LockWait); err != nil {
			return res, err
		}
	}
	return res, nil
}
