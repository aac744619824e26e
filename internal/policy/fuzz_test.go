package policy

import (
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/textfile"
)

func regionSeeds(f *testing.F) {
	for _, s := range []string{
		"",
		"<!-- policy-canonical-begin -->\nx\n<!-- policy-canonical-end -->\n",
		"<!-- policy-canonical-end -->\r<!-- policy-canonical-begin -->\r\n\r\n",
		"<!-- memory-policy-stanza-begin: POLICY.md -->\nrule\n<!-- memory-policy-stanza-end -->\n## E\n",
		"<!-- MEMORY-policy-stanza-begin -->\n\n## x\n",
		"\n \n<!--memory-policy-stanza-begin:  -->\n<!-- memory-policy-stanza-end -->\n",
	} {
		f.Add(s)
	}
}

// FuzzRegion checks that the region and stanza readers are total and keep
// their invariants on any input.
func FuzzRegion(f *testing.F) {
	regionSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		ls := textfile.Lines(s)
		r := ReadRegion(ls, PolicyBegin, PolicyEnd)
		if r.HasContent() && (r.End <= r.Begin || len(r.Block) == 0 || r.BlockStart <= r.Begin || r.BlockStart >= r.End) {
			t.Fatalf("inconsistent region %+v", r)
		}
		for _, l := range r.Block {
			if strings.ContainsAny(l, "\r\n") {
				t.Fatalf("block line with a terminator: %q", l)
			}
		}
		heading := -1
		for i, l := range ls {
			if strings.HasPrefix(l, "## ") {
				heading = i
				break
			}
		}
		st := ReadStanza(ls, heading)
		if st.Declared && !st.Malformed() && (st.Path == "" || len(st.Block) == 0 || st.End <= st.Begin+1) {
			t.Fatalf("well-formed stanza without path or block: %+v", st)
		}
		if !st.Declared && st.Reason != "" {
			t.Fatalf("undeclared stanza with a reason: %+v", st)
		}
	})
}

// FuzzValues checks that the values parser never panics and that every
// observation it accepts is valid.
func FuzzValues(f *testing.F) {
	for _, s := range []string{
		"budget_fraction: 0.80\nstaleness_bound_days: 30\nlimit_observation: 2026-11-01 | 24978 | characters | m\n",
		"x-a: 1\nfoo: 2\n: 3\nbudget_fraction: NaN\n",
		"limit_observation: 2026-02-30 | +1 | characters | a|b\n",
		"budget_fraction: 1e400\nstaleness_bound_days: -0\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		v := ParseValues(values(body), today)
		if !v.Present {
			t.Fatal("values region not present")
		}
		for _, o := range v.Observations {
			if o.Value <= 0 || o.Unit != Unit || strings.TrimSpace(o.Method) == "" || o.Date.After(today) {
				t.Fatalf("invalid observation accepted: %+v", o)
			}
		}
		if v.HasFraction && !(v.Fraction > 0 && v.Fraction <= 1) {
			t.Fatalf("fraction %v accepted", v.Fraction)
		}
		if v.HasStaleness && v.Staleness <= 0 {
			t.Fatalf("staleness %v accepted", v.Staleness)
		}
		_ = ParseValues(textfile.Lines(body), time.Time{})
	})
}
