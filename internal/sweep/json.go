package sweep

import "encoding/json"

// This file holds every JSON shape the sweep instruments emit. Field names
// and order are the reference scripts' (including the capitalised keys of
// incomplete_dispositions); they are a contract.

// Artifact is the inventory's enumeration artifact.
type Artifact struct {
	EnumeratedOn           string          `json:"enumerated_on"`
	Source                 string          `json:"source"`
	Index                  string          `json:"index"`
	IndexSHA256            string          `json:"index_sha256"`
	IndexCharacters        int             `json:"index_characters"`
	Ledger                 LedgerSummary   `json:"ledger"`
	Slate                  SlateSummary    `json:"slate"`
	Archive                ArchiveSummary  `json:"archive"`
	NonEntryFiles          []string        `json:"non_entry_files"`
	IncompleteDispositions []Incomplete    `json:"incomplete_dispositions"`
	SubjectCount           int             `json:"subject_count"`
	Subjects               []InventoryItem `json:"subjects"`
}

// LedgerSummary describes the ledger the inventory read.
type LedgerSummary struct {
	Path      string `json:"path"`
	State     string `json:"state"`
	Records   int    `json:"records"`
	Malformed int    `json:"malformed"`
}

// SlateSummary describes the slate the inventory read.
type SlateSummary struct {
	Path        string `json:"path"`
	State       string `json:"state"`
	Rows        int    `json:"rows"`
	Malformed   int    `json:"malformed"`
	Trustworthy bool   `json:"trustworthy"`
}

// ArchiveSummary describes the archive the inventory read.
type ArchiveSummary struct {
	Path     string `json:"path"`
	Present  bool   `json:"present"`
	Pointers int    `json:"pointers"`
}

// Incomplete is an exit in force whose act is not reflected in the store.
type Incomplete struct {
	Identity    string `json:"Identity"`
	Disposition string `json:"Disposition"`
	Why         string `json:"Why"`
}

// InventoryItem is one subject of the artifact.
type InventoryItem struct {
	Name           string  `json:"name"`
	Identity       string  `json:"identity"`
	Population     string  `json:"population"`
	IndexLine      int     `json:"index_line"`
	Group          string  `json:"group"`
	Critical       string  `json:"critical"`
	DeferralCount  int     `json:"deferral_count"`
	DeferredUntil  *string `json:"deferred_until"`
	Landing        string  `json:"landing"`
	LandingVehicle string  `json:"landing_vehicle"`
}

// UsageError is the JSON of a usage error, where a verb honours --json.
type UsageError struct {
	Result string `json:"result"`
	Reason string `json:"reason"`
}

// DeferralVerdict is the deferral gate's verdict.
type DeferralVerdict struct {
	Gate      string `json:"gate"`
	Identity  string `json:"identity"`
	Allowed   bool   `json:"allowed"`
	NextCount *int   `json:"next_count"`
	Why       string `json:"why"`
}

// ExitVerdict is the exit gate's verdict.
type ExitVerdict struct {
	Gate                     string `json:"gate"`
	Identity                 string `json:"identity"`
	Disposition              string `json:"disposition"`
	DestinationCarriesLesson bool   `json:"destination_carries_lesson"`
	DestinationReadNote      string `json:"destination_read_note"`
	DestinationLanded        bool   `json:"destination_landed"`
	Allowed                  bool   `json:"allowed"`
	Why                      string `json:"why"`
}

// AdmissionVerdict is the admission gate's verdict.
type AdmissionVerdict struct {
	Gate     string `json:"gate"`
	Identity string `json:"identity"`
	Allowed  bool   `json:"allowed"`
	Why      string `json:"why"`
}

// ReconcileVerdict is the reconcile gate's verdict.
type ReconcileVerdict struct {
	Gate     string `json:"gate"`
	Identity string `json:"identity"`
	Verdict  string `json:"verdict"`
	Allowed  bool   `json:"allowed"`
	Why      string `json:"why"`
}

// PartitionReport is the partition check's report. EnumeratedOn and
// EnumeratedFrom echo the artifact's values as they were (whatever their
// JSON type). Strays is present only under --strict.
type PartitionReport struct {
	Index           string            `json:"index"`
	EnumeratedOn    json.RawMessage   `json:"enumerated_on"`
	EnumeratedFrom  json.RawMessage   `json:"enumerated_from"`
	SubjectsChecked int               `json:"subjects_checked"`
	Accounted       []AccountedItem   `json:"accounted"`
	Unaccounted     []UnaccountedItem `json:"unaccounted"`
	Unverifiable    []UnaccountedItem `json:"unverifiable"`
	RecordProblems  []string          `json:"record_problems"`
	Result          string            `json:"result"`
	Strays          *[]Stray          `json:"strays,omitempty"`
}

// AccountedItem is a subject the partition accounts for, and how.
type AccountedItem struct {
	Name     string `json:"name"`
	Identity string `json:"identity"`
	How      string `json:"how"`
}

// UnaccountedItem is a subject the partition cannot account for (or
// cannot verify), and why.
type UnaccountedItem struct {
	Name       string `json:"name"`
	Identity   string `json:"identity"`
	Population string `json:"population"`
	Why        string `json:"why"`
}

// Stray is a decided subject whose decision the store does not reflect,
// found by --strict's decision-grain check.
type Stray struct {
	Leg         string `json:"leg"` // still-in-index, missing-from-index, missing-from-archive
	Name        string `json:"name"`
	Identity    string `json:"identity"`
	Disposition string `json:"disposition"`
	Status      string `json:"status"`
	LedgerLine  int    `json:"ledger_line"`
	IndexLine   int    `json:"index_line"` // the live pointer's line, 0 when not in the index
	Why         string `json:"why"`
}
