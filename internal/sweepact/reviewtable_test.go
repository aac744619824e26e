package sweepact

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/drift"
	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/testshared"
)

var updateReview = flag.Bool("update-review", false, "rewrite testdata/review-table.txt from the real stores")

// TestReviewTable: the plan's finished and critical calls on the real
// stores' entries, each with the rule that made it and what it read, as
// an owner reviews them (testdata/review-table.txt; -update-review
// rewrites it). A change to a call shows here as a changed row, to be
// read before it is accepted. "not finished" rows are the rules that
// kept an entry whose words alone once made it finished.
func TestReviewTable(t *testing.T) {
	root := testshared.RealStores(t)
	des, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("# The sweep plan's calls on the real stores (store | identity | call | disposition | rule: what it read).\n")
	b.WriteString("# A body the corpus did not copy is stubbed (no status, no description of its own), so every pointer\n")
	b.WriteString("# is judged: those calls rest on the index line alone.\n")
	finished, critical := 0, 0
	for _, de := range des {
		if !de.IsDir() {
			continue
		}
		dir := t.TempDir()
		copyDir(t, filepath.Join(root, de.Name()), dir)
		if _, err := os.Stat(filepath.Join(dir, "MEMORY.md")); err != nil {
			continue
		}
		stubMissingBodies(t, dir)
		pl, err := RunPlan(PlanRequest{Index: filepath.Join(dir, "MEMORY.md"), AsOf: asOf20261204})
		if err != nil {
			fmt.Fprintf(&b, "%s | - | no plan | - | %v\n", de.Name(), err)
			continue
		}
		for _, s := range pl.Subjects {
			if s.FinishedBy != "" {
				finished++
				fmt.Fprintf(&b, "%s | %s | finished | %s | %s\n", de.Name(), s.Identity, s.Disposition, oneLine(s.FinishedBy))
			}
			for _, ev := range s.Evidence {
				if why, ok := strings.CutPrefix(ev, "not finished: "); ok {
					fmt.Fprintf(&b, "%s | %s | not finished | %s | %s\n", de.Name(), s.Identity, s.Disposition, oneLine(why))
				}
			}
			if s.Critical == "yes" {
				critical++
				fmt.Fprintf(&b, "%s | %s | critical | %s | %s\n", de.Name(), s.Identity, s.Disposition, oneLine(s.CriticalWhy))
			}
		}
	}
	got := b.String()
	golden := filepath.Join("testdata", "review-table.txt")
	if *updateReview {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update-review to write it)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) || i < len(wl); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("review table differs at line %d:\n got %s\nwant %s\n(read the calls; -update-review rewrites the table)", i+1, g, w)
			}
		}
	}
	if finished == 0 {
		t.Error("no finished call on any real store: the table reviews nothing")
	}
	t.Logf("%d finished calls, %d critical calls", finished, critical)
}

// stubMissingBodies writes, for every pointer of the store at dir whose
// file is missing inside the store, a stub entry that says nothing of its
// own: the real stores' corpus copied only some bodies, and the owner's
// store has them all.
func stubMissingBodies(t *testing.T, dir string) {
	t.Helper()
	dr, err := drift.Compute(dir, records.MaxDate)
	if err != nil {
		t.Fatal(err)
	}
	rv := index.NewResolver(dir)
	for _, d := range dr.Dangling {
		r := rv.Resolve(index.Destination(d.Target))
		if r.State != index.Missing || r.Outside {
			continue
		}
		name := records.EntryName(r.Path)
		if err := os.MkdirAll(filepath.Dir(r.Path), 0o755); err != nil {
			t.Fatal(err)
		}
		stub := "---\nname: " + name + "\ndescription: a stub for a body the corpus left out\nmetadata:\n  type: project\n---\nstub\n"
		if err := os.WriteFile(r.Path, []byte(stub), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
