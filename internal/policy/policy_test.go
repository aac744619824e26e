package policy

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/textfile"
)

func lines(s string) []string { return textfile.Lines(s) }

func TestReadRegion(t *testing.T) {
	tests := []struct {
		name       string
		in         string
		declared   bool
		content    bool
		duplicated bool
		block      []string
		blockStart int
	}{
		{"none", "a\nb\n", false, false, true, nil, 0},
		{"simple", "x\n<!-- policy-canonical-begin -->\none\ntwo\n<!-- policy-canonical-end -->\n", true, true, false, []string{"one", "two"}, 2},
		{"indented, any case", "  <!-- POLICY-canonical-begin -->\t\n\n  one  \n\n<!-- policy-canonical-END -->\n", true, true, false, []string{"  one"}, 2},
		{"adjacent markers", "<!-- policy-canonical-begin -->\n<!-- policy-canonical-end -->\n", true, false, false, nil, 0},
		{"only blank lines", "<!-- policy-canonical-begin -->\n \n\t\n<!-- policy-canonical-end -->\n", true, false, false, nil, 0},
		{"end before begin", "<!-- policy-canonical-end -->\n<!-- policy-canonical-begin -->\nx\n", false, false, false, nil, 0},
		{"stray end before a pair", "<!-- policy-canonical-end -->\n<!-- policy-canonical-begin -->\nx\n<!-- policy-canonical-end -->\n", true, true, true, []string{"x"}, 2},
		{"two regions, first governs", "<!-- policy-canonical-begin -->\na\n<!-- policy-canonical-end -->\n<!-- policy-canonical-begin -->\nb\n<!-- policy-canonical-end -->\n", true, true, true, []string{"a"}, 1},
		{"marker with text is not a marker", "<!-- policy-canonical-begin --> x\ny\n<!-- policy-canonical-end -->\n", false, false, true, nil, 0},
		{"CRLF", "<!-- policy-canonical-begin -->\r\nx \r\n<!-- policy-canonical-end -->\r\n", true, true, false, []string{"x"}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := ReadRegion(lines(tc.in), PolicyBegin, PolicyEnd)
			if r.Declared() != tc.declared || r.HasContent() != tc.content || r.Duplicated() != tc.duplicated {
				t.Errorf("declared %v content %v duplicated %v; want %v %v %v", r.Declared(), r.HasContent(), r.Duplicated(), tc.declared, tc.content, tc.duplicated)
			}
			if !reflect.DeepEqual(r.Block, tc.block) {
				t.Errorf("block %q, want %q", r.Block, tc.block)
			}
			if tc.block != nil && r.BlockStart != tc.blockStart {
				t.Errorf("block starts at %d, want %d", r.BlockStart, tc.blockStart)
			}
		})
	}
}

func TestReadStanza(t *testing.T) {
	const open = "<!-- memory-policy-stanza-begin: POLICY.md -->"
	const end = "<!-- memory-policy-stanza-end -->"
	tests := []struct {
		name     string
		in       string
		declared bool
		reason   string // substring; "" for well-formed
		path     string
		block    []string
	}{
		{"legacy", "# Memory\n" + open + "\nx\n" + end + "\n## E\n", false, "", "", nil},
		{"well formed", "\n  \n" + open + "\nrule one\n" + end + "\n## E\n", true, "", "POLICY.md", []string{"rule one"}},
		{"indented marker declares nothing", "  " + open + "\nx\n" + end + "\n## E\n", false, "", "", nil},
		{"trailing blanks are fine", open + " \t\nx\n" + end + "  \n## E\n", true, "", "POLICY.md", []string{"x"}},
		{"path with spaces", "<!--memory-policy-stanza-begin :  my policy.md   -->\nx\n" + end + "\n## E\n", true, "", "my policy.md", []string{"x"}},
		{"upper-case closing marker", open + "\nx\n<!-- MEMORY-POLICY-STANZA-END -->\n## E\n", true, "", "POLICY.md", []string{"x"}},
		{"no path", "<!-- memory-policy-stanza-begin -->\nx\n" + end + "\n## E\n", true, "line 1 and it names no policy file;", "", nil},
		{"blank path", "<!-- memory-policy-stanza-begin:   -->\nx\n" + end + "\n## E\n", true, "it names no policy file", "", nil},
		{"upper-case opening marker", "<!-- MEMORY-policy-stanza-begin: P.md -->\nx\n" + end + "\n## E\n", true, "the marker name must be written in lower case", "", nil},
		{"upper-case opening marker without path", "<!-- MEMORY-policy-stanza-begin -->\n## E\n", true, "the marker name must be written in lower case", "", nil},
		{"no word boundary", "<!-- memory-policy-stanza-beginning: P.md -->\nx\n" + end + "\n## E\n", false, "", "", nil},
		{"unicode letter after begin", "<!-- memory-policy-stanza-beginé: P.md -->\n## E\n", false, "", "", nil},
		{"never closed", open + "\nx\n## E\n" + end + "\n", true, "is never closed by", "POLICY.md", nil},
		{"adjacent", open + "\n" + end + "\n## E\n", true, "the stanza at line 1 is empty", "POLICY.md", nil},
		{"one blank", open + "\n\n" + end + "\n## E\n", true, "is empty", "POLICY.md", nil},
		{"no heading bounds at the end", open + "\nx\n" + end + "\n", true, "", "POLICY.md", []string{"x"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ls := lines(tc.in)
			heading := -1
			for i, l := range ls {
				if strings.HasPrefix(l, "## ") {
					heading = i
					break
				}
			}
			st := ReadStanza(ls, heading)
			if st.Declared != tc.declared {
				t.Fatalf("declared %v, want %v", st.Declared, tc.declared)
			}
			if tc.reason == "" && st.Reason != "" || !strings.Contains(st.Reason, tc.reason) {
				t.Errorf("reason %q, want %q", st.Reason, tc.reason)
			}
			if st.Path != tc.path {
				t.Errorf("path %q, want %q", st.Path, tc.path)
			}
			if tc.reason == "" && !reflect.DeepEqual(st.Block, tc.block) {
				t.Errorf("block %q, want %q", st.Block, tc.block)
			}
		})
	}
}

var today = time.Date(2026, 12, 2, 0, 0, 0, 0, time.Local)

func values(body string) []string {
	return lines("# P\n\n" + ValuesBegin + "\n" + body + ValuesEnd + "\n")
}

func TestParseValues(t *testing.T) {
	tests := []struct {
		name    string
		in      []string
		present bool
		errs    []string
		ignored []string
		obs     int
	}{
		{"absent", lines("# nothing\n"), false, nil, nil, 0},
		{"empty", values(""), true, nil, nil, 0},
		{"full", values("budget_fraction: 0.75\nstaleness_bound_days: 14\nlimit_observation: 2026-11-01 | 25000 | characters | by hand\n"), true, nil, nil, 1},
		{"skipped lines", values("\n# heading\n```\n<!-- c -->\nlimit_observation: 2026-11-01 | 25000 | characters | m\n```\n"), true, nil, nil, 1},
		{"forward keys", values("x-a: 1\nX-B: 2\nx-a: 3\n"), true, nil, []string{"x-a", "x-b", "x-a"}, 0},
		{"not key value", values("hello\n:x\n"), true, []string{"not a 'key: value' line: 'hello'", "not a 'key: value' line: ':x'"}, nil, 0},
		{"unknown and repeated", values("foo: 1\nfoo: 2\nbudget_fraction: 0.5\nBudget_Fraction: 0.6\n"), true,
			[]string{"unrecognized key 'foo'", "'foo' is recorded more than once; it is not a repeatable key, so which value applies is ambiguous", "'budget_fraction' is recorded more than once; it is not a repeatable key, so which value applies is ambiguous"}, nil, 0},
		{"observation errors", values("limit_observation: 2026-11-01 | 1 | characters\nlimit_observation: 26-11-01 | 1 | characters | m\nlimit_observation: 2026-12-03 | 1 | characters | m\nlimit_observation: 2026-12-02 | 0 | characters | m\nlimit_observation: 2026-12-02 | 1 | bytes | m\n"), true,
			[]string{
				"limit_observation must read 'date | value | unit | method' with a non-blank method; found '2026-11-01 | 1 | characters'",
				"limit_observation date must be yyyy-MM-dd; found '26-11-01'",
				"limit_observation is dated 2026-12-03, in the future; the freshest observation governs, so a future date would outrank every later one that is honest",
				"limit_observation value must be a positive whole number; found '0'",
				"limit_observation unit must be 'characters'; found 'bytes' - this check does not convert between units",
			}, nil, 0},
		{"two empty method fields join to a non-blank method", values("limit_observation: 2026-11-01 | 1 | characters | |\n"), true, nil, nil, 1},
		{"duplicate region", lines(ValuesBegin + "\n" + ValuesEnd + "\n" + ValuesBegin + "\n" + ValuesEnd + "\n"), true,
			[]string{"the policy file carries 2 '<!-- store-values-begin -->' and 2 '<!-- store-values-end -->' marker(s); exactly one of each, in that order, is expected, so which values apply is ambiguous"}, nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := ParseValues(tc.in, today)
			if v.Present != tc.present {
				t.Fatalf("present %v, want %v", v.Present, tc.present)
			}
			var errs []string
			for _, e := range v.Errors {
				errs = append(errs, e.Msg)
				if e.Line < 0 || e.Line > len(tc.in) {
					t.Errorf("error line %d out of range", e.Line)
				}
			}
			if !reflect.DeepEqual(errs, tc.errs) {
				t.Errorf("errors\n got %q\nwant %q", errs, tc.errs)
			}
			if !reflect.DeepEqual(v.Ignored, tc.ignored) {
				t.Errorf("ignored %q, want %q", v.Ignored, tc.ignored)
			}
			if len(v.Observations) != tc.obs {
				t.Errorf("%d observations, want %d", len(v.Observations), tc.obs)
			}
		})
	}
}

func TestObservationFields(t *testing.T) {
	v := ParseValues(values("limit_observation:2026-11-01|+25000|characters|a|b\nlimit_observation: 2026-10-01 | 9 | characters | older\n"), today)
	if len(v.Errors) != 0 {
		t.Fatal(v.Errors)
	}
	o, ok := v.Freshest()
	if !ok || o.Value != 25000 || o.Method != "a | b" || o.Date.Format("2006-01-02") != "2026-11-01" || o.Line != 4 {
		t.Errorf("freshest = %+v", o)
	}
	if AgeDays(o.Date, today) != 31 {
		t.Errorf("age %d, want 31", AgeDays(o.Date, today))
	}
}

func TestParseDecimal(t *testing.T) {
	ok := map[string]float64{"0.8": 0.8, "1": 1, "+.5": 0.5, "1.": 1, "8e-1": 0.8, " 0.25 ": 0.25, "1E0": 1}
	for in, want := range ok {
		if got, good := ParseDecimal(in); !good || got != want {
			t.Errorf("ParseDecimal(%q) = %v, %v; want %v", in, got, good, want)
		}
	}
	for _, in := range []string{"", ".", "0,8", "0x1p-1", "1_0", "1e", "e5", "inf", "8 0", "--1", "1.2.3"} {
		if _, good := ParseDecimal(in); good {
			t.Errorf("ParseDecimal(%q) accepted", in)
		}
	}
}

func TestParseInt32(t *testing.T) {
	ok := map[string]int{"30": 30, "+30": 30, "-3": -3, "007": 7, "2147483647": 2147483647, "-2147483648": -2147483648}
	for in, want := range ok {
		if got, good := ParseInt32(in); !good || got != want {
			t.Errorf("ParseInt32(%q) = %v, %v; want %v", in, got, good, want)
		}
	}
	for _, in := range []string{"", "+", "2147483648", "24,978", "1.0", "1e3", "٣", "+ 3", "99999999999999999999"} {
		if _, good := ParseInt32(in); good {
			t.Errorf("ParseInt32(%q) accepted", in)
		}
	}
}

func TestParseDate(t *testing.T) {
	for _, in := range []string{"2026-02-28", "2024-02-29", "0001-01-01"} {
		if _, ok := textfile.ParseDate(in); !ok {
			t.Errorf("ParseDate(%q) rejected", in)
		}
	}
	for _, in := range []string{"2026-02-29", "2026-2-28", "2026-13-01", "0000-01-01", "2026/02/28", "２０２６-01-01", "2026-01-01T00"} {
		if _, ok := textfile.ParseDate(in); ok {
			t.Errorf("ParseDate(%q) accepted", in)
		}
	}
}

func TestLowerInvariant(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Budget_Fraction", "budget_fraction"},
		{"X-Last-Sweep", "x-last-sweep"},
		{"L\u0130MIT", "l\u0130mit"}, // U+0130 has no invariant lower case in .NET
		{"\u212A", "k"},              // the Kelvin sign lowers to k
		{"ÄÖÜ", "äöü"},
	}
	for _, tc := range tests {
		if got := LowerInvariant(tc.in); got != tc.want {
			t.Errorf("LowerInvariant(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// A key spelled with U+0130 is not limit_observation.
	v := ParseValues([]string{ValuesBegin, "l\u0130mit_observation: 2026-01-01 | 10 | characters | m", ValuesEnd}, time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC))
	if len(v.Observations) != 0 || len(v.Errors) != 1 || v.Errors[0].Msg != "unrecognized key 'l\u0130mit_observation'" {
		t.Errorf("got observations %v, errors %v", v.Observations, v.Errors)
	}
}
