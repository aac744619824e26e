package cli

// The sweep verbs, admit/adopt/observe-limit, journal and undo in the
// robustness battery: every refusal leaves every byte as it was.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// Positions of the sweep cases.
const (
	pPlan  = "plan"  // the store's sweep plan (.memcompact/sweep-plan.json)
	pAdmit = "admit" // an entry file not yet admitted, beside the index
)

// sweepToday is the date the sweep cases reason from (the fixture's today).
const sweepToday = "2026-12-02"

// robustPlan is the sweep plan of the good fixture, made once; its paths
// name the store it was made in (rewritten for each fixture).
var robustPlan = sync.OnceValues(func() (gen struct {
	plan     []byte
	storeDir string
}, err error) {
	dir, err := os.MkdirTemp("", "robust-plan")
	if err != nil {
		return gen, err
	}
	defer os.RemoveAll(dir)
	f, err := layOut(dir)
	if err != nil {
		return gen, err
	}
	out := filepath.Join(dir, "plan.json")
	env, o, e := f.env(nil)
	if code := Run(env, []string{"sweep", "plan", "--as-of", sweepToday, "--out", out, f.p(pIndex)}); code != exitClean {
		return gen, fmt.Errorf("setup sweep plan: exit %d\n%s%s", code, o, e)
	}
	gen.plan, err = os.ReadFile(out)
	gen.storeDir = f.storeDir
	return gen, err
})

// withPlan lays the good plan out as the store's default plan file.
func withPlan(t testing.TB, f *fixture) {
	t.Helper()
	gen, err := robustPlan()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(f.storeDir, ".memcompact", "sweep-plan.json")
	must(t, os.MkdirAll(filepath.Dir(p), 0o755))
	must(t, os.WriteFile(p, bytes.ReplaceAll(gen.plan, []byte(gen.storeDir), []byte(f.storeDir)), 0o644))
	f.paths[pPlan] = p
}

// withNewEntry writes an entry file no pointer names and no life key marks.
func withNewEntry(t testing.TB, f *fixture) {
	t.Helper()
	p := filepath.Join(f.storeDir, "project_nightly_export.md")
	must(t, os.WriteFile(p, []byte("---\nname: nightly export\ndescription: when the export runs\n---\nThe export runs nightly at 02:00 UTC; a rerun is safe.\n"), 0o644))
	f.paths[pAdmit] = p
}

// withoutPolicy strips the store's policy (the stanza and POLICY.md), so
// adopt has a store to adopt.
func withoutPolicy(t testing.TB, f *fixture) {
	t.Helper()
	b, err := os.ReadFile(f.p(pIndex))
	must(t, err)
	s := string(b)
	if i, j := strings.Index(s, "<!-- memory-policy-stanza-begin"), strings.Index(s, "<!-- memory-policy-stanza-end -->"); i >= 0 && j > i {
		s = s[:i] + strings.TrimLeft(s[j+len("<!-- memory-policy-stanza-end -->"):], "\n")
	}
	must(t, os.WriteFile(f.p(pIndex), []byte(s), 0o644))
	must(t, os.Remove(f.p(pPolicy)))
}

// withJournal records the store in the journal, then deletes one entry,
// so undo has something to bring back.
func withJournal(t testing.TB, f *fixture) {
	t.Helper()
	env, o, e := f.env(nil)
	if code := Run(env, []string{"journal", f.storeDir}); code != exitClean {
		t.Fatalf("setup journal: exit %d\n%s%s", code, o, e)
	}
	must(t, os.Remove(filepath.Join(f.storeDir, "reference_staging_db.md")))
}

var planReads = []string{pPlan, pIndex, pEntry, pLedger, pSlate, pArchive, pPolicy}

var sweepVerbCases = []verbCase{
	{name: "sweep-plan", args: func(f *fixture) []string { return []string{"sweep", "plan", "--as-of", sweepToday, f.p(pIndex)} },
		reads: storeAll, codes: []int{0, 2, 3}, writes: true},
	{name: "sweep-plan-record", variant: true, args: func(f *fixture) []string {
		return []string{"sweep", "plan", "--record", "--json", "--out", filepath.Join(f.dir, "plans", "p.json"), "--as-of", sweepToday, f.p(pIndex)}
	}, reads: storeAll, codes: []int{0, 2, 3}, writes: true},
	{name: "sweep-review", setup: withPlan, args: func(f *fixture) []string { return []string{"sweep", "review", f.p(pPlan)} },
		stdin: func(*fixture) []byte { return []byte("a\nr\nA\nq\n") },
		reads: []string{pPlan, pStdin}, codes: []int{0, 2, 3}, writes: true},
	{name: "sweep-apply", setup: withPlan, args: func(f *fixture) []string {
		return []string{"sweep", "apply", "--yes", "--as-of", sweepToday, f.p(pPlan)}
	}, reads: planReads, codes: []int{0, 1, 2, 3}, writes: true},
	{name: "sweep-apply-dry-run", variant: true, setup: withPlan, args: func(f *fixture) []string {
		return []string{"sweep", "apply", "--dry-run", "--yes", "--json", "--as-of", sweepToday, "--index", f.p(pIndex)}
	}, reads: planReads, codes: []int{0, 2, 3}},
	{name: "sweep-apply-pending", variant: true, setup: withPlan, args: func(f *fixture) []string {
		return []string{"sweep", "apply", "--as-of", sweepToday, f.p(pPlan)}
	}, reads: planReads, codes: []int{2, 3}, writes: true},
	{name: "sweep-restore", args: func(f *fixture) []string {
		return []string{"sweep", "restore", "--as-of", sweepToday, "--index", f.p(pIndex), "reference_old_proxy@2026-03-01"}
	}, reads: []string{pIndex, pLedger, pArchive}, codes: []int{0, 2, 3}, writes: true},
	{name: "admit", setup: withNewEntry, args: func(f *fixture) []string {
		return []string{"admit", "--index", f.p(pIndex), "--as-of", sweepToday, "--hook", "the export runs nightly at 02:00 UTC and a rerun is safe",
			"--critical", "no", "--why", "a missed night is caught the next", f.p(pAdmit)}
	}, reads: []string{pAdmit, pIndex, pSlate}, codes: []int{0, 2, 3}, writes: true},
	{name: "adopt", setup: withoutPolicy, args: func(f *fixture) []string { return []string{"adopt", "--yes", "--as-of", sweepToday, f.p(pIndex)} },
		reads: []string{pIndex}, codes: []int{0, 2, 3}, writes: true},
	{name: "adopt-refused", variant: true, args: func(f *fixture) []string { return []string{"adopt", "--yes", f.p(pIndex)} },
		reads: []string{pIndex, pPolicy}, codes: []int{0, 2, 3}, writes: true},
	{name: "observe-limit", args: func(f *fixture) []string {
		return []string{"observe-limit", "--value", "25000", "--method", "wc -m of the loaded index", "--as-of", sweepToday, f.p(pIndex)}
	}, reads: []string{pIndex, pPolicy}, codes: []int{0, 2, 3}, writes: true},
	{name: "journal", args: func(f *fixture) []string { return []string{"journal", f.storeDir} },
		reads: storeAll, codes: []int{0, 2, 3}},
	{name: "undo", setup: withJournal, args: func(f *fixture) []string {
		return []string{"undo", "--yes", "--entry", "reference_staging_db", "--store", f.storeDir}
	}, reads: []string{pIndex, pEntry}, codes: []int{0, 2, 3}, writes: true},
}

func init() { verbCases = append(verbCases, sweepVerbCases...) }

// editPlan rewrites the fixture's plan file through edit, as an owner
// editing the JSON by hand would.
func editPlan(t testing.TB, f *fixture, edit func(pl map[string]any)) {
	t.Helper()
	b, err := os.ReadFile(f.p(pPlan))
	must(t, err)
	var pl map[string]any
	must(t, json.Unmarshal(b, &pl))
	edit(pl)
	out, err := json.MarshalIndent(pl, "", "  ")
	must(t, err)
	must(t, os.WriteFile(f.p(pPlan), out, 0o644))
}

// planSubject returns the plan's subject named name.
func planSubject(t testing.TB, pl map[string]any, name string) map[string]any {
	t.Helper()
	for _, s := range pl["subjects"].([]any) {
		if m := s.(map[string]any); m["name"] == name {
			return m
		}
	}
	t.Fatalf("no subject %s in the plan", name)
	return nil
}

// linkOut replaces the store folder rel (made if absent) by a symlink to a
// new folder outside the fixture, and returns that folder.
func linkOut(t testing.TB, f *fixture, rel string) string {
	t.Helper()
	outside := t.TempDir()
	p := filepath.Join(f.storeDir, rel)
	must(t, os.RemoveAll(p))
	must(t, os.MkdirAll(filepath.Dir(p), 0o755))
	must(t, os.Symlink(outside, p))
	return outside
}

// TestRobustSweepRefusals pins the refusals of the sweep verbs, admit,
// adopt, observe-limit and undo named in issues 9 and 14: each names its
// cause, exits 2, and leaves every byte of the fixture (and of any folder
// a symlink leads to) as it was.
func TestRobustSweepRefusals(t *testing.T) {
	apply := func(f *fixture) []string {
		return []string{"sweep", "apply", "--yes", "--as-of", sweepToday, f.p(pPlan)}
	}
	cases := []struct {
		name  string
		setup func(t *testing.T, f *fixture) (outside string)
		args  func(f *fixture) []string
		why   string // a regular expression the refusal matches
	}{{
		name: "apply-stale-plan-digest",
		setup: func(t *testing.T, f *fixture) string {
			withPlan(t, f)
			b, _ := os.ReadFile(f.p(pIndex))
			must(t, os.WriteFile(f.p(pIndex), append(b, "- [Late note](late.md) — written after the plan\n"...), 0o644))
			return ""
		},
		args: apply, why: `the index changed since the plan was made .*make a new plan`,
	}, {
		name: "apply-nonsense-plan",
		setup: func(t *testing.T, f *fixture) string {
			withPlan(t, f)
			must(t, os.WriteFile(f.p(pPlan), []byte("| subject | disposition |\n|---|---|\n| a | demote |\n"), 0o644))
			return ""
		},
		args: apply, why: `not a sweep plan`,
	}, {
		name: "apply-plan-of-another-kind",
		setup: func(t *testing.T, f *fixture) string {
			withPlan(t, f)
			editPlan(t, f, func(pl map[string]any) { pl["kind"] = "memcompact-inventory" })
			return ""
		},
		args: apply, why: `not a sweep plan: kind "memcompact-inventory"`,
	}, {
		name: "apply-unreadable-ledger",
		setup: func(t *testing.T, f *fixture) string {
			withPlan(t, f)
			applyBad(t, f, kindNamed("unreadable"), pLedger)
			return ""
		},
		args: apply, why: `LEDGER.md.*could not be read`,
	}, {
		name: "apply-ledger-without-marker",
		setup: func(t *testing.T, f *fixture) string {
			withPlan(t, f)
			must(t, os.WriteFile(f.p(pLedger), []byte("# Ledger\n\nnotes, no region\n"), 0o644))
			return ""
		},
		args: apply, why: `LEDGER.md.*memory-ledger-begin.*nothing was written`,
	}, {
		name: "apply-slate-without-marker",
		setup: func(t *testing.T, f *fixture) string {
			withPlan(t, f)
			must(t, os.WriteFile(f.p(pSlate), nil, 0o644))
			return ""
		},
		args: apply, why: `SLATE.md.*memory-slate-begin.*nothing was written`,
	}, {
		name: "apply-archive-a-folder",
		setup: func(t *testing.T, f *fixture) string {
			withPlan(t, f)
			applyBad(t, f, kindNamed("directory"), pArchive)
			return ""
		},
		args: apply, why: `ARCHIVE.md.*the archive cannot be read.*nothing was written`,
	}, {
		name: "apply-snapshots-folder-links-out",
		setup: func(t *testing.T, f *fixture) string {
			withPlan(t, f)
			return linkOut(t, f, filepath.Join(".memcompact", "snapshots"))
		},
		args: apply, why: `snapshots.*leads outside the memory root through a symlink.*nothing was written`,
	}, {
		name: "apply-archive-folder-links-out",
		setup: func(t *testing.T, f *fixture) string {
			withPlan(t, f)
			return linkOut(t, f, "archive")
		},
		args: apply, why: `archive.*leads outside the memory root through a symlink.*nothing was written`,
	}, {
		name:  "plan-default-file-folder-links-out",
		setup: func(t *testing.T, f *fixture) string { return linkOut(t, f, ".memcompact") },
		args: func(f *fixture) []string {
			return []string{"sweep", "plan", "--as-of", sweepToday, f.p(pIndex)}
		},
		why: `sweep-plan.json: the plan could not be written: .*leads outside the memory root through a symlink`,
	}, {
		name: "plan-record-ledger-without-marker",
		setup: func(t *testing.T, f *fixture) string {
			must(t, os.WriteFile(f.p(pLedger), []byte("# Ledger\n"), 0o644))
			return ""
		},
		args: func(f *fixture) []string {
			return []string{"sweep", "plan", "--record", "--as-of", sweepToday, f.p(pIndex)}
		},
		why: `LEDGER.md.*memory-ledger-begin`,
	}, {
		name: "review-plan-edited-meanwhile",
		setup: func(t *testing.T, f *fixture) string {
			withPlan(t, f)
			return ""
		},
		// the answers edit the file half-way, as the owner would in an editor
		args: func(f *fixture) []string { return []string{"sweep", "review", f.p(pPlan)} },
		why:  `the decisions could not be saved: .*changed`,
	}, {
		name: "restore-not-exited",
		args: func(f *fixture) []string {
			return []string{"sweep", "restore", "--index", f.p(pIndex), "reference_release@2026-07-11"}
		},
		why: `no exit in force carries 'reference_release@2026-07-11'`,
	}, {
		name: "restore-ledger-links-out",
		setup: func(t *testing.T, f *fixture) string {
			applyBad(t, f, kindNamed("symlink"), pLedger)
			return filepath.Join(f.dir, "elsewhere")
		},
		args: func(f *fixture) []string {
			return []string{"sweep", "restore", "--index", f.p(pIndex), "reference_old_proxy@2026-03-01"}
		},
		why: `LEDGER.md.*leads outside the memory root through a symlink.*nothing was written`,
	}, {
		name: "admit-already-pointed",
		args: func(f *fixture) []string {
			return []string{"admit", "--index", f.p(pIndex), "--hook", "tag only after the changelog merges", filepath.Join(f.storeDir, "reference_release.md")}
		},
		why: `already admitted`,
	}, {
		name: "admit-snapshots-folder-links-out",
		setup: func(t *testing.T, f *fixture) string {
			withNewEntry(t, f)
			return linkOut(t, f, ".memcompact")
		},
		args: func(f *fixture) []string {
			return []string{"admit", "--index", f.p(pIndex), "--hook", "the export runs nightly at 02:00 UTC", f.p(pAdmit)}
		},
		why: `leads outside the memory root through a symlink.*nothing was written`,
	}, {
		name: "adopt-policy-exists",
		args: func(f *fixture) []string { return []string{"adopt", "--yes", f.p(pIndex)} },
		why:  `already has a POLICY.md`,
	}, {
		name: "observe-limit-policy-links-out",
		setup: func(t *testing.T, f *fixture) string {
			applyBad(t, f, kindNamed("symlink"), pPolicy)
			return filepath.Join(f.dir, "elsewhere")
		},
		args: func(f *fixture) []string {
			return []string{"observe-limit", "--value", "25000", "--method", "wc -m", f.p(pIndex)}
		},
		why: `POLICY.md.*leads outside the memory root through a symlink.*nothing was written`,
	}, {
		name: "observe-limit-no-values-region",
		setup: func(t *testing.T, f *fixture) string {
			must(t, os.WriteFile(f.p(pPolicy), []byte("# Policy\n\nno values here\n"), 0o644))
			return ""
		},
		args: func(f *fixture) []string {
			return []string{"observe-limit", "--value", "25000", "--method", "wc -m", f.p(pIndex)}
		},
		why: `no values region`,
	}, {
		name: "undo-no-journal",
		args: func(f *fixture) []string {
			return []string{"undo", "--yes", "--entry", "reference_release", "--store", f.storeDir}
		},
		why: `journal`,
	}, {
		name: "undo-folder-links-out",
		setup: func(t *testing.T, f *fixture) string {
			team := filepath.Join(f.storeDir, "team")
			must(t, os.MkdirAll(team, 0o755))
			must(t, os.WriteFile(filepath.Join(team, "shared.md"), []byte("- the team's shared note\n"), 0o644))
			env, o, e := f.env(nil)
			if code := Run(env, []string{"journal", f.storeDir}); code != exitClean {
				t.Fatalf("setup journal: exit %d\n%s%s", code, o, e)
			}
			return linkOut(t, f, "team")
		},
		args: func(f *fixture) []string {
			return []string{"undo", "--yes", "--file", "team/shared.md", "--at", "last", "--store", f.storeDir}
		},
		why: `team/shared.md.*leads outside the memory root through a symlink.*nothing was changed`,
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			outside := ""
			if c.setup != nil {
				outside = c.setup(t, f)
			}
			before := fsState(t, f.dir)
			var outBefore map[string]string
			if outside != "" {
				outBefore = fsState(t, outside)
			}
			if c.name == "review-plan-edited-meanwhile" {
				// The owner saves an edit to the plan while the review waits
				// on answers: the review's save must not overwrite it.
				r, w := io.Pipe()
				go func() {
					w.Write([]byte("a\n"))
					time.Sleep(50 * time.Millisecond)
					editPlan(t, f, func(pl map[string]any) { pl["notes"] = []any{"the owner's own note"} })
					before = fsState(t, f.dir)
					w.Write([]byte("q\n"))
					w.Close()
				}()
				env, out, errb := f.env(nil)
				env.Stdin = r
				checkRefusal(t, f, Run(env, c.args(f)), out.String(), errb.String(), c.why, &before, outside, outBefore)
				return
			}
			env, out, errb := f.env(nil)
			checkRefusal(t, f, Run(env, c.args(f)), out.String(), errb.String(), c.why, &before, outside, outBefore)
		})
	}
}

// checkRefusal asserts a refusal: exit 2, its cause named, no byte changed
// in the fixture or behind the symlink.
func checkRefusal(t *testing.T, f *fixture, code int, stdout, stderr, why string, before *map[string]string, outside string, outBefore map[string]string) {
	t.Helper()
	if code != exitRefused {
		t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, exitRefused, clip(stdout), clip(stderr))
	}
	if !regexp.MustCompile(why).MatchString(stdout + stderr) {
		t.Errorf("the refusal does not match %q\nstdout: %s\nstderr: %s", why, clip(stdout), clip(stderr))
	}
	if d := diffState(*before, fsState(t, f.dir)); len(d) > 0 {
		t.Errorf("files changed: %v", d)
	}
	if outside != "" {
		if d := diffState(outBefore, fsState(t, outside)); len(d) > 0 {
			t.Errorf("written outside the store: %v", d)
		}
	}
}

// TestRobustSweepHeldPromotion: a critical promotion whose destination has
// not landed (it was a refusal of the whole apply) is held: the apply
// exits 1, names it, keeps its pointer line byte for byte, and appends the
// slate's landing row; the rest of the sweep is done.
func TestRobustSweepHeldPromotion(t *testing.T) {
	f := newFixture(t)
	withPlan(t, f)
	editPlan(t, f, func(pl map[string]any) {
		s := planSubject(t, pl, "reference_release")
		s["disposition"], s["decision"] = "promote", "accepted"
		s["critical"], s["critical_why"] = "yes", "a wrong tag is expensive"
		s["destination"], s["lesson_probe"], s["destination_landed"] = f.p(pDest), "table tests", false
	})
	before, err := os.ReadFile(f.p(pIndex))
	must(t, err)
	var line string
	for _, l := range strings.Split(string(before), "\n") {
		if strings.Contains(l, "(reference_release.md)") {
			line = l
		}
	}
	env, out, errb := f.env(nil)
	if code := Run(env, []string{"sweep", "apply", "--yes", "--as-of", sweepToday, f.p(pPlan)}); code != 1 {
		t.Fatalf("exit %d, want 1\nstdout: %s\nstderr: %s", code, clip(out.String()), clip(errb.String()))
	}
	if !strings.Contains(out.String(), "held: promote reference_release@") {
		t.Errorf("the result does not name the held promotion:\n%s", clip(out.String()))
	}
	after, err := os.ReadFile(f.p(pIndex))
	must(t, err)
	if line == "" || !strings.Contains(string(after), line+"\n") {
		t.Errorf("the held subject's pointer line %q is not in the index as it was", line)
	}
	slate, err := os.ReadFile(filepath.Join(f.storeDir, "SLATE.md"))
	must(t, err)
	if !regexp.MustCompile(`\| reference_release@[^|]+ \| landing \| none \| promotion to .* held at the sweep`).Match(slate) {
		t.Errorf("no landing row for the held promotion:\n%s", slate)
	}
}
