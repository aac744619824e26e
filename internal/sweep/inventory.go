package sweep

import (
	"fmt"
	"slices"
	"strings"

	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/textfile"
)

// The groups of the sweep's order, first match wins.
const (
	GroupIncomplete = "1-incomplete-disposition"
	GroupCritical   = "2-critical"
	GroupUnassessed = "3-unassessed"
	GroupExpired    = "4-expired-deferral"
	GroupOther      = "5-other"
)

// Why texts of incomplete dispositions.
const (
	whyStillInIndex  = "the record says it exited, but its pointer is still in the index"
	whyNoArchiveLine = "the record says it was demoted, but no archive line carries it"
)

// Inventory is the result of enumerating a store: the artifact and the
// warnings that go beside it.
type Inventory struct {
	Artifact *Artifact
	Warnings []Warning
}

// BuildInventory enumerates the store at p from disk as of asOf: the
// ledger and slate folded, the corpus built, incomplete dispositions found,
// orphans whose life has an exit in force dropped, and the rest ordered by
// group, then name. It writes nothing. It fails only when a file that
// exists cannot be read.
func BuildInventory(p Paths, asOf records.Date) (*Inventory, error) {
	f, lines, err := readIndex(p.Index)
	if err != nil {
		return nil, err
	}
	ledger, err := records.ReadLedger(p.Ledger, asOf)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Ledger, err)
	}
	slate, err := records.ReadSlate(p.Slate, asOf)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Slate, err)
	}
	corpus, err := BuildCorpus(p, lines)
	if err != nil {
		return nil, err
	}
	archive, present, err := records.ArchiveNames(p.Archive)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Archive, err)
	}
	incomplete := IncompleteDispositions(ledger, corpus, archive)
	incompleteIDs := make(map[string]bool, len(incomplete))
	for _, in := range incomplete {
		incompleteIDs[in.Identity] = true
	}

	items := make([]InventoryItem, 0, len(corpus.Entries))
	for _, e := range corpus.Entries {
		if e.Population == PopOrphan {
			if _, gone := ledger.ExitInForce(e.Identity); gone {
				continue
			}
		}
		items = append(items, inventoryItem(e, slate, incompleteIDs, asOf))
	}
	slices.SortStableFunc(items, func(a, b InventoryItem) int {
		if c := strings.Compare(a.Group, b.Group); c != 0 {
			return c
		}
		return compareNames(a.Name, b.Name)
	})

	a := &Artifact{
		EnumeratedOn:    asOf.String(),
		Source:          "disk",
		Index:           p.Index,
		IndexSHA256:     textfile.Digest([]byte(f.Text)),
		IndexCharacters: textfile.Units(f.Text),
		Ledger: LedgerSummary{Path: p.Ledger, State: ledger.State(), Records: len(ledger.Records),
			Malformed: len(ledger.Malformed)},
		Slate: SlateSummary{Path: p.Slate, State: slate.State(), Rows: len(slate.Rows),
			Malformed: len(slate.Malformed), Trustworthy: slate.Trustworthy()},
		Archive:                ArchiveSummary{Path: p.Archive, Present: present, Pointers: len(archive)},
		NonEntryFiles:          corpus.NonEntryFiles,
		IncompleteDispositions: incomplete,
		SubjectCount:           len(items),
		Subjects:               items,
	}
	ws := append(RecordWarnings(ledger, slate), corpus.Warnings...)
	return &Inventory{Artifact: a, Warnings: ws}, nil
}

func inventoryItem(e Entry, slate *records.Slate, incomplete map[string]bool, asOf records.Date) InventoryItem {
	it := InventoryItem{Name: e.Name, Identity: e.Identity, Population: e.Population, IndexLine: e.Line,
		Critical: "unassessed", Landing: "none"}
	critical := slate.Current(e.Identity, records.TrackCritical)
	deferral := slate.Current(e.Identity, records.TrackDeferral)
	landing := slate.Current(e.Identity, records.TrackLanding)
	if critical != nil {
		it.Critical = critical.Value
	}
	if deferral != nil {
		it.DeferralCount = deferral.Count
		u := deferral.Until.String()
		it.DeferredUntil = &u
	}
	if landing != nil {
		it.Landing, it.LandingVehicle = landing.Value, landing.Detail
	}
	switch {
	case incomplete[e.Identity]:
		it.Group = GroupIncomplete
	case critical != nil && critical.Value == "yes":
		it.Group = GroupCritical
	case critical == nil:
		// Nobody has looked: not the same as assessed and ordinary.
		it.Group = GroupUnassessed
	case deferral != nil && !deferral.Until.After(asOf):
		// A deferral is expired on its until date.
		it.Group = GroupExpired
	default:
		it.Group = GroupOther
	}
	return it
}

// IncompleteDispositions returns the exits in force whose act is not
// reflected in the store, in fold order: a life whose pointer is still in
// the index, or a demotion no archive line carries (which may name a life
// outside the corpus altogether). Record-before-act makes an interrupted
// disposition visible here rather than silent; it is surfaced for a person,
// never resolved.
func IncompleteDispositions(ledger *records.Ledger, corpus *Corpus, archive []string) []Incomplete {
	hot := map[string]bool{}
	for _, e := range corpus.Entries {
		if e.Population == PopPointer {
			hot[e.Identity] = true
		}
	}
	archived := foldSet(archive)
	out := []Incomplete{}
	for _, r := range ledger.ExitsInForce() {
		switch {
		case hot[r.Identity]:
			out = append(out, Incomplete{Identity: r.Identity, Disposition: r.Disposition, Why: whyStillInIndex})
		case r.Disposition == "demote" && !archived[strings.ToLower(r.Name)]:
			out = append(out, Incomplete{Identity: r.Identity, Disposition: r.Disposition, Why: whyNoArchiveLine})
		}
	}
	return out
}

// foldSet is a case-insensitive set of names.
func foldSet(names []string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[strings.ToLower(n)] = true
	}
	return m
}
