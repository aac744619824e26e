package sweep

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/records"
)

// Partition results.
const (
	ResultAccounted    = "accounted"
	ResultUnaccounted  = "unaccounted"
	ResultUnverifiable = "unverifiable"
	ResultUsageError   = "usage-error"
	// ResultStrays is --strict's result when nothing is unaccounted but
	// the decision-grain check found decided subjects the store does not
	// reflect.
	ResultStrays = "strays"
)

// Stray legs of the decision-grain check.
const (
	LegStillInIndex       = "still-in-index"
	LegMissingFromIndex   = "missing-from-index"
	LegMissingFromArchive = "missing-from-archive"
)

// ArtifactError is an enumeration artifact that cannot be used at all: the
// reference reports it as a usage error, always as text.
type ArtifactError struct{ Reason string }

func (e *ArtifactError) Error() string { return e.Reason }

// LoadedArtifact is an enumeration artifact as the partition reads it:
// loosely, because the check must report a hand-edited or foreign artifact
// rather than crash on it.
type LoadedArtifact struct {
	EnumeratedOn json.RawMessage
	Source       json.RawMessage
	Subjects     []ArtifactSubject
	IndexSHA256  string // "" when the artifact carries none
	Index        string
}

// ParseArtifact reads artifact bytes. It fails (with an *ArtifactError)
// only when the bytes are not a JSON object carrying subjects,
// enumerated_on and source; shape problems inside are the report's.
func ParseArtifact(given string, data []byte) (*LoadedArtifact, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	// PowerShell's JSON reader sends a top-level array down the pipeline
	// element by element, and a variable that collects exactly one element
	// holds that element: [ {artifact} ] reads as the artifact.
	var arr []json.RawMessage
	if json.Unmarshal(data, &arr) == nil && len(arr) == 1 {
		data = arr[0]
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil || obj == nil {
		obj = nil
	}
	a := &LoadedArtifact{}
	for _, field := range []string{"subjects", "enumerated_on", "source"} {
		v, ok := lookupFold(obj, field)
		if !ok {
			return nil, &ArtifactError{Reason: fmt.Sprintf("'%s' is not an enumeration artifact - it does not carry '%s'. Produce one with 'memcompact inventory --out FILE' (the reference's Get-MemorySweepInventory.ps1 -OutputPath).", given, field)}
		}
		switch field {
		case "subjects":
			a.Subjects = parseSubjects(v)
		case "enumerated_on":
			a.EnumeratedOn = v
		case "source":
			a.Source = v
		}
	}
	if v, ok := lookupFold(obj, "index_sha256"); ok {
		a.IndexSHA256 = PSString(v)
	}
	if v, ok := lookupFold(obj, "index"); ok {
		a.Index = PSString(v)
	}
	return a, nil
}

// lookupFold finds a key exactly, else without regard to case (PowerShell
// property names are case-insensitive).
func lookupFold(obj map[string]json.RawMessage, key string) (json.RawMessage, bool) {
	if obj == nil {
		return nil, false
	}
	if v, ok := obj[key]; ok {
		return v, true
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if strings.EqualFold(k, key) {
			return obj[k], true
		}
	}
	return nil, false
}

// ArtifactSubject is one subject of a loaded artifact. A field is nil when
// the subject does not carry it (JSON null is carried: "null").
type ArtifactSubject struct {
	Name       json.RawMessage `json:"name"`
	Identity   json.RawMessage `json:"identity"`
	Population json.RawMessage `json:"population"`
}

// parseSubjects reads the subjects array; a non-array value is one subject,
// as PowerShell's @() makes it (null included: @($null) holds one element),
// and an element that is not an object carries no field. Field names match
// without regard to case.
func parseSubjects(v json.RawMessage) []ArtifactSubject {
	var arr []json.RawMessage
	t := bytes.TrimSpace(v)
	switch {
	case len(t) > 0 && t[0] == '[':
		if json.Unmarshal(t, &arr) != nil {
			return nil
		}
	default:
		arr = []json.RawMessage{t}
	}
	out := make([]ArtifactSubject, len(arr))
	for i, el := range arr {
		if len(el) > 0 && el[0] == '{' {
			json.Unmarshal(el, &out[i])
		}
	}
	return out
}

// PSString renders a JSON value the way PowerShell interpolates it into a
// string: a string as itself, null as empty, numbers and booleans as
// PowerShell prints them.
func PSString(v json.RawMessage) string {
	t := bytes.TrimSpace(v)
	if len(t) == 0 {
		return ""
	}
	if t[0] == '"' {
		var str string
		if json.Unmarshal(t, &str) == nil {
			return str
		}
	}
	var x any
	if json.Unmarshal(t, &x) != nil {
		return string(t)
	}
	switch x := x.(type) {
	case nil:
		return ""
	case string:
		return x
	case bool:
		if x {
			return "True"
		}
		return "False"
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case []any:
		var parts []string
		var raws []json.RawMessage
		json.Unmarshal(t, &raws)
		for _, r := range raws {
			parts = append(parts, PSString(r))
		}
		return strings.Join(parts, " ")
	}
	return string(t)
}

// PartitionInput is what the partition reads besides the artifact.
type PartitionInput struct {
	Paths  Paths
	AsOf   records.Date
	Strict bool
}

// Partition is a finished partition check: the report and the warnings
// (malformed records by file and line) that go beside it.
type Partition struct {
	Report   *PartitionReport
	Warnings []Warning
}

// ExitCode maps a report's result to the exit code: accounted 0,
// unaccounted (and strays) 1, unverifiable 2, usage-error 3.
func (r *PartitionReport) ExitCode() int {
	switch r.Result {
	case ResultAccounted:
		return 0
	case ResultUnaccounted, ResultStrays:
		return 1
	case ResultUnverifiable:
		return 2
	}
	return 3
}

// RunPartition reconciles a recorded enumeration against the post-sweep
// index, archive and ledger, deciding on life keys, never bare names. Each
// artifact subject is accounted (still-hot, demoted and corroborated by an
// archive line, exited with a record, or an orphan this sweep assessed),
// unaccounted, or unverifiable (neither side records an admitted date). An
// exit in force wins even when the pointer is still in the index — the
// reference's blind spot, kept; in.Strict adds the decision-grain check
// that sees it. It fails only when a file that exists cannot be read.
func RunPartition(a *LoadedArtifact, in PartitionInput) (*Partition, error) {
	p := in.Paths
	_, lines, err := readIndex(p.Index)
	if err != nil {
		return nil, err
	}
	live := map[string]string{}  // name → live identity
	liveLine := map[string]int{} // live identity → pointer line
	rv := index.NewResolver(p.Dir)
	for _, s := range records.Subjects(lines) {
		body, _, _ := BodyOf(rv, s)
		facts, err := records.ReadEntryFacts(body)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: the body of '%s' could not be read: %w", filepath.Base(p.Index), s.Line, s.Name, err)
		}
		id := s.Name + "@" + facts.Admitted
		live[s.Name] = id
		if _, ok := liveLine[id]; !ok {
			liveLine[id] = s.Line
		}
	}
	ledger, err := records.ReadLedger(p.Ledger, in.AsOf)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Ledger, err)
	}
	slate, err := records.ReadSlate(p.Slate, in.AsOf)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Slate, err)
	}
	archiveNames, _, err := records.ArchiveNames(p.Archive)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Archive, err)
	}
	archived := foldSet(archiveNames)

	rep := &PartitionReport{
		Index:          p.Index,
		EnumeratedOn:   orNull(a.EnumeratedOn),
		EnumeratedFrom: orNull(a.Source),
		Accounted:      []AccountedItem{},
		Unaccounted:    []UnaccountedItem{},
		Unverifiable:   []UnaccountedItem{},
		RecordProblems: []string{},
	}
	out := &Partition{Report: rep, Warnings: RecordWarnings(ledger, slate)}
	usage := func(problem string) *Partition {
		rep.SubjectsChecked = 0
		rep.Accounted, rep.Unaccounted, rep.Unverifiable = []AccountedItem{}, []UnaccountedItem{}, []UnaccountedItem{}
		rep.RecordProblems = []string{problem}
		rep.Result = ResultUsageError
		return out
	}
	onText := PSString(a.EnumeratedOn)
	enumeratedOn, ok := records.ParseDate(onText)
	if !ok {
		return usage(fmt.Sprintf("the enumeration artifact's 'enumerated_on' is not a date in yyyy-MM-dd form: '%s'", onText)), nil
	}

	for _, sub := range a.Subjects {
		for _, f := range []struct {
			name string
			v    json.RawMessage
		}{{"name", sub.Name}, {"identity", sub.Identity}, {"population", sub.Population}} {
			if f.v == nil {
				return usage(fmt.Sprintf("the enumeration artifact carries a subject with no '%s'; it was not produced by 'memcompact inventory' (or Get-MemorySweepInventory.ps1)", f.name)), nil
			}
		}
		name, identity, population := PSString(sub.Name), PSString(sub.Identity), PSString(sub.Population)
		miss := func(why string) {
			rep.Unaccounted = append(rep.Unaccounted, UnaccountedItem{Name: name, Identity: identity, Population: population, Why: why})
		}
		hit := func(how string) {
			rep.Accounted = append(rep.Accounted, AccountedItem{Name: name, Identity: identity, How: how})
		}
		if r, ok := ledger.ExitInForce(identity); ok {
			switch {
			case r.Disposition != "demote":
				hit("exited-with-record")
			case archived[strings.ToLower(name)]:
				hit("demoted")
			default:
				miss("a demotion is recorded for this life, but no archive line carries it")
			}
			continue
		}
		if l, ok := live[name]; ok {
			lu, eu := records.IsUnknownKey(l), records.IsUnknownKey(identity)
			switch {
			case lu && eu:
				rep.Unverifiable = append(rep.Unverifiable, UnaccountedItem{Name: name, Identity: identity, Population: population,
					Why: "neither the enumeration nor the live entry records an admitted date, so whether the pointer under this name is still THIS life cannot be established"})
			case l == identity:
				hit("still-hot")
			case lu:
				miss("a pointer for this name is still in the index, but its body records no admitted date, so whether THIS life is the one still hot cannot be decided")
			default:
				miss(fmt.Sprintf("the pointer for this name now belongs to a different life (%s); this life left recall and no exit in force names it", l))
			}
			continue
		}
		if strings.EqualFold(population, PopOrphan) {
			if c := slate.Current(identity, records.TrackCritical); c != nil && !c.Date.Before(enumeratedOn) {
				hit("orphan-assessed")
			} else {
				miss("an orphan body this sweep neither dispositioned nor assessed")
			}
			continue
		}
		miss("its pointer is gone from the index, no archive line carries it, and no exit in force names this life")
	}
	rep.SubjectsChecked = len(a.Subjects)

	for _, m := range ledger.Malformed {
		rep.RecordProblems = append(rep.RecordProblems, fmt.Sprintf("unreadable ledger record: %s - %s", m.Raw, m.Why))
	}
	for _, m := range slate.Malformed {
		rep.RecordProblems = append(rep.RecordProblems, fmt.Sprintf("unreadable slate row: %s - %s", m.Raw, m.Why))
	}
	if ledger.State() == records.StateDuplicated {
		rep.RecordProblems = append(rep.RecordProblems, "ledger: "+ledger.Region.Why)
	}
	if slate.State() == records.StateDuplicated {
		rep.RecordProblems = append(rep.RecordProblems, "slate: "+slate.Region.Why)
	}

	switch {
	case len(rep.Unaccounted) > 0 || len(rep.RecordProblems) > 0:
		rep.Result = ResultUnaccounted
	case len(rep.Unverifiable) > 0:
		rep.Result = ResultUnverifiable
	default:
		rep.Result = ResultAccounted
	}
	if in.Strict {
		strays := DecisionGrain(ledger, liveLine, archived)
		rep.Strays = &strays
		if len(strays) > 0 && rep.Result != ResultUnaccounted {
			rep.Result = ResultStrays
		}
	}
	return out, nil
}

func orNull(v json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(v)) == 0 {
		return json.RawMessage("null")
	}
	return v
}

// DecisionGrain is --strict's check, the one the reference only describes:
// at the grain of each decided subject (each life with an executed or
// reconciled disposition), by set equality rather than by count, in three
// directions — an exit in force whose life still has a pointer in the
// index; a life whose standing decision keeps it in the index
// (keep-hot-with-expiry, settle-in-place or restore, with no exit in force)
// but which no pointer carries; a demotion in force that no archive line
// carries. liveLine maps each live identity on the index to its line;
// archived is the case-folded set of archive names. Strays come leg by leg,
// each in ledger order.
func DecisionGrain(ledger *records.Ledger, liveLine map[string]int, archived map[string]bool) []Stray {
	strays := []Stray{}
	exits := ledger.ExitsInForce()
	for _, r := range exits {
		if line, ok := liveLine[r.Identity]; ok {
			strays = append(strays, Stray{Leg: LegStillInIndex, Name: r.Name, Identity: r.Identity, Disposition: r.Disposition,
				Status: r.Status, LedgerLine: r.Line, IndexLine: line,
				Why: fmt.Sprintf("the ledger's %s '%s' removes this life from the index, but its pointer is still there", r.Status, r.Disposition)})
		}
	}
	seen := map[string]bool{}
	for _, r := range ledger.Decisions() {
		if !records.IsNonExit(r.Disposition) || seen[r.Identity] {
			continue
		}
		if _, gone := ledger.ExitInForce(r.Identity); gone {
			continue
		}
		seen[r.Identity] = true
		if _, ok := liveLine[r.Identity]; !ok {
			strays = append(strays, Stray{Leg: LegMissingFromIndex, Name: r.Name, Identity: r.Identity, Disposition: r.Disposition,
				Status: r.Status, LedgerLine: r.Line,
				Why: fmt.Sprintf("the ledger's %s '%s' keeps this life in the index, but no pointer carries it", r.Status, r.Disposition)})
		}
	}
	for _, r := range exits {
		if r.Disposition == "demote" && !archived[strings.ToLower(r.Name)] {
			strays = append(strays, Stray{Leg: LegMissingFromArchive, Name: r.Name, Identity: r.Identity, Disposition: r.Disposition,
				Status: r.Status, LedgerLine: r.Line, IndexLine: liveLine[r.Identity],
				Why: fmt.Sprintf("the ledger's %s 'demote' sends this life to the archive, but no archive line carries it", r.Status)})
		}
	}
	return strays
}
