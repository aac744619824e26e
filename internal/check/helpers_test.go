package check

import (
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
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

// kindPrefixesByPattern is KindPrefixes as first written, with the
// regular expression the hand matcher replaced.
func kindPrefixesByPattern(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile("`([A-Za-z][A-Za-z0-9-]*_)`").FindAllStringSubmatch(text, -1) {
		k := strings.ToLower(m[1])
		if !seen[k] {
			seen[k] = true
			out = append(out, m[1])
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return collateLess(out[i], out[j]) })
	return out
}

// TestKindPrefixesAsPattern: the hand matcher finds what the pattern found,
// on random texts of backticks, prefix characters, case variants and
// characters that end a match, over one line and split into lines.
func TestKindPrefixesAsPattern(t *testing.T) {
	pieces := []string{"`", "``", "a", "B", "z", "_", "__", "-", "7", "`a_`", "`A_`", "`ab-1_`", "`x_", "_`", " ", "\n", "é", "`é_`", "`1x_`"}
	r := rand.New(rand.NewPCG(3, 4))
	texts := 50000
	if testing.Short() {
		texts = 10000 // the full run draws 50,000
	}
	for range texts {
		var b strings.Builder
		for range r.IntN(16) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		text := b.String()
		want := kindPrefixesByPattern(text)
		if got := KindPrefixes(text); !slices.Equal(got, want) {
			t.Fatalf("KindPrefixes(%q) = %q, want %q", text, got, want)
		}
		if got := kindPrefixesOf(strings.Split(text, "\n")); !slices.Equal(got, want) {
			t.Fatalf("kindPrefixesOf(lines of %q) = %q, want %q", text, got, want)
		}
	}
}
