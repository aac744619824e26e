package cli

// JSON output of the MemoryCore verbs (init, set-budget, compact, save,
// restore, snapshots). Field names are a stable protocol; the per-file
// compaction report is compact.Report and the budget report budget.Report.
// Every object starts with schema_version.

import (
	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/compact"
	"github.com/memcompact/memcompact/internal/snapshot"
)

type initResult struct {
	SchemaVersion int            `json:"schema_version"`
	Root          string         `json:"root"`
	Actions       []string       `json:"actions"` // what init changed, in order; empty on a second run
	Changed       bool           `json:"changed"`
	Budgets       *budget.Report `json:"budgets"`
}

type setBudgetResult struct {
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
}

type compactResult struct {
	SchemaVersion int               `json:"schema_version"`
	Root          string            `json:"root"`
	DryRun        bool              `json:"dry_run"`
	Files         []*compact.Report `json:"files"`
}

type saveResult struct {
	SchemaVersion int             `json:"schema_version"`
	File          string          `json:"file"`
	Status        string          `json:"status"` // "saved", "compacted_and_saved" or "not_saved"
	Size          int             `json:"size"`
	Budget        int             `json:"budget,omitempty"`
	Unit          string          `json:"unit,omitempty"`
	Budgeted      bool            `json:"budgeted"`
	Compaction    *compact.Report `json:"compaction,omitempty"`
}

type restoreResult struct {
	SchemaVersion  int    `json:"schema_version"`
	Status         string `json:"status"` // "restored", "unchanged" or "not_confirmed"
	File           string `json:"file"`
	Snapshot       string `json:"snapshot"`
	Taken          string `json:"taken"`
	Lines          int    `json:"lines"`
	Bytes          int    `json:"bytes"`
	SafetySnapshot string `json:"safety_snapshot,omitempty"`
}

type snapshotsResult struct {
	SchemaVersion int             `json:"schema_version"`
	Root          string          `json:"root"`
	File          string          `json:"file,omitempty"`
	Snapshots     []snapshot.Info `json:"snapshots"`
}
