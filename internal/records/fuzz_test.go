package records

import (
	"strings"
	"testing"
)

var ledgerSeeds = []string{
	"2026-08-01 | executed | promote | a@2026-07-01 | r | d",
	"2026-08-01 | proposed | demote | a@unknown | r | none (accepted recall loss)",
	"2026-08-08 | executed | sweep-complete | sweep@2026-08-08 | 41 walked | LEDGER.md",
	"# 2026-08-01 | executed | promote | a@2026-07-01 | r | d",
	"2026-02-30 | executed | promote | a@b@2026-01-01 | r|s | d",
	"\ufeff2026-08-01\t|\u00a0executed | restore | x@2026-01-01 | r | d\r",
}

// FuzzLedger checks that any text parses without panicking, that every
// record line is kept (well-formed or reported), and that a well-formed
// record reads back the same from its own fields.
func FuzzLedger(f *testing.F) {
	for _, s := range ledgerSeeds {
		f.Add(LedgerMarker + "\n" + s + "\n" + s)
	}
	f.Add(LedgerMarker + "\n" + LedgerMarker)
	f.Fuzz(func(t *testing.T, text string) {
		l := ParseLedger("L.md", text, asOf)
		reg := ParseRegion("L.md", text, LedgerMarker)
		if len(l.Records) != len(reg.Lines) {
			t.Fatalf("%d records from %d record lines", len(l.Records), len(reg.Lines))
		}
		bad := 0
		for _, r := range l.Records {
			if r.Malformed != (r.Why != "") {
				t.Fatalf("malformed=%v why=%q", r.Malformed, r.Why)
			}
			if r.Malformed {
				bad++
				continue
			}
			again := ParseLedgerRecord(strings.Join([]string{r.Date.String(), r.Status, r.Disposition, r.Identity, r.Reason, r.Destination}, " | "), r.Num, asOf)
			if again.Malformed || *again != *withRaw(r, again.Raw) {
				t.Fatalf("round trip: %+v vs %+v", r, again)
			}
			if r.Date.After(asOf) || strings.Contains(r.Name, "@") {
				t.Fatalf("accepted %+v", r)
			}
		}
		if bad != len(l.Malformed) {
			t.Fatalf("%d malformed, %d listed", bad, len(l.Malformed))
		}
		for _, r := range l.ExitsInForce() {
			if !IsExit(r.Disposition) || r.Status == StatusProposed {
				t.Fatalf("not an exit in force: %+v", r)
			}
		}
	})
}

func withRaw(r *LedgerRecord, raw string) *LedgerRecord {
	c := *r
	c.Raw, c.Line = raw, 0
	return &c
}

// FuzzSlate checks that any text parses without panicking, that every row
// is kept, that trust is exactly "no malformed row and not duplicated",
// and that a well-formed row's value is in its track's vocabulary.
func FuzzSlate(f *testing.F) {
	for _, s := range []string{
		"2026-08-01 | a@2026-07-01 | critical | yes | why",
		"2026-08-01 | a@2026-07-01 | critical | Yes | why",
		"2026-08-01 | a@2026-07-01 | deferral | 2 | until 2026-09-01 - x",
		"2026-08-01 | a@2026-07-01 | deferral | -1 | until 2026-09-01,",
		"2026-08-01 | a@unknown | landing | in-flight | PR 3",
		"<!-- c --> | x",
	} {
		f.Add(SlateMarker + "\n" + s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s := ParseSlate("S.md", text, asOf)
		reg := ParseRegion("S.md", text, SlateMarker)
		if len(s.Rows) != len(reg.Lines) {
			t.Fatalf("%d rows from %d record lines", len(s.Rows), len(reg.Lines))
		}
		if s.Trustworthy() != (len(s.Malformed) == 0 && reg.State != StateDuplicated) {
			t.Fatal("trust")
		}
		for _, r := range s.Rows {
			if r.Malformed {
				continue
			}
			ok := false
			switch r.Track {
			case TrackCritical:
				ok = r.Value == "yes" || r.Value == "no"
			case TrackDeferral:
				ok = r.Count >= 1 && !r.Until.IsZero()
			case TrackLanding:
				ok = r.Value == "none" || r.Value == "landed" || (r.Value == "in-flight" && r.Detail != "")
			}
			if !ok || r.Date.After(asOf) || IsReservedName(r.Name) {
				t.Fatalf("accepted %+v", r)
			}
			if c := s.Current(r.Identity, r.Track); c == nil || c.Date.Before(r.Date) {
				t.Fatalf("fold lost %+v", r)
			}
		}
	})
}
