package sweepact

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/records"
)

// TestDuplicatePointerKeepsEveryHook: a second pointer to the same file
// with its own hook (line 4 after line 3) is dropped, its hook carried to
// line 3 as the plan says, with a ledger row; a second pointer whose hook
// line 3 already carries is dropped with a row too. No index change goes
// without a ledger row, and the dropped line is in ARCHIVE.md verbatim.
func TestDuplicatePointerKeepsEveryHook(t *testing.T) {
	const asOf = "2026-08-08"
	for _, c := range []struct {
		name, index, want, row string
	}{{
		name:  "own hook",
		index: "# Memory\n\n- **[Deploy](x.md)** — run `make release` first\n- [Deploy again](x.md) — tags live under v2/\n- [Other](y.md) — y's hook\n",
		want:  "# Memory\n\n- **[Deploy](x.md)** — run `make release` first; tags live under v2/\n- [Other](y.md) — y's hook\n",
		row:   "its hook carried there: tags live under v2/",
	}, {
		name:  "same hook",
		index: "# Memory\n\n- [Deploy](x.md) — run `make release` first\n- [Deploy](x.md) — run `make release` first\n- [Other](y.md) — y's hook\n",
		want:  "# Memory\n\n- [Deploy](x.md) — run `make release` first\n- [Other](y.md) — y's hook\n",
		row:   "which already carries its hook",
	}} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			ix := filepath.Join(dir, "MEMORY.md")
			write := func(name, text string) {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("MEMORY.md", c.index)
			write("x.md", "---\nname: x\ndescription: release steps\ntype: reference\n---\nRun make release first.\n")
			write("y.md", "---\nname: y\ndescription: y\ntype: reference\n---\nY.\n")
			pl, err := RunPlan(PlanRequest{Index: ix, AsOf: date(t, asOf)})
			if err != nil {
				t.Fatal(err)
			}
			said := false
			for _, s := range pl.Subjects {
				for _, e := range s.Evidence {
					if strings.Contains(e, "apply drops it and keeps every hook on line 3") {
						said = true
					}
				}
			}
			if !said {
				t.Fatalf("the plan does not say what apply does with the duplicate: %+v", pl.Subjects)
			}
			planPath := filepath.Join(dir, DefaultPlanRel)
			if err := WritePlan(planPath, pl); err != nil {
				t.Fatal(err)
			}
			if _, err := RunApply(context.Background(), ApplyRequest{PlanPath: planPath, Yes: true, AsOf: date(t, asOf)}); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(ix)
			if string(got) != c.want {
				t.Errorf("index after:\n%s\nwant:\n%s", got, c.want)
			}
			l, err := records.ReadLedger(filepath.Join(dir, "LEDGER.md"), date(t, asOf))
			if err != nil || !l.Complete() {
				t.Fatalf("ledger: %v", err)
			}
			found := false
			for _, r := range l.Records {
				if r.Name == "x" && r.Disposition == "settle-in-place" && strings.Contains(r.Raw, c.row) {
					found = true
				}
			}
			if !found {
				t.Errorf("no ledger row records the dropped duplicate (%q)", c.row)
			}
			arch, _ := os.ReadFile(filepath.Join(dir, "ARCHIVE.md"))
			if !strings.Contains(string(arch), "\n"+strings.Split(c.index, "\n")[3]+"\n") {
				t.Errorf("the dropped line is not in ARCHIVE.md verbatim:\n%s", arch)
			}
		})
	}
}
