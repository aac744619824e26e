// Package sweepact performs the sweep the sweep instruments (package sweep)
// check: it proposes a disposition for every subject of a store (Plan),
// lets the owner decide (the plan file, Review), and executes the decided
// dispositions record-before-act, each behind its gate (Apply), and brings
// an exited subject back (Restore).
//
// Every write takes the store's lock (storelock) for the sweep's whole
// duration, appends its ledger record (fsync) before its act, and replaces
// a file only through atomicfile, whose digest check refuses a file that
// changed since it was read. Nothing is deleted: a demoted pointer moves to
// ARCHIVE.md, a removed body to the store's archive/ folder.
package sweepact

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/loadcut"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/sweep"
	"github.com/memcompact/memcompact/internal/textfile"
)

// The plan file's kind and version.
const (
	PlanKind    = "memcompact-sweep-plan"
	PlanVersion = 1
)

// Plan-only dispositions: not ledger dispositions, because nothing leaves.
const (
	// Keep leaves the subject where it is.
	Keep = "keep"
	// Complete finishes an interrupted disposition whose executed record
	// is already in the ledger: the act is done, no second record written.
	Complete = "complete"
)

// Decisions on a subject.
const (
	Pending  = "pending"
	Accepted = "accepted"
	Rejected = "rejected"
)

// PlanDispositions are the dispositions a plan may carry.
var PlanDispositions = []string{Keep, Complete, "demote", "remove-obsolete", "remove-fails-admission",
	"promote", "evaporate-on-close", "dedupe-into", "settle-in-place", "keep-hot-with-expiry", "restore"}

// Figures are an index's size as Claude Code loads it.
type Figures struct {
	Lines          int  `json:"lines"`
	Units          int  `json:"units"`
	SubjectsTotal  int  `json:"subjects_total"`
	SubjectsLoaded int  `json:"subjects_loaded"`
	Cut            bool `json:"cut"`
	WithinTarget   bool `json:"within_target"`
}

// Target is what the plan aims the index at.
type Target struct {
	Lines  int    `json:"lines"`
	Units  int    `json:"units"`
	Source string `json:"source"` // "load-cut", "budget" or "flag"
}

// Subject is one subject's proposed disposition.
type Subject struct {
	Identity       string   `json:"identity"`
	Name           string   `json:"name"`
	Population     string   `json:"population"`
	Line           int      `json:"line,omitempty"`
	Disposition    string   `json:"disposition"`
	Decision       string   `json:"decision"`
	Reason         string   `json:"reason"`
	Evidence       []string `json:"evidence"`
	Critical       string   `json:"critical"` // yes, no, or "" (unassessed)
	CriticalWhy    string   `json:"critical_why,omitempty"`
	Assess         bool     `json:"assess,omitempty"` // the slate has no current row: apply appends this assessment
	Destination    string   `json:"destination,omitempty"`
	LessonProbe    string   `json:"lesson_probe,omitempty"`
	Landed         bool     `json:"destination_landed,omitempty"`
	Into           string   `json:"into,omitempty"`  // dedupe-into: the surviving identity
	Until          string   `json:"until,omitempty"` // keep-hot-with-expiry
	DuplicateLines []int    `json:"duplicate_lines,omitempty"`
	Units          int      `json:"units"`
	Recalls        int      `json:"recalls"`
	LastRead       string   `json:"last_read,omitempty"` // the recall log's last read, yyyy-MM-dd
	LoadsNow       bool     `json:"loads_now"`
	// FinishedBy is the rule that judged the entry finished or superseded
	// and what it read (judge.go), when one did.
	FinishedBy string `json:"finished_by,omitempty"`
}

// Plan is a proposed sweep, and the file the owner edits.
type Plan struct {
	SchemaVersion int       `json:"schema_version"`
	Kind          string    `json:"kind"`
	Index         string    `json:"index"`
	IndexSHA256   string    `json:"index_sha256"`
	PlannedOn     string    `json:"planned_on"`
	Target        Target    `json:"target"`
	BudgetUnits   *int      `json:"budget_units"`
	Before        Figures   `json:"before"`
	After         Figures   `json:"after"`
	LoadsAfter    []string  `json:"loads_after"` // identities that would load, in index order
	BindLifeKeys  bool      `json:"bind_life_keys"`
	Notes         []string  `json:"notes"`
	Cost          Cost      `json:"cost"`
	Subjects      []Subject `json:"subjects"`

	// readFrom and readDigest are the file a plan was read from and the
	// digest of the bytes read, so WritePlan never overwrites an edit made
	// to that file since.
	readFrom, readDigest string
}

// Cost is what a plan costs the sessions that start after it: the
// subjects that load today and would not after it, and which of them
// were read recently. A plan keeps every subject that loads today and was
// read in the last RecentDays, and every subject the index emphasizes;
// when the target needs some of them gone, Kept names them and Trade the
// fewest whose demotion would reach it, for the owner to take or leave.
type Cost struct {
	LoadNoLonger []CostItem `json:"load_no_longer"`
	ReadRecently []string   `json:"read_recently"`
	Kept         []string   `json:"kept,omitempty"`
	Trade        []string   `json:"trade,omitempty"`
}

// CostItem is one subject that loads today and would not after the plan.
type CostItem struct {
	Identity    string `json:"identity"`
	Disposition string `json:"disposition"`
	Recalls     int    `json:"recalls"`
	LastRead    string `json:"last_read,omitempty"`
}

// costOf lists the subjects of pl that load today and would not after it.
func costOf(pl *Plan, asOf records.Date) (items []CostItem, recent []string) {
	loads := map[string]bool{}
	for _, n := range pl.LoadsAfter {
		loads[n] = true
	}
	items, recent = []CostItem{}, []string{}
	for i := range pl.Subjects {
		sub := &pl.Subjects[i]
		if !sub.LoadsNow || loads[sub.Name] {
			continue
		}
		items = append(items, CostItem{Identity: sub.Identity, Disposition: sub.Disposition, Recalls: sub.Recalls, LastRead: sub.LastRead})
		if readRecently(sub, asOf) {
			recent = append(recent, sub.Identity)
		}
	}
	return items, recent
}

// PlanRequest asks for a plan.
type PlanRequest struct {
	Index        string
	AsOf         records.Date
	TargetUnits  int // 0: the load cut, or the budget when smaller
	RecordLedger bool
	// Project is the project whose CLAUDE.md standing rules are promoted
	// to; "" promotes to the user's CLAUDE.md (UserInstructions).
	Project string
	// Reads is the caller's read of each file for its run (doctor and the
	// session-start hook share it with their other parts); nil: read here.
	Reads *textfile.Reads
}

// store is everything a plan or an apply reads of a store, read once.
type store struct {
	paths   sweep.Paths
	index   *textfile.File
	lines   []string
	ledger  *records.Ledger
	slate   *records.Slate
	corpus  *sweep.Corpus
	incomp  []sweep.Incomplete
	bodies  map[string]*body // by entry name
	budget  *int
	recalls map[string]recallStat
	// active names the entries a structural rule found still in work
	// (an active status or tag, a settlement, open work in a status
	// line): a plan never demotes one of them unasked.
	active map[string]bool
	ix     *index.Index // lines parsed, once (see parsed)
	log    *rowLog      // the ledger rows this run appended
}

// parsed is the index's lines parsed; they never change once read.
func (s *store) parsed() *index.Index {
	if s.ix == nil {
		s.ix = index.Parse(s.lines)
	}
	return s.ix
}

func readStore(indexPath string, asOf records.Date, reads *textfile.Reads) (*store, error) {
	p, err := storePaths(indexPath)
	if err != nil {
		return nil, err
	}
	f, err := reads.Read(p.Index)
	if err != nil {
		return nil, refusef(ReasonUnreadable, p.Index, "the index could not be read: %v", cause(err))
	}
	s := &store{paths: p, index: f, lines: textfile.Lines(f.Text), bodies: map[string]*body{}, log: &rowLog{rf: ledgerFile(p.Ledger)}}
	if s.ledger, err = records.ReadLedger(p.Ledger, asOf); err != nil {
		return nil, refusef(ReasonUnreadable, p.Ledger, "the ledger could not be read: %v", err)
	}
	if !s.ledger.Complete() {
		return nil, ledgerRefusal(s.ledger)
	}
	if s.slate, err = records.ReadSlate(p.Slate, asOf); err != nil {
		return nil, refusef(ReasonUnreadable, p.Slate, "the slate could not be read: %v", err)
	}
	if !s.slate.Trustworthy() {
		return nil, refusef(ReasonRecords, p.Slate, "the slate carries rows this parser cannot read (%d); every gate refuses on it, so repair it before sweeping", len(s.slate.Malformed))
	}
	if s.corpus, err = sweep.BuildCorpusWith(p, s.lines, reads); err != nil {
		return nil, refusef(ReasonUnreadable, p.Index, "%v", err)
	}
	archive, _, err := records.ArchiveNames(p.Archive)
	if err != nil {
		return nil, refusef(ReasonUnreadable, p.Archive, "the archive could not be read: %v", err)
	}
	s.incomp = sweep.IncompleteDispositions(s.ledger, s.corpus, archive)
	for _, e := range s.corpus.Entries {
		if _, ok := s.bodies[e.Name]; ok {
			continue
		}
		path := e.Body
		if path == "" { // an orphan: a file of the store's directory
			path = filepath.Join(p.Dir, e.Name+".md")
		}
		b, err := readBody(reads, path)
		if err != nil {
			return nil, refusef(ReasonUnreadable, path, "the entry could not be read: %v", err)
		}
		s.bodies[e.Name] = b
	}
	s.budget = readBudget(p.Dir, asOf)
	s.recalls = readRecalls(p.Dir)
	return s, nil
}

func ledgerRefusal(l *records.Ledger) error {
	if l.State() == records.StateDuplicated {
		return refusef(ReasonRecords, l.Path(), "%s", l.Region.Why)
	}
	m := l.Malformed[0]
	e := refusef(ReasonRecords, l.Path(), "the ledger cannot be read whole: %d record(s) this parser cannot read, the first: %s", len(l.Malformed), m.Why)
	e.Line = m.Line
	return e
}

// figures measures lines of an index against the target. It needs the
// cut and the subjects, not the text Claude Code would be handed (which
// costs more than the rest: a plan measures its index a dozen times).
func figures(lines []string, t Target) (Figures, loadcut.Result) {
	text := strings.Join(lines, "\n") + "\n"
	r := loadcut.ComputeParsed(text, index.Parse(textfile.Lines(text)), loadcut.DefaultLines, loadcut.DefaultUnits, false)
	f := Figures{Lines: r.LinesTotal, Units: r.UnitsTotal, SubjectsTotal: r.SubjectsTotal,
		SubjectsLoaded: r.SubjectsTotal - len(r.PastCut), Cut: r.Cut}
	f.WithinTarget = !r.Cut && r.LinesTotal <= t.Lines && textfile.Units(text) <= t.Units
	return f, r
}

// RunPlan proposes a disposition for every subject of the store at
// req.Index, then the fewest, safest demotions that bring the index within
// the target. It writes nothing (the caller writes the plan file and, with
// RecordLedger, the proposals); with RecordLedger it refuses first a ledger
// the proposals could not be appended to, so no plan file is written for a
// run that must refuse.
func RunPlan(req PlanRequest) (*Plan, error) {
	if req.TargetUnits < 0 {
		return nil, &outcome.Error{Status: outcome.Usage, Reason: ReasonBadArg, Msg: fmt.Sprintf("the target must be a positive number of UTF-16 units, not %d", req.TargetUnits)}
	}
	s, err := readStore(req.Index, req.AsOf, req.Reads)
	if err != nil {
		return nil, err
	}
	if req.RecordLedger {
		if err := recordsWritable(s.paths.Dir, "", []regionFile{ledgerFile(s.paths.Ledger)}); err != nil {
			return nil, err
		}
	}
	t := Target{Lines: loadcut.DefaultLines, Units: loadcut.DefaultUnits, Source: "load-cut"}
	if s.budget != nil && *s.budget < t.Units {
		t.Units, t.Source = *s.budget, "budget"
	}
	if req.TargetUnits > 0 {
		t.Units, t.Source = req.TargetUnits, "flag"
	}
	pl := &Plan{SchemaVersion: PlanVersion, Kind: PlanKind, Index: s.paths.Index, IndexSHA256: s.index.Digest,
		PlannedOn: req.AsOf.String(), Target: t, BudgetUnits: s.budget, Notes: []string{}}
	var loaded loadcut.Result
	pl.Before, loaded = figures(s.lines, t)
	propose(s, pl, req.AsOf, loaded)
	namePromotions(pl, req.Project)
	reachTarget(s, pl, req.AsOf)
	pl.After, pl.LoadsAfter = after(s, pl)
	pl.Cost.LoadNoLonger, pl.Cost.ReadRecently = costOf(pl, req.AsOf)
	if !pl.After.WithinTarget && len(pl.Cost.Kept) == 0 {
		pl.Notes = append(pl.Notes, fmt.Sprintf("even with every non-critical subject demoted the index stays over the target (%d lines, %d units); what is left is critical entries and text that is not a pointer", pl.After.Lines, pl.After.Units))
	}
	for _, sub := range pl.Subjects {
		if sub.Population == sweep.PopPointer && sub.Disposition == Keep && records.IsUnknownKey(sub.Identity) {
			pl.BindLifeKeys = true
			pl.Notes = append(pl.Notes, "entries that stay record no admitted date: apply binds each one's life key (metadata.admitted: the sweep's date) before enumerating, so the partition can tell this life from a later one; set bind_life_keys to false to leave them unbound (the partition then answers unverifiable)")
			break
		}
	}
	return pl, nil
}

// slotsOf maps each planned exit to the index slots it empties.
func slotsOf(s *store, pl *Plan) map[Slot]bool {
	drop := map[Slot]bool{}
	ix := s.parsed()
	want := map[string]bool{}
	dupLines := map[string]map[int]bool{}
	for _, sub := range pl.Subjects {
		if leaves(sub) {
			want[sub.Name] = true
		}
		if len(sub.DuplicateLines) > 0 && sub.Decision != Rejected {
			dupLines[sub.Name] = map[int]bool{}
			for _, l := range sub.DuplicateLines {
				dupLines[sub.Name][l] = true
			}
		}
	}
	for i := range ix.Lines {
		l := &ix.Lines[i]
		for n, k := range l.Subjects() {
			name := records.LinkName(k)
			if want[name] || dupLines[name][l.Num] {
				drop[Slot{l.Num, n}] = true
			}
		}
	}
	return drop
}

// leaves reports whether a subject's planned disposition takes its pointer
// out of the index (a promotion counts only once it is accepted: it waits
// on a destination that may not have landed).
func leaves(sub Subject) bool {
	if sub.Decision == Rejected || sub.Population != sweep.PopPointer {
		return false
	}
	switch sub.Disposition {
	case Keep, "keep-hot-with-expiry", "restore", "settle-in-place":
		return false
	case "promote", "evaporate-on-close":
		return sub.Decision == Accepted
	case Complete:
		return true
	}
	return true
}

// after computes the index the plan would leave and who would load.
func after(s *store, pl *Plan) (Figures, []string) {
	lines, _ := rebuild(s.parsed(), slotsOf(s, pl))
	f, r := figures(lines, pl.Target)
	past := map[string]bool{}
	for _, p := range r.PastCut {
		past[records.EntryName(p.Dest)] = true
	}
	loads := []string{}
	for _, sub := range records.Subjects(lines) {
		if !past[sub.Name] {
			loads = append(loads, sub.Name)
		}
	}
	slices.Sort(loads)
	loads = slices.Compact(loads)
	return f, loads
}

// RunRecordProposals appends one proposed ledger record per subject the plan
// would move (anything but keep), under the store's lock. Any session may
// propose; nothing is removed.
func RunRecordProposals(pl *Plan, asOf records.Date, wait time.Duration) (int, error) {
	dir := filepath.Dir(pl.Index)
	release, err := lockStore(context.Background(), dir, wait)
	if err != nil {
		return 0, err
	}
	defer release()
	var rows []string
	for _, s := range pl.Subjects {
		if s.Disposition == Keep || s.Disposition == Complete || s.Decision == Rejected {
			continue
		}
		dest := s.Destination
		if dest == "" {
			dest = "none (accepted recall loss)"
		}
		rows = append(rows, LedgerRow(asOf, records.StatusProposed, s.Disposition, s.Identity, s.Reason, dest))
	}
	p, _ := sweep.ResolvePaths(pl.Index, "", "", "")
	if err := recordsWritable(p.Dir, "", []regionFile{ledgerFile(p.Ledger)}); err != nil {
		return 0, err
	}
	log := &rowLog{rf: ledgerFile(p.Ledger)}
	if err := log.add(rows...); err != nil {
		return 0, refusef(ReasonWrite, p.Ledger, "%v", err)
	}
	if _, err := log.ensure("proposals"); err != nil {
		return 0, refusef(ReasonWrite, p.Ledger, "the ledger was replaced while the proposals were recorded and they could not be appended again: %v", err)
	}
	return len(rows), nil
}
