package recall

import (
	"reflect"
	"testing"

	"github.com/memcompact/memcompact/internal/index"
)

func TestJudgeHooks(t *testing.T) {
	tests := []struct {
		name    string
		line    string
		reasons []string // per subject: "" for a hook
	}{
		{"clause", "- [alpha](reference_alpha.md) — a stale read wins", []string{""}},
		{"bare title", "- [Alpha lesson](reference_alpha_lesson.md)", []string{ReasonBareTitle}},
		{"bare title across hyphens", "- [Pre-existing](reference_preexisting.md)", []string{ReasonBareTitle}},
		{"stop words dropped", "- [The alpha of it](reference_alpha.md)", []string{ReasonBareTitle}},
		{"empty link text", "- [](reference_alpha.md)", []string{ReasonBareTitle}},
		{"link text says more", "- [retries drop writes](reference_alpha.md)", []string{""}},
		{"filler link text", "- [see body](reference_alpha.md)", []string{ReasonFillerLinkText}},
		{"filler clause", "- [alpha](reference_alpha.md) — see body", []string{ReasonFillerClause}},
		{"N/A clause", "- [alpha](reference_alpha.md) — N/A", []string{ReasonFillerClause}},
		{"punctuation clause", "- **[alpha](reference_alpha.md)**", []string{ReasonFillerClause}},
		{"a single stop word is a hook", "- [alpha](reference_alpha.md) — the", []string{""}},
		{"link text rescues a filler clause", "- [retries drop writes](reference_alpha.md) — tbd", []string{""}},
		{"clause between links belongs to the first", "- [alpha](reference_alpha.md) — drops writes · [beta](reference_beta.md)", []string{"", ReasonBareTitle}},
		{"url slices the clause", "- [alpha](reference_alpha.md) [docs](https://x) — says a lot", []string{ReasonBareTitle}},
		{"non-ascii words vanish", "- [アルファ](reference_alpha.md) — 説明", []string{ReasonFillerClause}},
		// .NET's invariant lower case keeps U+0130, so "İnk" is the word "nk",
		// which the filename already carries; Go's own ToLower would read "ink".
		{"dotted capital I is not an i", "- [İnk](reference_nk.md)", []string{ReasonBareTitle}},
		{"Kelvin sign is a k", "- [\u212Aey](reference_key.md)", []string{ReasonBareTitle}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ix := index.Parse([]string{"## E", tc.line})
			subjects, _ := Judge(ix)
			var got []string
			for _, s := range subjects {
				got = append(got, s.Reason)
				if s.HasHook != (s.Reason == "") {
					t.Errorf("HasHook %v with reason %q", s.HasHook, s.Reason)
				}
			}
			if !reflect.DeepEqual(got, tc.reasons) {
				t.Errorf("reasons %q, want %q", got, tc.reasons)
			}
		})
	}
}

func TestSharedNotes(t *testing.T) {
	tests := []struct {
		name  string
		line  string
		notes []SharedNote
		bare  int
	}{
		{"trailing note over bare subjects", "- [alpha](reference_alpha.md), [beta](reference_beta.md) — both cover the retry cap behaviour",
			[]SharedNote{{Line: 2, Position: "trailing", Subjects: []string{"reference_alpha.md", "reference_beta.md"}, Note: "both cover the retry cap behaviour"}}, 1},
		{"leading note", "- Retry cap lessons learned here: [alpha](reference_alpha.md), [beta](reference_beta.md)",
			[]SharedNote{{Line: 2, Position: "leading", Subjects: []string{"reference_alpha.md", "reference_beta.md"}, Note: "Retry cap lessons learned here"}}, 2},
		{"each subject has its own hook", "- [alpha](reference_alpha.md) — drops writes; [beta](reference_beta.md) — caps retries at three", nil, 0},
		{"a short label is not a note", "- Git truth: [alpha](reference_alpha.md), [beta](reference_beta.md)", nil, 2},
		{"one subject never shares", "- Retry cap lessons learned here: [alpha](reference_alpha.md)", nil, 1},
		{"numbered bullet stripped", "12. Retry cap lessons learned here: [alpha](reference_alpha.md) [beta](reference_beta.md)",
			[]SharedNote{{Line: 2, Position: "leading", Subjects: []string{"reference_alpha.md", "reference_beta.md"}, Note: "Retry cap lessons learned here"}}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ix := index.Parse([]string{"## E", tc.line})
			if got := SharedNotes(ix); !reflect.DeepEqual(got, tc.notes) {
				t.Errorf("notes\n got %+v\nwant %+v", got, tc.notes)
			}
			if got := len(Hookless(ix)); got != tc.bare {
				t.Errorf("%d without hook, want %d", got, tc.bare)
			}
		})
	}
}
