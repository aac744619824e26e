package sweep

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/memcompact/memcompact/internal/testshared"

	"github.com/memcompact/memcompact/internal/records"
)

// TestRealStores runs the inventory, the partition (strict) and the
// reconcile gate over every real store, read-only. None of these stores
// records admitted dates or keeps a ledger, so the sensible verdicts are
// fixed: every pointer subject is unverifiable (never accounted by name,
// never unaccounted), every orphan entry is unaccounted until a sweep
// assesses it, no stray is found, and every reconcile is undecidable.
func TestRealStores(t *testing.T) {
	root := testshared.RealStores(t)
	stores, err := filepath.Glob(filepath.Join(root, "*", "MEMORY.md"))
	if err != nil || len(stores) == 0 {
		t.Fatalf("no stores under %s: %v", root, err)
	}
	asOf := records.Date{Y: 2026, M: 12, D: 2}
	for _, index := range stores {
		t.Run(filepath.Base(filepath.Dir(index)), func(t *testing.T) {
			p, err := ResolvePaths(index, "", "", "")
			if err != nil {
				t.Fatal(err)
			}
			inv, err := BuildInventory(p, asOf)
			if err != nil {
				t.Fatalf("inventory: %v", err)
			}
			a := inv.Artifact
			if a.SubjectCount != len(a.Subjects) || a.Source != "disk" || a.IndexCharacters <= 0 {
				t.Fatalf("artifact: count %d of %d, source %q, %d characters", a.SubjectCount, len(a.Subjects), a.Source, a.IndexCharacters)
			}
			pointers, orphans := 0, 0
			for i, s := range a.Subjects {
				if i > 0 && a.Subjects[i-1].Group > s.Group {
					t.Fatalf("subjects out of group order at %d", i)
				}
				if s.Population == PopPointer {
					pointers++
				} else {
					orphans++
				}
			}
			data, err := json.Marshal(a)
			if err != nil {
				t.Fatal(err)
			}
			art, err := ParseArtifact("inventory.json", data)
			if err != nil {
				t.Fatal(err)
			}
			res, err := RunPartition(art, PartitionInput{Paths: p, AsOf: asOf, Strict: true})
			if err != nil {
				t.Fatalf("partition: %v", err)
			}
			rep := res.Report
			if rep.SubjectsChecked != a.SubjectCount {
				t.Fatalf("checked %d of %d", rep.SubjectsChecked, a.SubjectCount)
			}
			for _, u := range rep.Unaccounted {
				if u.Population != PopOrphan {
					t.Errorf("unchanged store, pointer subject unaccounted: %+v", u)
				}
			}
			if rep.Strays == nil || len(*rep.Strays) != 0 {
				t.Errorf("strays on a store without a ledger: %v", rep.Strays)
			}
			want := ResultAccounted
			switch {
			case len(rep.Unaccounted) > 0:
				want = ResultUnaccounted
			case len(rep.Unverifiable) > 0:
				want = ResultUnverifiable
			}
			if rep.Result != want {
				t.Errorf("result %s, want %s", rep.Result, want)
			}
			led, err := records.ReadLedger(p.Ledger, asOf)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range a.Subjects {
				body := filepath.Join(p.Dir, s.Name+".md")
				if !IsFile(body) {
					continue
				}
				v, err := ReconcileGate(led, body)
				if err != nil {
					t.Fatalf("reconcile %s: %v", s.Name, err)
				}
				if records.IsUnknownKey(v.Identity) != (v.Verdict == Undecidable) {
					t.Errorf("reconcile %s: %s for %s", s.Name, v.Verdict, v.Identity)
				}
			}
			t.Logf("%d pointer subjects, %d orphans, %d non-entry files: %s", pointers, orphans, len(a.NonEntryFiles), rep.Result)
		})
	}
}
