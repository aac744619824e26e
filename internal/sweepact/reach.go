package sweepact

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"

	"github.com/memcompact/memcompact/internal/filecache"
	"github.com/memcompact/memcompact/internal/sweep"
)

// ReachRequest asks what a sweep plan would bring an index to.
type ReachRequest struct {
	Plan PlanRequest
	// NoCache plans afresh instead of trusting the figure an earlier run
	// remembered for the same files.
	NoCache bool
	// Stats is the run's stat of each file, shared with the other parts
	// of the run (nil: stat here).
	Stats *filecache.Stats
}

// reachVersion changes whenever the plan's figures could change for the
// same files; the executable's own stamp is part of the version too, so
// another build of memcompact never trusts this one's figures.
const reachVersion = "1"

// RunReach is the After figures of RunPlan(req.Plan): the size of the
// index the plan would leave. Doctor and the session-start hook give this
// figure for every cut index, so it is remembered (package filecache)
// with the stamp of every file a plan reads — every entry of the store's
// directory (the index, the ledger, the slate, the archive, the policy,
// the bodies; an added or removed file changes the set) and the recall
// log — and reused only while every one of them is unchanged. Any
// difference plans afresh; a corrupt or unwritable cache is never
// reported.
func RunReach(req ReachRequest) (*Figures, error) {
	var cache *filecache.Cache
	var in filecache.Inputs
	key := req.Plan.AsOf.String() + " " + strconv.Itoa(req.Plan.TargetUnits)
	if !req.NoCache {
		if dir, paths, ok := planInputs(req.Plan.Index); ok {
			in = req.Stats.StampAll(paths)
			cache = filecache.Open("sweep-reach "+dir, reachVersion+" "+filecache.BuildStamp())
			if data, ok := cache.Recall(key, in); ok {
				var f reachRecord
				if json.Unmarshal(data, &f) == nil && f.Figures != nil {
					return f.Figures, nil
				}
			}
		}
	}
	pl, err := runPlan(req.Plan)
	if err != nil {
		return nil, err
	}
	if data, err := json.Marshal(reachRecord{Figures: &pl.After}); err == nil && cache != nil {
		cache.Remember(key, in, data)
		cache.Save()
	}
	return &pl.After, nil
}

// runPlan is RunPlan; tests count its calls.
var runPlan = RunPlan

type reachRecord struct {
	Figures *Figures `json:"after"`
}

// planInputs lists every file a plan of the index reads: each entry of
// the store's directory and the recall log.
func planInputs(indexPath string) (dir string, paths []string, ok bool) {
	p, err := sweep.ResolvePaths(indexPath, "", "", "")
	if err != nil {
		return "", nil, false
	}
	des, err := os.ReadDir(p.Dir)
	if err != nil {
		return "", nil, false
	}
	paths = make([]string, 0, len(des)+1)
	for _, de := range des {
		paths = append(paths, filepath.Join(p.Dir, de.Name()))
	}
	return p.Dir, append(paths, filepath.Join(p.Dir, RecallRel)), true
}
