package check

import (
	"reflect"
	"testing"

	"github.com/memcompact/memcompact/internal/textfile"
)

func TestKindPrefixes(t *testing.T) {
	got := KindPrefixes("`project_` and `Reference_`, `reference_` again, `a-b_`, `a_`, `ab_`, `x1_`, `xa_`, `_no`, `1x_`, `feedback_`")
	want := []string{"a_", "a-b_", "ab_", "feedback_", "project_", "Reference_", "x1_", "xa_"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if !matchesKind("dir/REFERENCE_x.md", []string{"reference_"}) || matchesKind("reference-x.md", []string{"reference_"}) || matchesKind("ref.md", []string{"reference_"}) {
		t.Error("matchesKind")
	}
}

func TestFirstDivergence(t *testing.T) {
	ref := []string{"a", "b"}
	cases := map[string][]string{
		"": {"a", "b"},
		"first divergence at header line 2: header has 'B'; reference has 'b'":                       {"a", "B"},
		"first divergence at header line 2: header has '<end of header>'; reference has 'b'":         {"a"},
		"first divergence at header line 3: header has 'c'; reference has '<end of reference text>'": {"a", "b", "c"},
	}
	for want, adopted := range cases {
		if got := FirstDivergence(adopted, ref, "header"); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
	_ = textfile.Lines
}
