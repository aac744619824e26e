package check

import "github.com/memcompact/memcompact/internal/recall"

// Results and their exit codes.
const (
	Clean      = "clean"       // exit 0
	Defects    = "defects"     // exit 1
	Refused    = "refused"     // exit 2
	UsageError = "usage-error" // exit 3
)

// Store shapes.
const (
	ShapeLegacy          = "legacy"
	ShapeSplit           = "split"
	ShapeSplitIncomplete = "split-incomplete"
)

// Size axis states.
const (
	SizeNotEvaluated   = "not-evaluated"
	SizeCouldNotVerify = "could-not-verify"
	SizeWithin         = "within"
	SizeOver           = "over"
)

// Kind-prefix sources.
const (
	SourcePolicyFile  = "store policy file"
	SourceIndexHeader = "index header"
	SourceReference   = "reference copy"
)

// ExcludedHeading names the reference section that is never compared.
const ExcludedHeading = "## Adapting this to your store (not part of the compared text)"

// RefusalKind names a refusal for programs; the text a person reads is the
// Refusal's Reason and Detail.
type RefusalKind string

// The refusal catalogue.
const (
	RefReferenceNotFound    RefusalKind = "reference-not-found"
	RefIndexUnreadable      RefusalKind = "index-unreadable"
	RefReferenceUnreadable  RefusalKind = "reference-unreadable"
	RefReferenceMalformed   RefusalKind = "reference-malformed"
	RefReferenceStanza      RefusalKind = "reference-stanza-malformed"
	RefNoHeading            RefusalKind = "no-section-heading"
	RefNoPointer            RefusalKind = "no-pointer-line"
	RefUnparsedLink         RefusalKind = "unparsed-link"
	RefStanzaMalformed      RefusalKind = "stanza-malformed"
	RefPolicyPathMalformed  RefusalKind = "policy-path-malformed"
	RefPolicyFileUnreadable RefusalKind = "policy-file-unreadable"
	RefPolicyFileMalformed  RefusalKind = "policy-file-malformed"
	RefNoKindPrefixes       RefusalKind = "no-kind-prefixes"
	RefVocabulary           RefusalKind = "kind-vocabulary"
)

// Refusal is why a check gave no verdict.
type Refusal struct {
	Kind   RefusalKind
	Reason string
	Detail []string
}

// Size is the size axis.
type Size struct {
	State    string // SizeNotEvaluated, SizeCouldNotVerify, SizeWithin, SizeOver
	Cause    string // "" when within or over
	Unit     string // always "characters"
	Measured int    // the index's length by the counting rule

	// The rest is set only when State is within or over.
	Budget             int
	Fraction           float64
	ObservationValue   int
	ObservationDate    string // yyyy-MM-dd
	ObservationMethod  string
	StalenessBoundDays int
	ObservationAgeDays int
	Stale              bool

	IgnoredKeys []string // x- keys, in file order, repeats included
}

// Evaluated reports whether the size was measured against a budget.
func (s *Size) Evaluated() bool { return s.State == SizeWithin || s.State == SizeOver }

// Report is the outcome of one check, on every path.
type Report struct {
	Result string // Clean, Defects, Refused or UsageError
	Index  string // the index path as given

	// UsageError and Refused.
	Reason  string   // UsageError only; a refusal's is in Refusal
	Refusal *Refusal // Refused only

	// Clean and Defects.
	Reference                string // the reference as displayed
	Shape                    string
	PolicyFile               string // absolute; "" for legacy
	PolicyStatus             string
	PolicyDivergence         string
	PolicyExplanation        []string
	KindPrefixes             []string
	KindPrefixSource         string
	EntriesMatchingKind      int
	EntriesNotMatchingKind   int
	SubjectsTotal            int
	PolicyPresent            bool
	PolicyComplete           bool
	HeaderBeforeFirstPointer bool
	Size                     Size
	WithoutHook              []recall.WithoutHook
	SharedNotes              []recall.SharedNote
}

// ExitCode returns the report's exit code: 0 clean, 1 defects, 2 refused,
// 3 usage error.
func (r *Report) ExitCode() int {
	switch r.Result {
	case Clean:
		return 0
	case Defects:
		return 1
	case Refused:
		return 2
	}
	return 3
}
