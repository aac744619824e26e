package sweepact

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/check"
	"github.com/memcompact/memcompact/internal/testshared"
)

// TestAdoptRealStores adopts copies of the cut real stores (one of them a
// list with headings, all without policy) and checks that the check then
// reads the split shape against the built-in reference, with a size axis
// measured against the known limit; then a sweep plan aims at the budget.
func TestAdoptRealStores(t *testing.T) {
	root := testshared.RealStores(t)
	for _, name := range []string{"1000ssam__claude-config", "khursheedkhanaiforgood-ai__claude-memory-private"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			copyDir(t, filepath.Join(root, name), dir)
			ix := filepath.Join(dir, "MEMORY.md")
			before, _ := os.ReadFile(ix)
			res, err := RunAdopt(context.Background(), AdoptRequest{Index: ix, AsOf: date(t, "2026-12-02")})
			if err != nil {
				t.Fatal(err)
			}
			if res.Written || !strings.Contains(res.Diff, "+limit_observation: 2026-12-02 | 25000 | characters") {
				t.Fatalf("without yes adopt must only show the diff:\n%s", res.Diff)
			}
			if after, _ := os.ReadFile(ix); string(after) != string(before) {
				t.Fatal("adopt without yes changed the index")
			}
			if _, err := RunAdopt(context.Background(), AdoptRequest{Index: ix, AsOf: date(t, "2026-12-02"), Yes: true}); err != nil {
				t.Fatal(err)
			}
			rep, _ := check.Run(context.Background(), check.Request{Index: ix, Today: time.Date(2026, 12, 2, 0, 0, 0, 0, time.Local)})
			var text strings.Builder
			check.WriteText(&text, rep)
			if !strings.Contains(text.String(), "policy: split - stanza and policy file both match the reference") {
				t.Errorf("the adopted store does not read as split:\n%s", text.String())
			}
			pl, err := RunPlan(PlanRequest{Index: ix, AsOf: date(t, "2026-12-02")})
			if err != nil {
				t.Fatal(err)
			}
			if pl.Target.Source != "budget" || pl.Target.Units != 20000 {
				t.Errorf("after adoption the plan should aim at the budget (0.80 of 25000): %+v", pl.Target)
			}
			if _, err := RunAdopt(context.Background(), AdoptRequest{Index: ix, AsOf: date(t, "2026-12-02"), Yes: true}); err == nil {
				t.Error("a second adopt must be refused")
			}
			row, err := RunObserveLimit(context.Background(), ObserveRequest{Index: ix, Value: 24978, Method: "truncation-boundary test", AsOf: date(t, "2026-12-02")})
			if err != nil {
				t.Fatal(err)
			}
			pol, _ := os.ReadFile(filepath.Join(dir, "POLICY.md"))
			if !strings.Contains(string(pol), "limit_observation: 2026-12-02 | 25000 | characters") || !strings.Contains(string(pol), row+"\n<!-- store-values-end -->") {
				t.Errorf("the observation was not appended at the end of the region, the first kept:\n%s", pol)
			}
		})
	}
}
