package sweepact

import (
	"fmt"

	"github.com/memcompact/memcompact/internal/outcome"
)

// Reasons the sweep refuses, for faces to choose hints by.
const (
	ReasonUnreadable  outcome.Reason = "sweep-unreadable"    // a store file could not be read
	ReasonRecords     outcome.Reason = "sweep-records"       // the ledger or slate cannot be read whole
	ReasonPlanInvalid outcome.Reason = "sweep-plan-invalid"  // the plan file is not a plan, or says nonsense
	ReasonStale       outcome.Reason = "sweep-plan-stale"    // the index changed since the plan was made
	ReasonUnconfirmed outcome.Reason = "sweep-unconfirmed"   // decisions are pending and no yes was given
	ReasonGate        outcome.Reason = "sweep-gate"          // a gate refused an act
	ReasonHook        outcome.Reason = "sweep-hook"          // an act would trim a hook or fold subjects
	ReasonBusy        outcome.Reason = "sweep-busy"          // another writer holds the store's lock
	ReasonWrite       outcome.Reason = "sweep-write"         // a write failed or raced another
	ReasonNotFound    outcome.Reason = "sweep-not-found"     // restore: no exit in force for that identity
	ReasonOutside     outcome.Reason = "sweep-outside-store" // a write would leave the store through a symlink
)

func refusef(reason outcome.Reason, file, format string, a ...any) *outcome.Error {
	return &outcome.Error{Status: outcome.Refused, Reason: reason, File: file, Msg: fmt.Sprintf(format, a...)}
}
