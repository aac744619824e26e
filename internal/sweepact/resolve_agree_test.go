package sweepact

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/drift"
	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/testshared"
)

// danglingAgreement compares, on the store at dir, the pointers drift
// calls dangling with the subjects the sweep plan calls dangling (and so
// would remove), by entry name. A link that stays in the store must get
// the same answer from both; one that leaves it (or is a URL) is never
// called dangling by the plan, whatever drift says of the file outside.
func danglingAgreement(t *testing.T, dir string) (checked int) {
	t.Helper()
	ip := filepath.Join(dir, "MEMORY.md")
	dr, err := drift.Compute(dir, records.MaxDate)
	if err != nil {
		t.Fatalf("%s: drift: %v", dir, err)
	}
	pl, err := RunPlan(PlanRequest{Index: ip, AsOf: asOf20261204})
	if err != nil {
		t.Logf("%s: no plan: %v", filepath.Base(dir), err)
		return 0
	}
	outside := map[string]bool{}
	for _, s := range records.Subjects(readLines(t, ip)) {
		if index.Outside(s.Dest) || index.IsURL(s.Dest) {
			outside[s.Name] = true
		}
	}
	var byDrift, byPlan []string
	for _, d := range dr.Dangling {
		if n := records.EntryName(index.Destination(d.Target)); !outside[n] {
			byDrift = append(byDrift, n)
		}
	}
	for _, s := range pl.Subjects {
		if s.Population != "pointer" {
			continue
		}
		checked++
		if strings.HasPrefix(s.Reason, "dangling") {
			if outside[s.Name] {
				t.Errorf("%s: the plan calls %q dangling, but its link leaves the store", filepath.Base(dir), s.Name)
			}
			byPlan = append(byPlan, s.Name)
		}
	}
	sort.Strings(byDrift)
	byDrift = slices.Compact(byDrift)
	sort.Strings(byPlan)
	if !slices.Equal(byDrift, byPlan) {
		t.Errorf("%s: drift finds dangling %q, the sweep plan %q", filepath.Base(dir), byDrift, byPlan)
	}
	return checked
}

func readLines(t *testing.T, p string) []string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n"), "\n")
}

// TestDriftAndPlanAgreeRealStores: on every real store, drift and the
// sweep plan call the same pointers dangling.
func TestDriftAndPlanAgreeRealStores(t *testing.T) {
	root := testshared.RealStores(t)
	des, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	stores, subjects := 0, 0
	for _, de := range des {
		if !de.IsDir() {
			continue
		}
		dir := t.TempDir()
		copyDir(t, filepath.Join(root, de.Name()), dir)
		if _, err := os.Stat(filepath.Join(dir, "MEMORY.md")); err != nil {
			continue
		}
		stores++
		subjects += danglingAgreement(t, dir)
	}
	if stores < 30 || subjects < 500 {
		t.Errorf("compared %d stores, %d subjects: the corpus was not read", stores, subjects)
	}
}

// unusualNames is a store whose entries have the names that real stores
// and Claude Code write and that a link must spell with care: spaces,
// accents, brackets, escapes, references, sub-folders, letter case.
var unusualNames = []struct{ file, link string }{
	{"project notes.md", "project%20notes.md"},
	{"café.md", "caf%C3%A9.md"},
	{"naïve plan.md", "na%c3%afve%20plan.md"},
	{"my file.md", "<my file.md>"},
	{"titled.md", `titled.md "a title"`},
	{"sectioned.md", "sectioned.md#section"},
	{"snake_case.md", `snake\_case.md`},
	{"r&d.md", "r&amp;d.md"},
	{"(draft).md", `<\(draft\).md>`}, // a bare destination cannot hold "(" (the reference's grammar)
	{"topics/nested.md", "topics/nested.md"},
	{"100%.md", "100%.md"},
	{"日本語メモ.md", "日本語メモ.md"},
	{"spaced too.md", "<spaced%20too.md>"},
}

// TestDriftAndPlanAgreeUnusualNames: on a store of unusual names, drift
// and the plan agree that every entry is there and only the one missing
// file is dangling; the plan proposes no removal of an entry that exists.
func TestDriftAndPlanAgreeUnusualNames(t *testing.T) {
	dir := t.TempDir()
	var idx strings.Builder
	idx.WriteString("# Memory\n\n## Entries\n")
	for i, u := range unusualNames {
		p := filepath.Join(dir, filepath.FromSlash(u.file))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("---\nname: n\ndescription: entry "+u.file+"\ntype: project\n---\nA fact.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 {
			idx.WriteString("- **[" + u.file + "](" + u.link + ")** — hook " + u.file + "\n")
		} else {
			idx.WriteString("- [" + u.file + "](" + u.link + ") — hook " + u.file + "\n")
		}
	}
	idx.WriteString("- [gone](gone.md) — a file that is not there\n")
	if err := os.WriteFile(filepath.Join(dir, "MEMORY.md"), []byte(idx.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := danglingAgreement(t, dir); n != len(unusualNames)+1 {
		t.Errorf("the plan has %d pointer subjects, want %d", n, len(unusualNames)+1)
	}
	dr, err := drift.Compute(dir, records.MaxDate)
	if err != nil {
		t.Fatal(err)
	}
	if len(dr.Dangling) != 1 || dr.Dangling[0].Target != "gone.md" || len(dr.Orphans) != 0 {
		t.Errorf("drift: dangling %+v, orphans %+v; want only gone.md dangling", dr.Dangling, dr.Orphans)
	}
	pl, err := RunPlan(PlanRequest{Index: filepath.Join(dir, "MEMORY.md"), AsOf: asOf20261204})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range pl.Subjects {
		if s.Disposition != Keep && s.Name != "gone" {
			t.Errorf("%s: %s (%s), want kept", s.Identity, s.Disposition, s.Reason)
		}
	}
}

// asOf20261204 is the date the plans of these tests are made on.
var asOf20261204 = records.Date{Y: 2026, M: 12, D: 4}
