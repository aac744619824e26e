package records

import (
	"fmt"
	"slices"
)

// Ledger statuses, in the order a disposition's status may advance.
const (
	StatusProposed   = "proposed"
	StatusExecuted   = "executed"
	StatusReconciled = "reconciled"
)

// The eleven dispositions the sweep procedure names, by kind.
var (
	// ExitDispositions remove the pointer from the index.
	ExitDispositions = []string{"promote", "demote", "remove-fails-admission", "evaporate-on-close", "dedupe-into", "remove-obsolete"}
	// NonExitDispositions keep the entry (restore brings a demoted pointer
	// back and supersedes the exit recorded for that life).
	NonExitDispositions = []string{"keep-hot-with-expiry", "settle-in-place", "restore"}
	// SelfDispositions are the sweep's records about itself.
	SelfDispositions = []string{"sweep-complete", "ledger-compaction"}
)

// IsDisposition reports whether d is one of the eleven (exact spelling).
func IsDisposition(d string) bool { return IsExit(d) || IsNonExit(d) || IsSelf(d) }

// IsExit reports whether d removes the pointer from the index.
func IsExit(d string) bool { return slices.Contains(ExitDispositions, d) }

// IsNonExit reports whether d is an entry disposition that is not an exit.
func IsNonExit(d string) bool { return slices.Contains(NonExitDispositions, d) }

// IsSelf reports whether d is one of the sweep's own records.
func IsSelf(d string) bool { return slices.Contains(SelfDispositions, d) }

func statusRank(s string) int {
	switch s {
	case StatusExecuted:
		return 1
	case StatusReconciled:
		return 2
	}
	return 0
}

// LedgerRecord is one record line of LEDGER.md, well-formed or not.
type LedgerRecord struct {
	Num         int    // record number in file order (skipped lines not counted)
	Line        int    // 1-based line of the file
	Raw         string // the line, trimmed
	Date        Date
	Status      string
	Disposition string
	Identity    string // the life key as written
	Name        string // its name part
	Admitted    string // its admitted part (a date or Unknown)
	Reason      string
	Destination string
	Malformed   bool
	Why         string // why it is malformed
}

// later reports whether r is later than s in the ledger's order: by date,
// then by position in the append-only file.
func (r *LedgerRecord) later(s *LedgerRecord) bool {
	if c := r.Date.Compare(s.Date); c != 0 {
		return c > 0
	}
	return r.Num > s.Num
}

// ParseLedgerRecord parses one record line, numbered num, as of asOf. A
// line that does not parse comes back Malformed with the reason; it never
// fails otherwise.
func ParseLedgerRecord(text string, num int, asOf Date) *LedgerRecord {
	r := &LedgerRecord{Num: num, Raw: trim(text)}
	bad := func(why string) *LedgerRecord {
		r.Malformed, r.Why = true, why
		return r
	}
	f := splitFields(text)
	if len(f) != 6 {
		return bad(fmt.Sprintf("expected exactly 6 pipe-separated fields (date | status | disposition | identity | reason | destination); found %d. No field may contain a pipe.", len(f)))
	}
	d, why := checkDate(f[0], asOf, "a ledger record date")
	if why != "" {
		return bad(why)
	}
	r.Date = d
	if statusRank(f[1]) == 0 && f[1] != StatusProposed {
		return bad(fmt.Sprintf("status must be one of proposed, executed, reconciled; found '%s'", f[1]))
	}
	r.Status = f[1]
	if !IsDisposition(f[2]) {
		return bad(fmt.Sprintf("disposition '%s' is not one the sweep procedure names", f[2]))
	}
	r.Disposition = f[2]
	id, why := ParseIdentity(f[3], asOf)
	if why != "" {
		return bad(why)
	}
	self := IsSelf(r.Disposition)
	if self && !IsReservedName(id.Name) {
		return bad(fmt.Sprintf("a '%s' record's identity must use a reserved name (sweep, ledger); found '%s'", r.Disposition, id.Name))
	}
	if !self && IsReservedName(id.Name) {
		return bad(fmt.Sprintf("'%s' is reserved for the sweep's own records and may not name an entry", id.Name))
	}
	r.Identity, r.Name, r.Admitted = f[3], id.Name, id.Admitted
	if f[4] == "" {
		return bad("a record must state its reason")
	}
	r.Reason = f[4]
	if f[5] == "" {
		return bad(`a record must state its destination, or "none" with what is accepted`)
	}
	r.Destination = f[5]
	return r
}

// Ledger is LEDGER.md read and folded.
type Ledger struct {
	Region    *Region
	Records   []*LedgerRecord // every record line, in file order
	Malformed []*LedgerRecord // the malformed ones, in file order

	effective []*LedgerRecord          // effective record per (identity, disposition), in first-appearance order
	exits     map[string]*LedgerRecord // identity → governing exit in force
	exitOrder []string                 // identities of exits, in fold order
	byName    map[string]int           // name → number of exits in force
}

// ReadLedger reads and folds the ledger at path as of asOf. A missing file
// (or a directory) reads as an absent, empty ledger; a file that exists
// but cannot be read is an error wrapping ErrUnreadable.
func ReadLedger(path string, asOf Date) (*Ledger, error) {
	reg, err := ReadRegion(path, LedgerMarker)
	if err != nil {
		return nil, err
	}
	return FoldLedger(reg, asOf), nil
}

// ParseLedger parses and folds decoded ledger text.
func ParseLedger(path, text string, asOf Date) *Ledger {
	return FoldLedger(ParseRegion(path, text, LedgerMarker), asOf)
}

// FoldLedger parses a ledger region's records and folds them.
func FoldLedger(reg *Region, asOf Date) *Ledger {
	l := &Ledger{Region: reg, exits: map[string]*LedgerRecord{}, byName: map[string]int{}}
	for _, ln := range reg.Lines {
		r := ParseLedgerRecord(ln.Text, ln.Num, asOf)
		r.Line = ln.Line
		l.Records = append(l.Records, r)
		if r.Malformed {
			l.Malformed = append(l.Malformed, r)
		}
	}
	l.fold()
	return l
}

type dispKey struct{ identity, disposition string }

// fold computes the exits in force. Effective record per (identity,
// disposition): a status never retreats, so a later lower-ranked row is
// ignored; a higher rank replaces whatever its date; an equal rank replaces
// when later by date, then file order. Restore per identity: the latest
// executed-or-reconciled restore. An effective exit record (executed or
// reconciled) is in force unless that restore is later than it; of two
// exits in force for one life the later governs.
func (l *Ledger) fold() {
	effective := map[dispKey]*LedgerRecord{}
	var order []dispKey
	restored := map[string]*LedgerRecord{}
	for _, r := range l.Records {
		if r.Malformed {
			continue
		}
		k := dispKey{r.Identity, r.Disposition}
		held, ok := effective[k]
		switch {
		case !ok:
			effective[k] = r
			order = append(order, k)
		case statusRank(r.Status) < statusRank(held.Status):
		case statusRank(r.Status) > statusRank(held.Status) || r.later(held):
			effective[k] = r
		}
		if r.Disposition == "restore" && r.Status != StatusProposed {
			if u, ok := restored[r.Identity]; !ok || r.later(u) {
				restored[r.Identity] = r
			}
		}
	}
	for _, k := range order {
		r := effective[k]
		l.effective = append(l.effective, r)
		if !IsExit(r.Disposition) || r.Status == StatusProposed {
			continue
		}
		if u, ok := restored[r.Identity]; ok && u.later(r) {
			continue
		}
		if held, ok := l.exits[r.Identity]; ok {
			if held.later(r) {
				continue
			}
			l.exits[r.Identity] = r
			continue
		}
		l.exits[r.Identity] = r
		l.exitOrder = append(l.exitOrder, r.Identity)
	}
	for _, id := range l.exitOrder {
		l.byName[l.exits[id].Name]++
	}
}

// State is the region's state (absent, unmarked, duplicated, present).
func (l *Ledger) State() string { return l.Region.State }

// Path is the ledger's path as given.
func (l *Ledger) Path() string { return l.Region.Path }

// Complete reports whether every record of the file was read: the region
// is not duplicated and no record is malformed. A reader that must not
// decide on a partial record (a gate, a guard) checks this first.
func (l *Ledger) Complete() bool {
	return l.Region.State != StateDuplicated && len(l.Malformed) == 0
}

// ExitInForce returns the governing exit record in force for a life key
// (e.g. "reference_x@2026-07-10"), if any. Life keys compare exactly,
// case-sensitively.
func (l *Ledger) ExitInForce(identity string) (*LedgerRecord, bool) {
	r, ok := l.exits[identity]
	return r, ok
}

// ExitsInForce returns the governing exit records in force, one per life,
// in fold order (the order in which each life's first qualifying record
// appears in the file).
func (l *Ledger) ExitsInForce() []*LedgerRecord {
	out := make([]*LedgerRecord, len(l.exitOrder))
	for i, id := range l.exitOrder {
		out[i] = l.exits[id]
	}
	return out
}

// ExitsInForceForName returns how many exits in force carry an entry name
// (any life). It answers "how many lives of this name left", never "did
// this entry leave": that question is ExitInForce, on the life key.
func (l *Ledger) ExitsInForceForName(name string) int { return l.byName[name] }

// Decisions returns the effective records (the latest row per identity and
// disposition, status never retreating) whose status is executed or
// reconciled, in the order each (identity, disposition) pair first appears
// in the file. A proposal is not a decision.
func (l *Ledger) Decisions() []*LedgerRecord {
	var out []*LedgerRecord
	for _, r := range l.effective {
		if r.Status != StatusProposed {
			out = append(out, r)
		}
	}
	return out
}
