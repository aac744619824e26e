package sweepact

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/crashpoint"
	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/sweep"
	testshort "github.com/memcompact/memcompact/internal/testshared/short"
	"github.com/memcompact/memcompact/internal/textfile"
)

// The helper process: the test binary re-executed with SWEEPACT_HELPER set
// runs one sweep step on a store and exits, so crashes and races are real
// processes, killed for real.
func TestMain(m *testing.M) {
	switch os.Getenv("SWEEPACT_HELPER") {
	case "":
		testshort.RunInMemory(m)
	case "apply":
		_, err := RunApply(context.Background(), ApplyRequest{PlanPath: os.Getenv("SWEEPACT_PLAN"), Yes: true,
			AsOf: mustDate(os.Getenv("SWEEPACT_DATE")), LockWait: time.Minute})
		exitWith(err)
	case "admit":
		_, err := RunAdmit(context.Background(), AdmitRequest{Index: filepath.Join(filepath.Dir(filepath.Dir(os.Getenv("SWEEPACT_PLAN"))), "MEMORY.md"),
			File: os.Getenv("SWEEPACT_FILE"), Hook: "a lesson admitted while a sweep and other admissions ran at once",
			AsOf: mustDate(os.Getenv("SWEEPACT_DATE")), LockWait: time.Minute})
		exitWith(err)
	case "propose":
		pl, err := ReadPlan(os.Getenv("SWEEPACT_PLAN"))
		if err == nil {
			_, err = RunRecordProposals(pl, mustDate(os.Getenv("SWEEPACT_DATE")), time.Minute)
		}
		exitWith(err)
	}
	os.Exit(9)
}

func exitWith(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(0)
}

func helper(t *testing.T, step, plan, date string, env ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SWEEPACT_HELPER="+step, "SWEEPACT_PLAN="+plan, "SWEEPACT_DATE="+date)
	cmd.Env = append(cmd.Env, env...)
	return cmd
}

// acceptedPlan makes the fixture store's plan with every proposal
// accepted and no life keys to bind (so the first replace is the index's).
func acceptedPlan(t *testing.T, dir, asOf string) string {
	t.Helper()
	pl, err := RunPlan(PlanRequest{Index: filepath.Join(dir, "MEMORY.md"), AsOf: date(t, asOf)})
	if err != nil {
		t.Fatal(err)
	}
	for i := range pl.Subjects {
		pl.Subjects[i].Decision = Accepted
	}
	pl.BindLifeKeys = false
	path := filepath.Join(dir, DefaultPlanRel)
	if err := WritePlan(path, pl); err != nil {
		t.Fatal(err)
	}
	return path
}

// storeDigests is every regular file of a store by relative path.
func storeDigests(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.Contains(p, ".memcompact") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		out[rel] = textfile.Digest(b)
		return nil
	})
	return out
}

// TestKillAtEveryStep kills a real sweep with SIGKILL at each named step
// of its own (after a record, before and after the index replace) and at
// every arrival at the atomic writer's steps (each append and each replace
// passes them: kill between temp file and rename, and just before the
// rename). After every kill each file must be old or new (never torn), the
// record files must read whole, no subject may have left the index without
// an exit record, and while the index is still the old one with this
// sweep's records written the next inventory must list the interrupted
// dispositions first.
func TestKillAtEveryStep(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the crash-point suite runs with the full go test ./...")
	}
	needCrashPoints(t)
	const asOf = "2026-08-08"
	clean := fixtureStore(t)
	old := storeDigests(t, clean)
	if _, err := RunApply(context.Background(), ApplyRequest{PlanPath: acceptedPlan(t, clean, asOf), Yes: true, AsOf: date(t, asOf)}); err != nil {
		t.Fatal(err)
	}
	want := storeDigests(t, clean)

	var steps []string
	steps = append(steps, "after-record", "before-replace", "after-replace")
	for n := 1; n <= 60; n++ {
		steps = append(steps, fmt.Sprintf("replace:temp-written#%d", n), fmt.Sprintf("replace:before-rename#%d", n))
	}
	killed := 0
	finished := map[string]bool{} // a step family the sweep passed fewer times than asked
	for _, step := range steps {
		family, _, _ := strings.Cut(step, "#")
		if finished[family] {
			continue
		}
		dir := fixtureStore(t)
		plan := acceptedPlan(t, dir, asOf)
		out, err := helper(t, "apply", plan, asOf, crashpoint.Env+"="+step).CombinedOutput()
		var ee *exec.ExitError
		if err == nil && strings.Contains(step, "#") {
			finished[family] = true // the sweep finished before its N-th arrival
			continue
		}
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("the sweep was not killed at %s: %v\n%s", step, err, out)
		}
		killed++
		checkAfterKill(t, dir, step, asOf, old, want)
	}
	if killed < 10 {
		t.Errorf("only %d kills landed; the sweep should pass many more write steps", killed)
	}
}

func checkAfterKill(t *testing.T, dir, step, asOf string, old, want map[string]string) {
	t.Helper()
	got := storeDigests(t, dir)
	for rel, d := range got {
		if rel == "LEDGER.md" || rel == "SLATE.md" || rel == "ARCHIVE.md" {
			continue // appended: read whole below
		}
		if d != old[rel] && d != want[rel] {
			t.Errorf("%s: %s is neither the old nor the new file", step, rel)
		}
	}
	p, _ := sweep.ResolvePaths(filepath.Join(dir, "MEMORY.md"), "", "", "")
	l, err := records.ReadLedger(p.Ledger, date(t, asOf))
	if err != nil || !l.Complete() {
		t.Fatalf("%s: the ledger does not read whole: %v", step, err)
	}
	s, err := records.ReadSlate(p.Slate, date(t, asOf))
	if err != nil || !s.Trustworthy() {
		t.Fatalf("%s: the slate does not read whole: %v", step, err)
	}
	if _, _, err := records.ArchiveNames(p.Archive); err != nil {
		t.Fatalf("%s: the archive does not read: %v", step, err)
	}
	// Nothing left the index without a record.
	f, err := textfile.Read(p.Index)
	if err != nil {
		t.Fatal(err)
	}
	hot := map[string]bool{}
	for _, sub := range records.Subjects(textfile.Lines(f.Text)) {
		hot[sub.Name] = true
	}
	exited := map[string]bool{}
	for _, r := range l.ExitsInForce() {
		exited[r.Name] = true
	}
	for _, sub := range records.Subjects(textfile.Lines(fixtureIndex(t))) {
		if !hot[sub.Name] && !exited[sub.Name] {
			t.Errorf("%s: %s left the index without an exit record", step, sub.Name)
		}
	}
	indexOld := got["MEMORY.md"] == old["MEMORY.md"]
	ours := 0
	for _, r := range l.Records {
		if r.Date.String() == asOf && r.Status == records.StatusExecuted && !records.IsSelf(r.Disposition) {
			ours++
		}
	}
	if indexOld && ours > 0 {
		inv, err := sweep.BuildInventory(p, date(t, asOf))
		if err != nil {
			t.Fatal(err)
		}
		if len(inv.Artifact.IncompleteDispositions) < ours || inv.Artifact.Subjects[0].Group != sweep.GroupIncomplete {
			t.Errorf("%s: %d record(s) written before the kill, but the inventory lists %d interrupted disposition(s) first", step, ours, len(inv.Artifact.IncompleteDispositions))
		}
	}
}

// fixtureIndex is the fixture store's index text as assembled.
func fixtureIndex(t *testing.T) string {
	b, err := os.ReadFile(filepath.Join(fixtureStore(t), "MEMORY.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestConcurrentWriters runs 8 real processes on one store at once: three
// applies of one plan, three recorders of proposals and two admissions. At
// most one apply may win (the others, and all of them when an admission
// lands first, find the index changed and refuse, writing nothing); every
// admitted pointer must be in the final index, and every row every process
// appended must be there, whole.
func TestConcurrentWriters(t *testing.T) {
	const asOf = "2026-08-08"
	dir := fixtureStore(t)
	plan := acceptedPlan(t, dir, asOf)
	pl, err := ReadPlan(plan)
	if err != nil {
		t.Fatal(err)
	}
	proposals := 0
	for _, s := range pl.Subjects {
		if s.Disposition != Keep && s.Disposition != Complete {
			proposals++
		}
	}
	steps := []string{"apply", "propose", "admit", "apply", "propose", "admit", "apply", "propose"}
	var admitted []string
	for i, step := range steps {
		if step == "admit" {
			name := fmt.Sprintf("reference_concurrent_%d", i)
			body := "---\nname: c\ndescription: a lesson admitted at once\n---\nA lesson admitted at once.\n"
			if err := os.WriteFile(filepath.Join(dir, name+".md"), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			admitted = append(admitted, name)
		}
	}
	var wg sync.WaitGroup
	codes := make([]int, len(steps))
	outs := make([]string, len(steps))
	for i, step := range steps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := helper(t, step, plan, asOf, crashpoint.DelayEnv+"=3ms",
				fmt.Sprintf("SWEEPACT_FILE=%s", filepath.Join(dir, fmt.Sprintf("reference_concurrent_%d.md", i)))).CombinedOutput()
			outs[i] = string(out)
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				codes[i] = ee.ExitCode()
			} else if err != nil {
				codes[i] = -1
			}
		}()
	}
	wg.Wait()
	applied := 0
	for i, step := range steps {
		switch {
		case step == "apply" && codes[i] == 0:
			applied++
		case step == "apply" && !strings.Contains(outs[i], "the index changed since the plan was made"):
			t.Errorf("a losing apply failed for another reason (exit %d): %s", codes[i], outs[i])
		case step == "propose" && codes[i] != 0:
			t.Errorf("a proposal recorder failed (exit %d): %s", codes[i], outs[i])
		case step == "admit" && codes[i] != 0:
			t.Errorf("an admission failed (exit %d): %s", codes[i], outs[i])
		}
	}
	// An admission that lands first changes the index the plan was made
	// against, so no apply may win then; otherwise exactly one does.
	if applied > 1 {
		t.Fatalf("%d applies of one plan won; at most one may", applied)
	}
	// No rewrite was lost: every admitted pointer is in the index.
	ix, err := os.ReadFile(filepath.Join(dir, "MEMORY.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range admitted {
		if !strings.Contains(string(ix), "("+name+".md)") {
			t.Errorf("the admission of %s was lost by an interleaved rewrite:\n%s", name, ix)
		}
	}
	l, err := records.ReadLedger(filepath.Join(dir, "LEDGER.md"), date(t, asOf))
	if err != nil || !l.Complete() {
		t.Fatalf("the ledger does not read whole: %v %+v", err, l.Malformed)
	}
	n := map[string]int{}
	for _, r := range l.Records {
		n[r.Status]++
	}
	// The fixture's own four rows: one proposed, two executed, one reconciled.
	if n[records.StatusProposed] != 1+3*proposals {
		t.Errorf("proposed rows: got %d, want %d (a row was lost or torn)", n[records.StatusProposed], 1+3*proposals)
	}
	if applied == 1 && n[records.StatusExecuted] < 3 {
		t.Errorf("the winning apply's records are missing: %d executed rows", n[records.StatusExecuted])
	}
	s, err := records.ReadSlate(filepath.Join(dir, "SLATE.md"), date(t, asOf))
	if err != nil || !s.Trustworthy() {
		t.Fatalf("the slate does not read whole: %v", err)
	}
}

// needCrashPoints skips a test that kills the process at a crash point in
// a build without them (they compile only with the memcompact_crashpoints
// tag: go test -tags memcompact_crashpoints).
func needCrashPoints(t *testing.T) {
	t.Helper()
	if !crashpoint.Enabled {
		t.Skip("the crash points are compiled only with -tags " + crashpoint.Tag)
	}
}
