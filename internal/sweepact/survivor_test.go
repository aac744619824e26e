package sweepact

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestReachTargetKeepsDedupeSurvivor: demotions made to reach the target
// never take a dedupe's survivor out of the index (the folded subject's
// lesson lives in it). (sweep-plan-edits.txtar: apply refuses a plan
// edited to do so.)
func TestReachTargetKeepsDedupeSurvivor(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	entry := func(file, name, desc, admitted string) {
		write(file+".md", fmt.Sprintf("---\nname: %s\ndescription: %s\nmetadata:\n  node_type: memory\n  type: reference\n  admitted: %s\n---\n%s\n", name, desc, admitted, desc))
	}
	// The survivor is the oldest subject: the first a demotion would take.
	entry("reference_cache", "cache", "the CI cache key includes go.sum", "2026-01-01")
	entry("reference_cache_copy", "cache", "the CI cache key includes go.sum", "2026-03-01")
	entry("reference_deploy", "deploy", "staging first, then prod after the smoke test", "2026-02-01")
	write("MEMORY.md", "# Memory\n\n## Notes\n"+
		"- [Cache key](reference_cache.md) — the CI cache key includes go.sum, so a module bump busts it\n"+
		"- [Cache key again](reference_cache_copy.md) — the CI cache key includes go.sum\n"+
		"- [Deploy](reference_deploy.md) — staging first, then prod after the smoke test\n")
	pl, err := RunPlan(PlanRequest{Index: filepath.Join(dir, "MEMORY.md"), AsOf: date(t, "2026-08-08"), TargetUnits: 10})
	if err != nil {
		t.Fatal(err)
	}
	disp := map[string]string{}
	for _, s := range pl.Subjects {
		disp[s.Name] = s.Disposition
	}
	if disp["reference_cache_copy"] != "dedupe-into" {
		t.Fatalf("no dedupe proposed: %v", disp)
	}
	if disp["reference_cache"] != Keep {
		t.Fatalf("the dedupe's survivor was proposed for %s: %v", disp["reference_cache"], disp)
	}
	if disp["reference_deploy"] != "demote" {
		t.Errorf("the target was not pursued with the other subject: %v", disp)
	}
}
