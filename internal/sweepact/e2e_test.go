package sweepact

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/loadcut"
	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/sweep"
	"github.com/memcompact/memcompact/internal/testshared"
	"github.com/memcompact/memcompact/internal/textfile"
)

// copyDir copies the regular files of src (recursively) into dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// fixtureStore assembles the reference's fixture store in a temp folder:
// the index from index-body.md, the record files verbatim, the values
// region as a split store's POLICY.md, the entry bodies at the root.
func fixtureStore(t *testing.T) string {
	t.Helper()
	src := filepath.Join(testshared.Dir(t, "reference/agent-orchestra/fixture-store"), "reference/agent-orchestra/fixture-store")
	dir := t.TempDir()
	copyDir(t, filepath.Join(src, "entries"), dir)
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("MEMORY.md", "# Memory\n\n"+read("index-body.md"))
	write("LEDGER.md", read("LEDGER.md"))
	write("SLATE.md", read("SLATE.md"))
	write("POLICY.md", "# Policy\n\n<!-- store-values-begin -->\n"+read("store-values.txt")+"<!-- store-values-end -->\n")
	return dir
}

func date(t testing.TB, s string) records.Date {
	d, ok := records.ParseDate(s)
	if !ok {
		t.Fatalf("bad date %q", s)
	}
	return d
}

// sweepStore runs plan → review (scripted) → apply on dir and checks the
// outcome the issue asks for: accounted, loading whole.
func sweepStore(t *testing.T, dir, asOf, answers string) (*Plan, *ApplyResult) {
	t.Helper()
	ix := filepath.Join(dir, "MEMORY.md")
	pl, err := RunPlan(PlanRequest{Index: ix, AsOf: date(t, asOf)})
	if err != nil {
		t.Fatalf("plan: %v", err)
	}
	planPath := filepath.Join(dir, DefaultPlanRel)
	if err := WritePlan(planPath, pl); err != nil {
		t.Fatal(err)
	}
	back, err := ReadPlan(planPath)
	if err != nil {
		t.Fatalf("plan file does not read back: %v", err)
	}
	var out strings.Builder
	if _, err := Review(back, strings.NewReader(answers), &out); err != nil {
		t.Fatal(err)
	}
	if err := WritePlan(planPath, back); err != nil {
		t.Fatal(err)
	}
	res, err := RunApply(context.Background(), ApplyRequest{PlanPath: planPath, AsOf: date(t, asOf)})
	if err != nil {
		if res != nil {
			t.Logf("refusals: %+v", res.Refusals)
		}
		t.Fatalf("apply: %v\nreview:\n%s", err, out.String())
	}
	// A kept pointer whose body is gone has nothing that could carry a
	// life key: the partition rightly cannot verify it. Everything else
	// must be accounted.
	bodiless := true
	for _, u := range res.Partition.Unverifiable {
		if _, err := os.Stat(filepath.Join(dir, u.Name+".md")); err == nil {
			bodiless = false
		}
	}
	if res.Partition.Result != sweep.ResultAccounted && (res.Partition.Result != sweep.ResultUnverifiable || !bodiless) {
		t.Errorf("partition %s: unaccounted %+v unverifiable %+v strays %+v problems %v", res.Partition.Result, res.Partition.Unaccounted, res.Partition.Unverifiable, res.Partition.Strays, res.Partition.RecordProblems)
	}
	f, err := textfile.Read(ix)
	if err != nil {
		t.Fatal(err)
	}
	if lc := loadcut.Compute(f.Text, loadcut.DefaultLines, loadcut.DefaultUnits); lc.Cut {
		t.Errorf("after the sweep the index is still cut: %d lines, %d units, %d subjects past the cut", lc.LinesTotal, lc.UnitsTotal, len(lc.PastCut))
	}
	return pl, res
}

func TestSweepFixtureStore(t *testing.T) {
	dir := fixtureStore(t)
	// The interrupted promotion is completed, then every pending proposal
	// accepted.
	pl, res := sweepStore(t, dir, "2026-08-08", "a\nA\nA\nA\nA\nA\n")
	t.Logf("plan: %+v", pl.After)
	for _, a := range res.Acts {
		t.Logf("act %s %s", a.Disposition, a.Identity)
	}
}

func TestSweepCutRealStores(t *testing.T) {
	root := testshared.RealStores(t)
	for _, name := range []string{"1000ssam__claude-config", "Warrenpoobear__claude-memory", "davidtleess__dg-cockpit", "khursheedkhanaiforgood-ai__claude-memory-private"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			copyDir(t, filepath.Join(root, name), dir)
			// Promotions wait on a destination nobody has written: the
			// owner rejects them; every other proposal is accepted.
			answers := strings.Repeat("r\n", 0)
			pl, err := RunPlan(PlanRequest{Index: filepath.Join(dir, "MEMORY.md"), AsOf: date(t, "2026-12-02")})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range pl.Subjects {
				if s.Decision != Pending {
					continue
				}
				if s.Disposition == "promote" {
					answers += "r\n"
				} else {
					answers += "a\n"
				}
			}
			_, res := sweepStore(t, dir, "2026-12-02", answers)
			t.Logf("%s: before %+v after %+v, %d acts, %d bound", name, res.Before, res.After, len(res.Acts), len(res.Bound))
		})
	}
}
