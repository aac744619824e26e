package sweepact

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// recallStore writes a store of n entries, each with a long hook, the
// recall log given (lines "date<TAB>name") and entry i's frontmatter
// extra[i]; it returns the index path.
func recallStore(t *testing.T, n int, log string, extra map[int]string) string {
	t.Helper()
	dir := t.TempDir()
	var ix strings.Builder
	ix.WriteString("# Memory\n\n## Entries\n")
	for i := range n {
		name := fmt.Sprintf("project_e%02d", i)
		fmt.Fprintf(&ix, "- [Entry %d](%s.md) — %s\n", i, name, strings.Repeat(fmt.Sprintf("lesson %d about retries; ", i), 8))
		body := fmt.Sprintf("---\nname: %s\ndescription: lesson %d\nmetadata:\n  type: project\n%s---\nLesson %d.\n", name, i, extra[i], i)
		if err := os.WriteFile(filepath.Join(dir, name+".md"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(dir, "MEMORY.md")
	if err := os.WriteFile(p, []byte(ix.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if log != "" {
		if err := os.MkdirAll(filepath.Join(dir, ".memcompact"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, RecallRel), []byte(log), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

func byName(pl *Plan) map[string]Subject {
	m := map[string]Subject{}
	for _, s := range pl.Subjects {
		m[s.Name] = s
	}
	return m
}

// TestPlanKeepsWhatIsRead: to reach the target the plan demotes entries
// never read, or read long ago, and never one that loads today and was
// read in the last RecentDays; the cost names every subject that loads
// today and would not after, and which of them were read recently (none).
func TestPlanKeepsWhatIsRead(t *testing.T) {
	log := "2026-11-30\tproject_e00\n2026-12-01\tproject_e00\n2026-11-20\tproject_e03\n2026-06-01\tproject_e05\n"
	ip := recallStore(t, 12, log, nil)
	pl, err := RunPlan(PlanRequest{Index: ip, AsOf: asOf20261204, TargetUnits: 1500})
	if err != nil {
		t.Fatal(err)
	}
	subs := byName(pl)
	for _, n := range []string{"project_e00", "project_e03"} {
		if s := subs[n]; s.Disposition != Keep {
			t.Errorf("%s, read in the last %d days, is %s: %s", n, RecentDays, s.Disposition, s.Reason)
		}
	}
	if s := subs["project_e00"]; s.Recalls != 2 || s.LastRead != "2026-12-01" {
		t.Errorf("project_e00: recalls %d, last read %q", s.Recalls, s.LastRead)
	}
	if !pl.After.WithinTarget {
		t.Fatalf("the plan does not reach the target: %+v, notes %q", pl.After, pl.Notes)
	}
	// Recall evidence first: the entry read long ago goes only after every
	// entry never read.
	if subs["project_e05"].Disposition == "demote" {
		for n, s := range subs {
			if s.LastRead == "" && s.Disposition != "demote" {
				t.Errorf("project_e05 (read 2026-06-01) demoted while %s, never read, is kept", n)
			}
		}
	}
	var lost []string
	for _, it := range pl.Cost.LoadNoLonger {
		lost = append(lost, strings.TrimSuffix(it.Identity, "@unknown"))
	}
	for n, s := range subs {
		if (s.Disposition == "demote") != slices.Contains(lost, n) {
			t.Errorf("%s: %s, but the cost lists %q", n, s.Disposition, lost)
		}
	}
	if len(pl.Cost.ReadRecently) != 0 || len(lost) == 0 {
		t.Errorf("cost: lost %q, read recently %q", lost, pl.Cost.ReadRecently)
	}
}

// TestPlanShowsTheTrade: when the target cannot be reached without
// subjects read recently, the plan keeps them, says so and names the
// trade; it chooses nothing silently.
func TestPlanShowsTheTrade(t *testing.T) {
	var log strings.Builder
	for i := range 6 {
		fmt.Fprintf(&log, "2026-12-0%d\tproject_e%02d\n", 1+i%3, i)
	}
	ip := recallStore(t, 6, log.String(), nil)
	pl, err := RunPlan(PlanRequest{Index: ip, AsOf: asOf20261204, TargetUnits: 700})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range pl.Subjects {
		if s.Disposition != Keep {
			t.Errorf("%s, read recently, is %s", s.Name, s.Disposition)
		}
	}
	if len(pl.Cost.Kept) != 6 || len(pl.Cost.Trade) == 0 || len(pl.Cost.Trade) > 6 {
		t.Errorf("cost: kept %q, trade %q", pl.Cost.Kept, pl.Cost.Trade)
	}
	found := false
	for _, n := range pl.Notes {
		if strings.Contains(n, "not reached without demoting subjects that load today and were read") && strings.Contains(n, "the trade that would reach it") {
			found = true
		}
	}
	if !found {
		t.Errorf("no note shows the trade: %q", pl.Notes)
	}
	var b strings.Builder
	WritePlanText(&b, pl, "plan.json", 0)
	if !strings.Contains(b.String(), "cost: every subject that loads today still loads after") {
		t.Errorf("the plan text does not state the cost:\n%s", b.String())
	}
}

// TestFinishedButRead: an entry its own record marks finished is kept
// while it loads today and was read recently, and demoted otherwise.
func TestFinishedButRead(t *testing.T) {
	ip := recallStore(t, 3, "2026-12-02\tproject_e00\n", map[int]string{0: "  status: done\n", 1: "  status: done\n"})
	pl, err := RunPlan(PlanRequest{Index: ip, AsOf: asOf20261204})
	if err != nil {
		t.Fatal(err)
	}
	subs := byName(pl)
	if s := subs["project_e00"]; s.Disposition != Keep || !strings.Contains(s.Reason, "read in the last") || s.FinishedBy != "frontmatter: status: done" {
		t.Errorf("project_e00: %s (%s), finished by %q", s.Disposition, s.Reason, s.FinishedBy)
	}
	if s := subs["project_e01"]; s.Disposition != "demote" || s.FinishedBy != "frontmatter: status: done" {
		t.Errorf("project_e01: %s (%s)", s.Disposition, s.Reason)
	}
	if s := subs["project_e02"]; s.Disposition != Keep {
		t.Errorf("project_e02: %s (%s)", s.Disposition, s.Reason)
	}
	if len(pl.Cost.LoadNoLonger) != 1 || pl.Cost.LoadNoLonger[0].Identity != "project_e01@unknown" {
		t.Errorf("cost %+v", pl.Cost)
	}
}

// TestPlanKeepsWhatTheIndexEmphasizes: a subject under a "🚨 READ FIRST"
// section, or whose line says CRITICAL, is no critical call (prose), but
// the plan never demotes it to reach the target: it joins the trade.
func TestPlanKeepsWhatTheIndexEmphasizes(t *testing.T) {
	ip := recallStore(t, 8, "", nil)
	raw, err := os.ReadFile(ip)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(raw), "## Entries\n", "## 🚨 READ FIRST\n", 1)
	text = strings.Replace(text, "- [Entry 5]", "- [Entry 5 CRITICAL]", 1)
	text = strings.Replace(text, "- [Entry 1]", "## Later\n- [Entry 1]", 1)
	if err := os.WriteFile(ip, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	pl, err := RunPlan(PlanRequest{Index: ip, AsOf: asOf20261204, TargetUnits: 900})
	if err != nil {
		t.Fatal(err)
	}
	subs := byName(pl)
	for _, n := range []string{"project_e00", "project_e05"} {
		if s := subs[n]; s.Disposition != Keep || s.Critical != "no" {
			t.Errorf("%s (emphasized): %s, critical %q: %s", n, s.Disposition, s.Critical, s.Reason)
		}
	}
	demoted := 0
	for _, s := range pl.Subjects {
		if s.Disposition == "demote" {
			demoted++
		}
	}
	if demoted == 0 {
		t.Error("nothing demoted: the target did not press")
	}
	if !pl.After.WithinTarget && (len(pl.Cost.Kept) == 0 || !slices.Contains(pl.Cost.Kept, "project_e00@unknown")) {
		t.Errorf("over the target, but the trade does not name the emphasized subjects: %+v", pl.Cost)
	}
}
