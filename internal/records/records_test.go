package records

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var asOf = Date{2026, 8, 8}

func TestParseLedgerRecord(t *testing.T) {
	tests := []struct {
		name, line, why string // why "" means well-formed
	}{
		{"ok", "2026-08-01 | executed | promote | a@2026-07-01 | r | d", ""},
		{"ok unknown", "2026-08-01 | proposed | demote | a@unknown | r | d", ""},
		{"self ok", "2026-08-08 | executed | sweep-complete | sweep@2026-08-08 | walked | LEDGER.md", ""},
		{"five fields", "2026-08-01 | executed | promote | a@2026-07-01 | r", "expected exactly 6 pipe-separated fields (date | status | disposition | identity | reason | destination); found 5. No field may contain a pipe."},
		{"pipe in reason", "2026-08-01 | executed | promote | a@2026-07-01 | r|s | d", "found 7"},
		{"hash line", "# 2026-08-01 | executed | promote | a@2026-07-01 | r | d", "a ledger record date must be a real date in yyyy-MM-dd form; found '# 2026-08-01'"},
		{"bad date", "2026-02-30 | executed | promote | a@2026-01-01 | r | d", "a ledger record date must be a real date in yyyy-MM-dd form; found '2026-02-30'"},
		{"short year", "226-02-03 | executed | promote | a@2026-01-01 | r | d", "real date"},
		{"future", "2026-08-09 | executed | promote | a@2026-01-01 | r | d", "a ledger record date is dated 2026-08-09, in the future; the freshest row governs and the record is append-only, so a future date would outrank every honest row appended after it"},
		{"status case", "2026-08-01 | Executed | promote | a@2026-07-01 | r | d", "status must be one of proposed, executed, reconciled; found 'Executed'"},
		{"no status", "2026-08-01 |  | promote | a@2026-07-01 | r | d", "found ''"},
		{"disposition", "2026-08-01 | executed | delete | a@2026-07-01 | r | d", "disposition 'delete' is not one the sweep procedure names"},
		{"at in name", "2026-08-01 | executed | promote | a@b@2026-07-01 | r | d", "an entry name may not contain '@'; 'a@b@2026-07-01' does not decode to one identity"},
		{"no at", "2026-08-01 | executed | promote | a | r | d", "identity must read '<entry-name>@<yyyy-MM-dd>' or '<entry-name>@unknown'; found 'a'"},
		{"leading at", "2026-08-01 | executed | promote | @2026-07-01 | r | d", "identity must read"},
		{"Unknown", "2026-08-01 | executed | promote | a@Unknown | r | d", "the admitted date in an identity must be a real date in yyyy-MM-dd form; found 'Unknown'"},
		{"future admitted", "2026-08-01 | executed | promote | a@2026-09-01 | r | d", "the admitted date in an identity is dated 2026-09-01, in the future"},
		{"self name", "2026-08-08 | executed | sweep-complete | a@2026-08-08 | r | d", "a 'sweep-complete' record's identity must use a reserved name (sweep, ledger); found 'a'"},
		{"reserved entry", "2026-08-08 | executed | demote | ledger@2026-08-08 | r | d", "'ledger' is reserved for the sweep's own records and may not name an entry"},
		{"reserved case", "2026-08-08 | executed | demote | Ledger@2026-08-08 | r | d", ""},
		{"no reason", "2026-08-01 | executed | promote | a@2026-07-01 |  | d", "a record must state its reason"},
		{"no destination", "2026-08-01 | executed | promote | a@2026-07-01 | r | ", `a record must state its destination, or "none" with what is accepted`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ParseLedgerRecord(tt.line, 1, asOf)
			if tt.why == "" {
				if r.Malformed {
					t.Fatalf("malformed: %s", r.Why)
				}
				return
			}
			if !r.Malformed || !strings.Contains(r.Why, tt.why) {
				t.Fatalf("got malformed=%v why=%q, want %q", r.Malformed, r.Why, tt.why)
			}
		})
	}
}

func TestParseSlateRow(t *testing.T) {
	tests := []struct{ name, line, why string }{
		{"critical", "2026-08-01 | a@2026-07-01 | critical | yes | why", ""},
		{"critical Yes", "2026-08-01 | a@2026-07-01 | critical | Yes | why", "a critical row's value must be one of yes, no - lower case, exactly; found 'Yes'"},
		{"critical no why", "2026-08-01 | a@2026-07-01 | critical | no | ", "a critical row must say why the two-part test does or does not hold"},
		{"six fields", "2026-08-01 | a@2026-07-01 | critical | no | x | y", "expected exactly 5 pipe-separated fields (date | identity | track | value | detail); found 6. No field may contain a pipe."},
		{"track", "2026-08-01 | a@2026-07-01 | presence | gone | x", "track must be one of critical, deferral, landing; found 'presence'"},
		{"reserved", "2026-08-01 | sweep@2026-07-01 | critical | no | x", "'sweep' is reserved for the sweep's own records and may not name an entry"},
		{"deferral", "2026-08-01 | a@2026-07-01 | deferral | 1 | until 2026-09-01 - reason", ""},
		{"deferral plus", "2026-08-01 | a@2026-07-01 | deferral | +2 | until 2026-09-01", ""},
		{"deferral zero", "2026-08-01 | a@2026-07-01 | deferral | 0 | until 2026-09-01", "a deferral's value is its running count, a positive whole number; found '0'"},
		{"deferral word", "2026-08-01 | a@2026-07-01 | deferral | one | until 2026-09-01", "found 'one'"},
		{"deferral huge", "2026-08-01 | a@2026-07-01 | deferral | 99999999999 | until 2026-09-01", "found '99999999999'"},
		{"no until", "2026-08-01 | a@2026-07-01 | deferral | 1 | for a while", "a deferral must carry 'until <yyyy-MM-dd>' in its detail; found 'for a while'"},
		{"until comma", "2026-08-01 | a@2026-07-01 | deferral | 1 | until 2026-09-01, then", "a deferral's until date must be a real date in yyyy-MM-dd form; found '2026-09-01,'"},
		{"until Until", "2026-08-01 | a@2026-07-01 | deferral | 1 | Until 2026-09-01", "must carry 'until"},
		{"until far future ok", "2026-08-01 | a@2026-07-01 | deferral | 1 | until 2099-01-01", ""},
		{"landing", "2026-08-01 | a@2026-07-01 | landing | landed | ", ""},
		{"landing bad", "2026-08-01 | a@2026-07-01 | landing | merged | x", "a landing row's value must be one of none, in-flight, landed; found 'merged'"},
		{"in-flight no vehicle", "2026-08-01 | a@2026-07-01 | landing | in-flight |  ", "an in-flight landing must name its vehicle in the detail field"},
		{"future", "2026-12-01 | a@2026-07-01 | critical | no | x", "a slate row date is dated 2026-12-01, in the future"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ParseSlateRow(tt.line, 1, asOf)
			if tt.why == "" {
				if r.Malformed {
					t.Fatalf("malformed: %s", r.Why)
				}
				return
			}
			if !r.Malformed || !strings.Contains(r.Why, tt.why) {
				t.Fatalf("got malformed=%v why=%q, want %q", r.Malformed, r.Why, tt.why)
			}
		})
	}
}

func TestRegion(t *testing.T) {
	tests := []struct {
		name, text, state string
		records           []int // file lines of the records
	}{
		{"unmarked", "a | b\n", StateUnmarked, nil},
		{"present", "# head\n\n<!-- memory-ledger-begin -->\n\nrow1\n<!-- note -->\n  <!-- memory-ledger-end -->  \n# row2\r\nrow3", StatePresent, []int{5, 8, 9}},
		{"indented marker", "  <!-- memory-ledger-begin -->\t\nrow", StatePresent, []int{2}},
		{"marker case", "<!-- MEMORY-LEDGER-BEGIN -->\nrow", StateUnmarked, nil},
		{"duplicated", "<!-- memory-ledger-begin -->\nrow\n<!-- memory-ledger-begin -->\nrow", StateDuplicated, nil},
		{"half comment", "<!-- memory-ledger-begin -->\n<!-- open\nclose -->", StatePresent, []int{2, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ParseRegion("L.md", tt.text, LedgerMarker)
			if r.State != tt.state {
				t.Fatalf("state %s, want %s", r.State, tt.state)
			}
			var got []int
			for _, l := range r.Lines {
				got = append(got, l.Line)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.records) {
				t.Fatalf("record lines %v, want %v", got, tt.records)
			}
		})
	}
	r := ParseRegion("L.md", "<!-- memory-ledger-begin -->\n<!-- memory-ledger-begin -->\n", LedgerMarker)
	if want := "'L.md' carries 2 '<!-- memory-ledger-begin -->' markers; which region governs has no answer, so no record in this file is read"; r.Why != want {
		t.Fatalf("why %q", r.Why)
	}
}

const marker = LedgerMarker + "\n"

func TestLedgerFolds(t *testing.T) {
	tests := []struct {
		name    string
		rows    string
		inForce []string // identities, in fold order
	}{
		{"proposal is not an exit", "2026-08-01 | proposed | demote | a@2026-01-01 | r | d", nil},
		{"proposed then executed", "2026-08-01 | proposed | demote | a@2026-01-01 | r | d\n2026-08-02 | executed | demote | a@2026-01-01 | r | d", []string{"a@2026-01-01"}},
		{"executed then proposed stays", "2026-08-01 | executed | demote | a@2026-01-01 | r | d\n2026-08-05 | proposed | demote | a@2026-01-01 | r | d", []string{"a@2026-01-01"}},
		{"reconciled stays", "2026-08-01 | executed | promote | a@2026-01-01 | r | d\n2026-08-02 | reconciled | promote | a@2026-01-01 | r | d", []string{"a@2026-01-01"}},
		{"restore later undoes", "2026-08-01 | executed | demote | a@2026-01-01 | r | d\n2026-08-02 | executed | restore | a@2026-01-01 | r | d", nil},
		{"proposed restore does not", "2026-08-01 | executed | demote | a@2026-01-01 | r | d\n2026-08-02 | proposed | restore | a@2026-01-01 | r | d", []string{"a@2026-01-01"}},
		{"restore earlier does not", "2026-08-02 | executed | demote | a@2026-01-01 | r | d\n2026-08-01 | executed | restore | a@2026-01-01 | r | d", []string{"a@2026-01-01"}},
		{"same day file order: restore last", "2026-08-01 | executed | demote | a@2026-01-01 | r | d\n2026-08-01 | executed | restore | a@2026-01-01 | r | d", nil},
		{"same day file order: exit last", "2026-08-01 | executed | restore | a@2026-01-01 | r | d\n2026-08-01 | executed | demote | a@2026-01-01 | r | d", []string{"a@2026-01-01"}},
		{"reconciled after restore re-instates", "2026-08-01 | executed | demote | a@2026-01-01 | r | d\n2026-08-02 | executed | restore | a@2026-01-01 | r | d\n2026-08-03 | reconciled | demote | a@2026-01-01 | r | d", []string{"a@2026-01-01"}},
		{"lives are separate", "2026-08-01 | executed | demote | a@2026-01-01 | r | d\n2026-08-02 | executed | restore | a@2026-05-01 | r | d", []string{"a@2026-01-01"}},
		{"order is first appearance", "2026-08-01 | proposed | demote | b@2026-01-01 | r | d\n2026-08-01 | executed | promote | a@2026-01-01 | r | d\n2026-08-02 | executed | demote | b@2026-01-01 | r | d", []string{"b@2026-01-01", "a@2026-01-01"}},
		{"malformed is not read", "# 2026-08-01 | executed | demote | a@2026-01-01 | r | d", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := ParseLedger("L.md", marker+tt.rows, asOf)
			var got []string
			for _, r := range l.ExitsInForce() {
				got = append(got, r.Identity)
				if _, ok := l.ExitInForce(r.Identity); !ok {
					t.Fatalf("ExitInForce(%s) false", r.Identity)
				}
			}
			if strings.Join(got, " ") != strings.Join(tt.inForce, " ") {
				t.Fatalf("in force %v, want %v", got, tt.inForce)
			}
		})
	}
	l := ParseLedger("L.md", marker+"2026-08-01 | executed | demote | a@2026-01-01 | r | d\n2026-08-02 | executed | promote | a@2026-01-01 | r | d\n2026-08-02 | executed | demote | a@2026-03-01 | r | d", asOf)
	if r, _ := l.ExitInForce("a@2026-01-01"); r.Disposition != "promote" {
		t.Fatalf("two exits: %s governs, want the later promote", r.Disposition)
	}
	if n := l.ExitsInForceForName("a"); n != 2 {
		t.Fatalf("exits for name a: %d", n)
	}
	if !l.Complete() {
		t.Fatal("complete ledger reported incomplete")
	}
}

func TestSlateFold(t *testing.T) {
	s := ParseSlate("S.md", SlateMarker+"\n"+strings.Join([]string{
		"2026-08-02 | a@2026-01-01 | critical | yes | x",
		"2026-08-01 | a@2026-01-01 | critical | no | earlier date, later row: ignored",
		"2026-08-02 | a@2026-01-01 | deferral | 1 | until 2026-09-01",
		"2026-08-02 | a@2026-01-01 | deferral | 2 | until 2026-10-01 - same date, later row: governs",
	}, "\n"), asOf)
	if c := s.Current("a@2026-01-01", TrackCritical); c == nil || c.Value != "yes" {
		t.Fatalf("critical %+v", c)
	}
	if d := s.Current("a@2026-01-01", TrackDeferral); d == nil || d.Count != 2 || d.Until.String() != "2026-10-01" {
		t.Fatalf("deferral %+v", d)
	}
	if s.Current("a@2026-01-01", TrackLanding) != nil || !s.Trustworthy() {
		t.Fatal("landing or trust")
	}
	bad := ParseSlate("S.md", SlateMarker+"\n2026-08-02 | a@2026-01-01 | critical | Yes | x\n", asOf)
	if bad.Trustworthy() || len(bad.Malformed) != 1 || bad.Malformed[0].Line != 2 {
		t.Fatalf("malformed slate: %+v", bad.Malformed)
	}
	dup := ParseSlate("S.md", SlateMarker+"\n"+SlateMarker+"\n", asOf)
	if dup.Trustworthy() {
		t.Fatal("a duplicated slate is not trustworthy")
	}
	if !ParseSlate("S.md", "no marker\n", asOf).Trustworthy() {
		t.Fatal("an unmarked slate is trustworthy and empty")
	}
}

func TestEntryFacts(t *testing.T) {
	tests := []struct {
		name, text string
		entry      bool
		admitted   string
	}{
		{"nested", "---\nname: x\nmetadata:\n  node_type: memory\n  admitted: 2026-07-09\n---\nbody\nadmitted: 2020-01-01\n", true, "2026-07-09"},
		{"node type case", "---\nNODE_TYPE: Memory\n---\n", true, Unknown},
		{"quoted raw", "---\nnode_type: memory\nadmitted: \"2026-07-09\"\n---\n", true, `"2026-07-09"`},
		{"comment", "---\nnode_type: memory\nadmitted: 2026-07-09 # note\n---\n", true, Unknown},
		{"last wins", "---\nadmitted: 2026-01-01\nadmitted: 2026-02-02\n", false, "2026-02-02"},
		{"no frontmatter", "# title\nadmitted: 2026-01-01\n", false, Unknown},
		{"crlf bom", "\ufeff---\r\nnode_type: memory\r\nadmitted: 2026-03-03\r\n---\r\n", true, "2026-03-03"},
		{"key case", "---\nAdmitted: 2026-03-03\n---\n", false, Unknown},
		{"empty", "", false, Unknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := strings.TrimPrefix(tt.text, "\ufeff")
			f := ParseEntryFacts(text)
			if f.IsEntry != tt.entry || f.Admitted != tt.admitted {
				t.Fatalf("got entry=%v admitted=%q", f.IsEntry, f.Admitted)
			}
		})
	}
}

func TestReadFiles(t *testing.T) {
	dir := t.TempDir()
	// A missing file and a directory are absent.
	l, err := ReadLedger(filepath.Join(dir, "LEDGER.md"), asOf)
	if err != nil || l.State() != StateAbsent {
		t.Fatalf("missing: %v %v", err, l)
	}
	os.Mkdir(filepath.Join(dir, "SLATE.md"), 0o755)
	s, err := ReadSlate(filepath.Join(dir, "SLATE.md"), asOf)
	if err != nil || s.State() != StateAbsent || !s.Trustworthy() {
		t.Fatalf("directory: %v", err)
	}
	// A symlink loop exists but cannot be read: an error, never "absent".
	loop := filepath.Join(dir, "LOOP.md")
	if err := os.Symlink(loop, loop); err == nil {
		if _, err := ReadLedger(loop, asOf); err == nil {
			t.Fatal("unreadable ledger read as absent")
		}
	}
	body := filepath.Join(dir, "x.md")
	os.WriteFile(body, []byte("---\nnode_type: memory\nadmitted: 2026-01-02\n---\n"), 0o644)
	if id, err := EntryIdentity(body); err != nil || id != "x@2026-01-02" {
		t.Fatalf("identity %q %v", id, err)
	}
	if id, _ := EntryIdentity(filepath.Join(dir, "gone.md")); id != "gone@unknown" {
		t.Fatalf("missing body identity %q", id)
	}
	os.WriteFile(filepath.Join(dir, "ARCHIVE.md"), []byte("# a\n\n- [x](sub/X.md#h) — hook; [y](<y.MD>) — hook\n[z](z.md) not a pointer line\n"), 0o644)
	names, present, err := ArchiveNames(filepath.Join(dir, "ARCHIVE.md"))
	if err != nil || !present || strings.Join(names, ",") != "X,y" {
		t.Fatalf("archive %v %v %v", names, present, err)
	}
}

func TestParseDate(t *testing.T) {
	for s, ok := range map[string]bool{"2026-02-28": true, "2024-02-29": true, "2026-02-29": false, "2026-13-01": false,
		"2026-1-01": false, "0000-01-01": false, "2026-01-01 ": false, "２０２６-01-01": false, "2026/01/01": false} {
		if _, got := ParseDate(s); got != ok {
			t.Errorf("ParseDate(%q) = %v", s, got)
		}
	}
}
