package records

import (
	"regexp"
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

// The frontmatter line patterns as they were written before the hand
// matchers replaced them (a pattern compiled in every session start that
// read an entry's frontmatter): the oracle of isNodeTypeMemory and
// admittedValue.
var (
	nodeTypeOracle = regexp.MustCompile(`(?i)^[` + ws + `]*node_type:[` + ws + `]*memory[` + ws + `]*$`)
	admittedOracle = regexp.MustCompile(`^[` + ws + `]*admitted:[` + ws + `]*([^` + ws + `]+)[` + ws + `]*$`)
)

var frontmatterLineSeeds = []string{
	"node_type: memory", "  NODE_TYPE:\tMemory \r", "node_type:memory", "node_type: memory x", "node_type:",
	"\u00a0node_type:\u2003memory\u3000", "node_type: meMORY\u0085", "xnode_type: memory", "node_type: \u212aemory",
	"admitted: 2026-01-01", "  admitted:\t'2026-01-01'  ", "admitted:", "admitted: a b", "Admitted: 2026", "admitted:\u00a0x\u00a0",
	"metadata.admitted: x", "  admitted: \xff", "admitted: ä", "",
}

func checkFrontmatterLine(t *testing.T, l string) {
	t.Helper()
	if got, want := isNodeTypeMemory(l), nodeTypeOracle.MatchString(l); got != want {
		t.Errorf("isNodeTypeMemory(%q) = %v, the pattern says %v", l, got, want)
	}
	v, ok := admittedValue(l)
	m := admittedOracle.FindStringSubmatch(l)
	if ok != (m != nil) || ok && v != m[1] {
		t.Errorf("admittedValue(%q) = %q, %v; the pattern says %q", l, v, ok, m)
	}
}

func TestFrontmatterLines(t *testing.T) {
	for _, l := range frontmatterLineSeeds {
		checkFrontmatterLine(t, l)
	}
}

func FuzzFrontmatterLines(f *testing.F) {
	for _, l := range frontmatterLineSeeds {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, l string) {
		if strings.ContainsAny(l, "\n") {
			return // one line at a time, as ParseEntryFacts gives them
		}
		checkFrontmatterLine(t, l)
	})
}
