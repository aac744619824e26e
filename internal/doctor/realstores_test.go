package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/testshared"

	"github.com/memcompact/memcompact/internal/check"
	"github.com/memcompact/memcompact/internal/loadcut"
	"github.com/memcompact/memcompact/internal/reference"
)

// TestRealStores runs the doctor over every real store in the corpus. No
// store may be unreadable or refused: the doctor refuses nothing it can
// read, including the 28 stores the strict check refuses. The verdicts
// below were read one by one; the surprising ones:
//
//   - Dangling pointers dominate (Warrenpoobear 196, davidtleess 93,
//     khursheedkhanaiforgood-ai 73): the corpus copied only some entry
//     files, so these are true of the copies, not of the original stores.
//   - Four stores lose subjects past Claude Code's load cut (1000ssam 12 at
//     the 200-line limit; Warrenpoobear 169 and davidtleess 42 and
//     khursheedkhanaiforgood-ai 13 at the 25,000-character limit) — the
//     problem this tool exists for, in a quarter of the large stores.
//   - JADEKANG's 3 "secrets" are Google Docs ids flagged by the
//     high-entropy rule, a false positive of the detector, reported as is.
//   - Index-only prose stores (0xDarkMatter, ActorForth, floomhq, toddward,
//     5throck's table) have no pointer lines: healthy, with "nothing to
//     judge" on hooks rather than a false all-clear.
func TestRealStores(t *testing.T) {
	root := testshared.RealStores(t)
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct{ result string }{
		"jewzaam__my-claude-stuff":     {"healthy"},
		"1000ssam__claude-config":      {"problems"},
		"Warrenpoobear__claude-memory": {"problems"},
		"0xlucian__ccops":              {"healthy"},
		"1nj0k__KSword":                {"problems"},
	}
	today := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	ref := check.Reference{Display: reference.BuiltinDisplay, Text: reference.EmbeddedText()}
	refused, n := 0, 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		n++
		t.Run(e.Name(), func(t *testing.T) {
			ix := filepath.Join(root, e.Name(), "MEMORY.md")
			r := Diagnose(Options{Index: ix, Reference: ref, Today: today})
			if r.Result == "unreadable" {
				t.Fatalf("unreadable: %s", r.Reason)
			}
			if w, ok := want[e.Name()]; ok && r.Result != w.result {
				t.Errorf("result %s, want %s", r.Result, w.result)
			}
			if r.CheckResult == check.Refused {
				refused++
				if !hasArea(r, AreaPolicy) {
					t.Errorf("refused by the strict check, but no line on adopting the policy")
				}
			}
			// The doctor and the load verb count the same subjects.
			text, _ := os.ReadFile(ix)
			lc := loadcut.Compute(string(text), loadcut.DefaultLines, loadcut.DefaultUnits)
			if lc.SubjectsTotal != r.Subjects || len(lc.PastCut) != r.PastCut {
				t.Errorf("subjects %d/%d past cut, load says %d/%d", r.Subjects, r.PastCut, lc.SubjectsTotal, len(lc.PastCut))
			}
			for _, area := range []string{AreaLoad, AreaDrift, AreaSecrets, AreaBudgets, AreaCheck} {
				if !hasArea(r, area) {
					t.Errorf("no %s finding", area)
				}
			}
			problems := 0
			for _, f := range r.Findings {
				if f.Status == StatusProblem {
					problems++
					if f.Command == "" {
						t.Errorf("%s: a problem without a command", f.Area)
					}
				}
			}
			if problems != r.Problems || (problems == 0) != (r.Result == "healthy") {
				t.Errorf("problems %d, result %s, findings with problems %d", r.Problems, r.Result, problems)
			}
			var b strings.Builder
			if err := WriteText(&b, r); err != nil || !strings.Contains(b.String(), "verdict: ") {
				t.Errorf("text: %v", err)
			}
		})
	}
	if n != 40 || refused != 28 {
		t.Errorf("%d stores, %d refused by the strict check; the corpus README says 40 and 28", n, refused)
	}
}

func hasArea(r *Report, area string) bool {
	for _, f := range r.Findings {
		if f.Area == area {
			return true
		}
	}
	return false
}
