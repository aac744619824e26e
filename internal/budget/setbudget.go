package budget

import (
	"context"
	"strconv"
	"strings"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/lockfile"
	"github.com/memcompact/memcompact/internal/outcome"
)

// SetRequest asks to set one file's (or glob's) budget.
type SetRequest struct {
	Root string // the memory root; "" means the nearest one upward
	File string // relative to the working directory, or absolute; may be a glob
	// Budget is a positive whole number as given ("450", "1,200"), and
	// Unit its unit: lines or chars (line, characters, any case).
	Budget string
	Unit   string
	// Newest is how many newest entries stay verbatim; nil keeps an
	// updated row's value, and gives a new row that of the glob row that
	// covers File, else DefaultNewest.
	Newest *int
}

// SetResult is what set-budget did. Its JSON is set-budget's --json output.
type SetResult struct {
	SchemaVersion int    `json:"schema_version"`
	Policy        string `json:"policy"`
	File          string `json:"file"`
	Action        string `json:"action"` // "updated", "added" or "unchanged"
	Budget        int    `json:"budget"`
	Unit          string `json:"unit"`
	Newest        int    `json:"newest"`
	Line          int    `json:"line"`
	OldBudget     int    `json:"old_budget,omitempty"`
	OldUnit       string `json:"old_unit,omitempty"`
	OldNewest     int    `json:"old_newest,omitempty"`

	New Row  `json:"-"` // the row as written
	Old *Row `json:"-"` // the row before, when one was updated
}

// The actions of SetResult.
const (
	ActionAdded     = "added"
	ActionUpdated   = "updated"
	ActionUnchanged = "unchanged"
)

// SetBudget updates the budgets-table row whose File is the file, or adds
// one at the end of the table; only that one line of the policy changes,
// and nothing is written when it already says so. The policy is read once:
// what is rewritten and the digest checked just before the replace are of
// the same bytes.
func SetBudget(ctx context.Context, req SetRequest) (*SetResult, error) {
	n, err := strconv.Atoi(strings.NewReplacer(",", "", "_", "").Replace(req.Budget))
	if err != nil || n <= 0 {
		return nil, outcome.Usagef(ReasonBadRequest, "bad budget %q: want a positive whole number", req.Budget)
	}
	unit, ok := parseUnit(req.Unit)
	if !ok {
		return nil, outcome.Usagef(ReasonBadRequest, "bad unit %q: want lines or chars", req.Unit)
	}
	if req.Newest != nil && *req.Newest < 0 {
		return nil, outcome.Usagef(ReasonBadRequest, "bad --newest %d: want 0 or more", *req.Newest)
	}
	root, err := ResolveRoot(req.Root)
	if err != nil {
		return nil, err
	}
	release, err := lockfile.Lock(ctx, root)
	if err != nil {
		return nil, err
	}
	defer release()
	p, before, err := OpenPolicy(root)
	if err != nil {
		return nil, err
	}
	rel, err := RelIn(root, req.File)
	if err != nil {
		return nil, err
	}
	if Excluded(rel) {
		return nil, &outcome.Error{Status: outcome.Refused, Reason: ReasonExcluded, File: rel, Msg: "files under compaction/ are never budgeted"}
	}
	newest := -1
	if req.Newest != nil {
		newest = *req.Newest
	}
	ch, err := p.Set(rel, n, unit, newest)
	if err != nil {
		return nil, &outcome.Error{Status: outcome.Usage, Reason: ReasonBadRequest, Msg: err.Error(), Err: err}
	}
	res := &SetResult{SchemaVersion: SchemaVersion, Policy: PolicyRel, File: rel, Budget: ch.New.Budget, Unit: string(ch.New.Unit),
		Newest: ch.New.Newest, Line: ch.New.Line, New: ch.New, Old: ch.Old}
	switch {
	case ch.Added:
		res.Action = ActionAdded
	case string(ch.Data) == string(before.Raw):
		res.Action = ActionUnchanged
	default:
		res.Action = ActionUpdated
	}
	if ch.Old != nil {
		res.OldBudget, res.OldUnit, res.OldNewest = ch.Old.Budget, string(ch.Old.Unit), ch.Old.Newest
	}
	if res.Action != ActionUnchanged {
		if err := atomicfile.Within(root, before.Path); err != nil {
			return nil, outcome.Refuse(ReasonOutsideRoot, "%v; nothing was written", err)
		}
		if err := atomicfile.Replace(before.Path, ch.Data, before.Digest); err != nil {
			return nil, IOFailure(err)
		}
	}
	return res, nil
}
