package sweepact

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/crashpoint"
	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/snapshot"
	"github.com/memcompact/memcompact/internal/sweep"
)

// Store-relative places the sweep writes besides the record files.
const (
	SnapshotsRel = ".memcompact/snapshots"
	SweepsRel    = ".memcompact/sweeps"
	ArchiveDir   = "archive"
)

// ApplyRequest asks for a plan to be executed.
type ApplyRequest struct {
	PlanPath string // the plan file; or
	Plan     *Plan  // a plan already read (the MCP face)
	Yes      bool   // the owner's yes to every pending decision
	// Decisions are the owner's answers given with the request (the MCP
	// face); they are applied to the plan, and saved into its file.
	Decisions []Decision
	// DryRun gates every act and returns what would be done, writing
	// nothing.
	DryRun bool
	AsOf   records.Date
	// AdmissionLandedOn is when the store's admission rule landed; it is
	// required only for remove-fails-admission.
	AdmissionLandedOn records.Date
	LockWait          time.Duration
	Home              string // for a destination written ~/…
	Now               func() time.Time
}

// Act is one executed (or refused) disposition.
type Act struct {
	Identity    string `json:"identity"`
	Disposition string `json:"disposition"`
	Done        bool   `json:"done"`
	Detail      string `json:"detail"`
}

// ApplyResult is what a sweep did.
type ApplyResult struct {
	Index     string                 `json:"index"`
	Acts      []Act                  `json:"acts"`
	Refusals  []Act                  `json:"refusals"`
	Assessed  int                    `json:"assessed"`
	Bound     []string               `json:"bound"`
	Snapshot  string                 `json:"snapshot"`
	Artifact  string                 `json:"inventory_artifact"`
	Before    Figures                `json:"before"`
	After     Figures                `json:"after"`
	Partition *sweep.PartitionReport `json:"partition"`
	// Held are the promotions not taken: each subject stays, with a
	// landing row in the slate.
	Held []Held `json:"held"`
	// LedgerRepaired counts this sweep's records another writer removed
	// from LEDGER.md during the sweep (by replacing the file) and the
	// sweep appended again.
	LedgerRepaired int `json:"ledger_rows_appended_again"`
}

// ExitCode is an apply's exit code once it has swept: 0 when the partition
// is accounted and nothing was held, 1 when it swept with findings (a
// subject the partition cannot verify or account for, a promotion held).
// A refusal (nothing written) is 2, from its error.
func (r *ApplyResult) ExitCode() int {
	if len(r.Held) > 0 || (r.Partition != nil && r.Partition.Result != sweep.ResultAccounted) {
		return 1
	}
	return 0
}

// act is an act being prepared: its subject, and what the index rewrite
// takes out for it.
type act struct {
	sub  Subject
	body *body
	kind string // the disposition, or "duplicates" for a keep with duplicate pointers
	cuts []Cut
	// hooks are a duplicate pointer's hooks carried over to the pointer
	// that stays.
	hooks []string
}

// RunApply executes a plan's decided dispositions on its store, record before
// act, each behind its gate, under the store's lock; then it runs the
// partition check against the enumeration it took before the first act.
// A refusal (a stale plan, a pending decision without a yes, a gate that
// refuses, a rebuild that would trim a hook) comes before any write.
func RunApply(ctx context.Context, req ApplyRequest) (*ApplyResult, error) {
	pl := req.Plan
	if pl == nil {
		var err error
		if pl, err = ReadPlan(req.PlanPath); err != nil {
			return nil, err
		}
	} else if err := validatePlan(pl); err != nil {
		return nil, refusef(ReasonPlanInvalid, "", "%v", err)
	}
	if len(req.Decisions) > 0 {
		if err := Decide(pl, req.Decisions); err != nil {
			// The decisions are the request's own values: a usage error.
			return nil, &outcome.Error{Status: outcome.Usage, Reason: ReasonBadArg, Msg: "decisions: " + err.Error()}
		}
		if req.PlanPath != "" && !req.DryRun {
			if err := WritePlan(req.PlanPath, pl); err != nil {
				return nil, refusef(ReasonWrite, req.PlanPath, "the decisions could not be saved: %v", err)
			}
		}
	}
	if req.Now == nil {
		req.Now = time.Now
	}
	dir := filepath.Dir(pl.Index)
	release, err := lockStore(ctx, dir, req.LockWait)
	if err != nil {
		return nil, err
	}
	defer release()

	s, err := readStore(pl.Index, req.AsOf, nil)
	if err != nil {
		return nil, err
	}
	if s.index.Digest != pl.IndexSHA256 {
		return nil, refusef(ReasonStale, pl.Index, "the index changed since the plan was made (digest %s, the plan was made against %s); make a new plan", short(s.index.Digest), short(pl.IndexSHA256))
	}
	acts, err := prepare(s, pl, req)
	if err != nil {
		return nil, err
	}
	acts, held := holdPromotions(s, pl, acts, req)
	newLines, err := rewritten(s, acts)
	if err != nil {
		return nil, err
	}
	res := &ApplyResult{Index: pl.Index, Acts: []Act{}, Refusals: []Act{}, Bound: []string{}, Held: held}
	if res.Held == nil {
		res.Held = []Held{}
	}
	res.Before, _ = figures(s.lines, pl.Target)
	if refusals := preflight(s, pl, acts, req); len(refusals) > 0 {
		res.Refusals = refusals
		return res, &outcome.Error{Status: outcome.Refused, Reason: ReasonGate, File: pl.Index,
			Msg:   fmt.Sprintf("%d act(s) refused by their gates; nothing was written: %s — %s", len(refusals), refusals[0].Identity, refusals[0].Detail),
			Hints: []string{"change or reject those subjects in the plan (memcompact sweep review), then apply again"}}
	}
	if err := recordsWritable(dir, s.paths.Archive, []regionFile{ledgerFile(s.paths.Ledger), slateFile(s.paths.Slate)}, writeTargets(s, pl, acts)...); err != nil {
		return res, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if req.DryRun {
		for _, a := range acts {
			res.Acts = append(res.Acts, Act{Identity: a.sub.Identity, Disposition: a.kind, Detail: "would be taken: " + a.sub.Reason})
		}
		res.After, _ = figures(newLines, pl.Target)
		return res, nil
	}

	// From here on every step writes. Snapshot first.
	today := dateTime(req.AsOf)
	snapDir := filepath.Join(dir, SnapshotsRel)
	want, err := snapshot.Next(snapDir, filepath.Base(pl.Index), today, req.Now())
	if err == nil {
		res.Snapshot, err = snapshot.Take(snapDir, filepath.Base(pl.Index), want, s.index.Raw, today, req.Now())
	}
	if err != nil {
		return nil, refusef(ReasonWrite, pl.Index, "no snapshot could be taken, so nothing was changed: %v", err)
	}
	if res.Assessed, err = appendAssessments(s, pl, acts, req.AsOf); err != nil {
		return res, refusef(ReasonWrite, s.paths.Slate, "%v", err)
	}
	if err := appendRows(slateFile(s.paths.Slate), heldRows(held, req.AsOf)...); err != nil {
		return res, refusef(ReasonWrite, s.paths.Slate, "%v", err)
	}
	if pl.BindLifeKeys {
		if res.Bound, err = bindLifeKeys(s, pl, acts, req, snapDir); err != nil {
			return res, refusef(ReasonWrite, dir, "%v", err)
		}
	}
	if res.Artifact, err = writeInventory(s, req); err != nil {
		return res, refusef(ReasonWrite, dir, "the enumeration could not be recorded, so no disposition was taken: %v", err)
	}
	if err := execute(s, acts, req, res); err != nil {
		return res, err
	}
	if err := replaceIndex(s, newLines); err != nil {
		return res, err
	}
	crashpoint.At("after-replace")
	if err := moveBodies(s, acts, res); err != nil {
		return res, err
	}
	if err := complete(s, pl, acts, req, res); err != nil {
		return res, err
	}
	return res, nil
}

func short(d string) string {
	if len(d) > 12 {
		return d[:12]
	}
	return d
}

// prepare turns the plan's decided subjects into acts, refusing a plan that
// does not match the store or waits on a decision nobody gave.
func prepare(s *store, pl *Plan, req ApplyRequest) ([]*act, error) {
	known := map[string]sweep.Entry{}
	for _, e := range s.corpus.Entries {
		known[e.Identity] = e
	}
	var pending []string
	var acts []*act
	for _, sub := range pl.Subjects {
		e, ok := known[sub.Identity]
		if !ok {
			return nil, refusef(ReasonPlanInvalid, pl.Index, "the plan names '%s', which is not a subject of this store; make a new plan", sub.Identity)
		}
		if sub.Population != e.Population {
			return nil, refusef(ReasonPlanInvalid, pl.Index, "the plan calls '%s' a %s, but the store has it as a %s; make a new plan", sub.Identity, sub.Population, e.Population)
		}
		if sub.Decision == Rejected || (sub.Disposition == Keep && len(sub.DuplicateLines) == 0) {
			continue
		}
		if sub.Decision == Pending && !req.Yes {
			pending = append(pending, sub.Identity)
			continue
		}
		kind := sub.Disposition
		if kind == Keep {
			kind = "duplicates"
		}
		if e.Population == sweep.PopOrphan && kind != "keep-hot-with-expiry" && kind != "restore" && kind != Complete {
			return nil, refusef(ReasonPlanInvalid, pl.Index, "'%s' is an orphan body: it has no pointer to %s; keep it (it is assessed at the sweep) or give it a pointer first", sub.Identity, kind)
		}
		acts = append(acts, &act{sub: sub, body: s.bodies[sub.Name], kind: kind})
	}
	if err := survivorsStay(pl, acts); err != nil {
		return nil, err
	}
	if len(pending) > 0 {
		return nil, &outcome.Error{Status: outcome.Refused, Reason: ReasonUnconfirmed, File: pl.Index,
			Msg:   fmt.Sprintf("%d disposition(s) wait on the owner's decision (the first: %s); nothing was written", len(pending), pending[0]),
			Hints: []string{"decide them with 'memcompact sweep review', edit the plan file, or pass --yes to accept every pending one"}}
	}
	return acts, nil
}

// survivorsStay refuses a dedupe-into whose survivor this same sweep
// takes out of the index (demotes, removes, promotes, folds into a third):
// the folded subject's lesson would then live only in a body nothing
// loads, and its exit record would name a destination that is leaving.
func survivorsStay(pl *Plan, acts []*act) error {
	exiting := map[string]string{}
	for _, a := range acts {
		if records.IsExit(a.kind) {
			exiting[a.sub.Identity] = a.kind
		}
	}
	for _, a := range acts {
		if a.kind != "dedupe-into" {
			continue
		}
		if kind, ok := exiting[a.sub.Into]; ok {
			return refusef(ReasonPlanInvalid, pl.Index, "'%s' is deduped into '%s', which this plan also takes out of the index (%s); keep the survivor, or dedupe into an entry that stays", a.sub.Identity, a.sub.Into, kind)
		}
	}
	return nil
}

// takesPointer reports whether an act takes (some of) the subject's
// pointer segments out of the index.
func (a *act) takesPointer() bool {
	switch a.kind {
	case "keep-hot-with-expiry", "restore":
		return false
	case Complete:
		return a.sub.Population == sweep.PopPointer
	}
	return true
}

// rewritten computes the index after every act, and refuses one that
// would trim a hook (R1) or fold subjects under one note (R2).
func rewritten(s *store, acts []*act) ([]string, error) {
	ix := s.parsed()
	byName := slotsByName(ix)
	drop := map[Slot]bool{}
	owner := map[Slot]*act{}
	for _, a := range acts {
		if !a.takesPointer() {
			continue
		}
		dups := map[int]bool{}
		for _, l := range a.sub.DuplicateLines {
			dups[l] = true
		}
		for _, sl := range byName[a.sub.Name] {
			if a.kind == "duplicates" && !dups[sl.Line] {
				continue
			}
			drop[sl] = true
			owner[sl] = a
		}
	}
	merged, moved := withDuplicateHooks(ix, acts, byName)
	for a, hooks := range moved {
		a.hooks = hooks
	}
	lines, cuts := rebuild(merged, drop)
	for _, c := range cuts {
		owner[c.Slot].cuts = append(owner[c.Slot].cuts, c)
	}
	var settled []string
	for _, a := range acts {
		if a.kind == "settle-in-place" {
			for _, c := range a.cuts {
				settled = append(settled, c.Segment)
			}
		}
	}
	lines = addSettled(lines, settled)
	if err := judgeHooks(ix).check(index.Parse(lines)); err != nil {
		return nil, refusef(ReasonHook, s.paths.Index, "%v; nothing was written — keep that subject or edit its line by hand first", err)
	}
	return lines, nil
}

// addSettled puts settled pointers at the end of the "## Settled" section,
// creating it at the end of the index when there is none.
func addSettled(lines, settled []string) []string {
	if len(settled) == 0 {
		return lines
	}
	at := -1
	for i, l := range lines {
		if index.IsHeading(l) && strings.EqualFold(strings.TrimSpace(strings.TrimPrefix(l, "##")), "settled") {
			at = i
		}
	}
	if at < 0 {
		for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
			lines = lines[:len(lines)-1]
		}
		out := append(slices.Clone(lines), "", "## Settled", "")
		return append(out, settled...)
	}
	end := at + 1
	for j := at + 1; j < len(lines) && !index.IsHeading(lines[j]); j++ {
		if strings.TrimSpace(lines[j]) != "" {
			end = j + 1
		}
	}
	out := slices.Clone(lines[:end])
	out = append(out, settled...)
	return append(out, lines[end:]...)
}
