package check

import (
	"io"

	"github.com/memcompact/memcompact/internal/jsonout"
	"github.com/memcompact/memcompact/internal/recall"
)

// The JSON shapes, one per path. Field order is the emitted order; every
// array is emitted as an array (never null), and keys of other paths are
// absent rather than null.

// UsageJSON is the usage-error object.
type UsageJSON struct {
	Result string `json:"result"`
	Index  string `json:"index"`
	Reason string `json:"reason"`
}

// RefusedJSON is the refusal object.
type RefusedJSON struct {
	Result string   `json:"result"`
	Index  string   `json:"index"`
	Reason string   `json:"reason"`
	Detail []string `json:"detail"`
}

// ReportJSON is the clean-or-defects object.
type ReportJSON struct {
	Result                   string               `json:"result"`
	Index                    string               `json:"index"`
	Reference                string               `json:"reference"`
	ExcludedFromComparison   string               `json:"excluded_from_comparison"`
	StoreShape               string               `json:"store_shape"`
	PolicyFile               string               `json:"policy_file"`
	PolicyStatus             string               `json:"policy_status"`
	PolicyExplanation        []string             `json:"policy_explanation"`
	KindPrefixes             []string             `json:"kind_prefixes"`
	KindPrefixSource         string               `json:"kind_prefix_source"`
	EntriesMatchingKind      int                  `json:"entries_matching_kind"`
	EntriesNotMatchingKind   int                  `json:"entries_not_matching_kind"`
	SubjectsTotal            int                  `json:"subjects_total"`
	PolicyPresent            bool                 `json:"policy_present"`
	PolicyComplete           bool                 `json:"policy_complete"`
	PolicyDivergence         string               `json:"policy_divergence"`
	HeaderPresent            bool                 `json:"header_present"`
	HeaderComplete           bool                 `json:"header_complete"`
	HeaderBeforeFirstPointer bool                 `json:"header_before_first_pointer"`
	HeaderDivergence         string               `json:"header_divergence"`
	Size                     SizeJSON             `json:"size"`
	SubjectsWithoutHook      int                  `json:"subjects_without_hook"`
	UnattributedSharedNotes  int                  `json:"unattributed_shared_notes"`
	WithoutHook              []recall.WithoutHook `json:"without_hook"`
	SharedNotes              []recall.SharedNote  `json:"shared_notes"`
}

// SizeJSON is the size axis; the budget fields are null unless the size
// was evaluated (within or over).
type SizeJSON struct {
	State              string   `json:"state"`
	Cause              string   `json:"cause"`
	Unit               string   `json:"unit"`
	Measured           int      `json:"measured"`
	Budget             *int     `json:"budget"`
	Fraction           *float64 `json:"fraction"`
	ObservationValue   *int     `json:"observation_value"`
	ObservationDate    *string  `json:"observation_date"`
	ObservationMethod  *string  `json:"observation_method"`
	StalenessBoundDays *int     `json:"staleness_bound_days"`
	ObservationAgeDays *int     `json:"observation_age_days"`
	Stale              bool     `json:"stale"`
	IgnoredKeys        []string `json:"ignored_keys"`
}

// JSONValue returns the JSON object for the report's path.
func JSONValue(r *Report) any {
	switch r.Result {
	case UsageError:
		return UsageJSON{Result: r.Result, Index: r.Index, Reason: r.Reason}
	case Refused:
		return RefusedJSON{Result: r.Result, Index: r.Index, Reason: r.Refusal.Reason, Detail: jsonout.NonNil(r.Refusal.Detail)}
	}
	s := &r.Size
	sj := SizeJSON{State: s.State, Cause: s.Cause, Unit: s.Unit, Measured: s.Measured, Stale: s.Stale, IgnoredKeys: jsonout.NonNil(s.IgnoredKeys)}
	if s.Evaluated() {
		sj.Budget, sj.Fraction = &s.Budget, &s.Fraction
		sj.ObservationValue, sj.ObservationDate, sj.ObservationMethod = &s.ObservationValue, &s.ObservationDate, &s.ObservationMethod
		sj.StalenessBoundDays, sj.ObservationAgeDays = &s.StalenessBoundDays, &s.ObservationAgeDays
	}
	wh := r.WithoutHook
	if wh == nil {
		wh = []recall.WithoutHook{}
	}
	sn := r.SharedNotes
	if sn == nil {
		sn = []recall.SharedNote{}
	}
	return ReportJSON{
		Result:                   r.Result,
		Index:                    r.Index,
		Reference:                r.Reference,
		ExcludedFromComparison:   ExcludedHeading,
		StoreShape:               r.Shape,
		PolicyFile:               r.PolicyFile,
		PolicyStatus:             r.PolicyStatus,
		PolicyExplanation:        jsonout.NonNil(r.PolicyExplanation),
		KindPrefixes:             jsonout.NonNil(r.KindPrefixes),
		KindPrefixSource:         r.KindPrefixSource,
		EntriesMatchingKind:      r.EntriesMatchingKind,
		EntriesNotMatchingKind:   r.EntriesNotMatchingKind,
		SubjectsTotal:            r.SubjectsTotal,
		PolicyPresent:            r.PolicyPresent,
		PolicyComplete:           r.PolicyComplete,
		PolicyDivergence:         r.PolicyDivergence,
		HeaderPresent:            r.PolicyPresent,
		HeaderComplete:           r.PolicyComplete,
		HeaderBeforeFirstPointer: r.HeaderBeforeFirstPointer,
		HeaderDivergence:         r.PolicyDivergence,
		Size:                     sj,
		SubjectsWithoutHook:      len(wh),
		UnattributedSharedNotes:  len(sn),
		WithoutHook:              wh,
		SharedNotes:              sn,
	}
}

// WriteJSON renders the report as one pretty-printed JSON object followed
// by a newline. HTML characters are not escaped: the output is read by
// people and programs, never embedded in a page.
func WriteJSON(w io.Writer, r *Report) error {
	return jsonout.Write(w, JSONValue(r))
}
