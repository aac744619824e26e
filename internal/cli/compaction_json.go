package cli

// JSON output of the MemoryCore verbs (init, set-budget, compact, save,
// restore, snapshots). Field names are a stable protocol; the per-file
// compaction report is compact.Report and the budget report budget.Report.
// Every object starts with schema_version.

import (
	"github.com/memcompact/memcompact/internal/compact"
)

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
