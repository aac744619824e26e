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

// loadedNames are the entry names whose pointers Claude Code loads from
// the index text (every subject not past the cut).
func loadedNames(text string) map[string]bool {
	lc := loadcut.Compute(text, loadcut.DefaultLines, loadcut.DefaultUnits)
	past := map[int]bool{}
	for _, p := range lc.PastCut {
		past[p.Line] = true
	}
	out := map[string]bool{}
	for _, sub := range records.Subjects(textfile.Lines(text)) {
		if !past[sub.Line] {
			out[sub.Name] = true
		}
	}
	return out
}

// TestSweepCutRealStores runs the sweep as an owner who says yes to the
// whole plan would, on copies of the four real stores whose index Claude
// Code cuts: apply --yes finishes (exit 0 or 1, never a refusal), every
// promotion to a file not yet written is held, every subject that loaded
// before and still has its body loads after unless the plan named it, and
// every archive line is its pointer text byte for byte.
func TestSweepCutRealStores(t *testing.T) {
	root := testshared.RealStores(t)
	for _, name := range []string{"1000ssam__claude-config", "Warrenpoobear__claude-memory", "davidtleess__dg-cockpit", "khursheedkhanaiforgood-ai__claude-memory-private"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			copyDir(t, filepath.Join(root, name), dir)
			ix := filepath.Join(dir, "MEMORY.md")
			before, err := os.ReadFile(ix)
			if err != nil {
				t.Fatal(err)
			}
			if !loadcut.Compute(string(before), loadcut.DefaultLines, loadcut.DefaultUnits).Cut {
				t.Fatalf("%s: the index is not cut; it is not one of the four", name)
			}
			pl, err := RunPlan(PlanRequest{Index: ix, AsOf: date(t, "2026-12-02")})
			if err != nil {
				t.Fatal(err)
			}
			planPath := filepath.Join(dir, DefaultPlanRel)
			if err := WritePlan(planPath, pl); err != nil {
				t.Fatal(err)
			}
			named := map[string]bool{}
			promotions := 0
			for _, s := range pl.Subjects {
				if s.Disposition == "promote" {
					promotions++
					if !strings.HasPrefix(s.Destination, UserInstructions+" ") {
						t.Errorf("%s: promoted to %q, not the user's CLAUDE.md", s.Identity, s.Destination)
					}
					continue
				}
				if s.Disposition != Keep {
					named[s.Name] = true
				}
			}
			res, err := RunApply(context.Background(), ApplyRequest{PlanPath: planPath, Yes: true, AsOf: date(t, "2026-12-02"), Home: t.TempDir()})
			if err != nil {
				t.Fatalf("apply --yes refused: %v", err)
			}
			if c := res.ExitCode(); c != 0 && c != 1 {
				t.Errorf("exit %d", c)
			}
			if len(res.Held) != promotions {
				t.Errorf("%d promotion(s) planned to a file nobody wrote, %d held", promotions, len(res.Held))
			}
			after, _ := os.ReadFile(ix)
			loadsAfter := loadedNames(string(after))
			for n := range loadedNames(string(before)) {
				if named[n] {
					continue
				}
				if _, err := os.Stat(filepath.Join(dir, n+".md")); err != nil {
					continue
				}
				if !loadsAfter[n] {
					t.Errorf("%s loaded before the sweep and has its body, but does not load after, and the plan did not name it", n)
				}
			}
			checkArchiveVerbatim(t, 0, dir, string(before))
			restoreAll(t, dir, res, string(before))
			t.Logf("%s: before %+v after %+v, %d acts, %d held, exit %d", name, res.Before, res.After, len(res.Acts), len(res.Held), res.ExitCode())
		})
	}
}

// restoreAll restores every exit a sweep took and checks the index is the
// one before it, byte for byte (when the sweep only took exits: a folded
// duplicate pointer or a settled one is not an exit).
func restoreAll(t *testing.T, dir string, res *ApplyResult, before string) {
	t.Helper()
	for _, a := range res.Acts {
		if !records.IsExit(a.Disposition) {
			t.Logf("%s %s is not an exit; the index is not compared after restoring", a.Disposition, a.Identity)
			return
		}
	}
	for i := len(res.Acts) - 1; i >= 0; i-- {
		if _, err := RunRestore(context.Background(), RestoreRequest{Index: filepath.Join(dir, "MEMORY.md"), Identity: res.Acts[i].Identity, AsOf: date(t, "2026-12-02")}); err != nil {
			t.Fatalf("restore %s: %v", res.Acts[i].Identity, err)
		}
	}
	got, _ := os.ReadFile(filepath.Join(dir, "MEMORY.md"))
	if string(got) != before {
		t.Errorf("restoring every exit does not give the index back byte for byte")
	}
}
