package torture

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// sweepDate is the date the sweep test reasons from.
const sweepDate = "2026-08-08"

// sweepStore lays out a Claude Code store under a config dir: four
// entries, two of which their own text marks finished (the plan demotes
// them), and record files with their markers. It returns the config dir
// and the store.
func sweepStore(t *testing.T) (cfg, store string) {
	t.Helper()
	cfg = filepath.Join(t.TempDir(), "cfg")
	store = filepath.Join(cfg, "projects", "-p", "memory")
	write(t, filepath.Join(store, "MEMORY.md"), "# Memory\n\n## Work\n"+
		"- [Deploy order](project_deploy.md) — staging first, then prod after the smoke test\n"+
		"- [Auth migration](project_auth.md) — RESOLVED: the migration finished in May, nothing left to do\n"+
		"- [Billing export](project_billing.md) — COMPLETE: the export shipped and runs nightly\n"+
		"- [Race detector](reference_race.md) — always pass -race; CI flakes otherwise\n")
	for _, e := range [][4]string{
		{"project_deploy", "project", "2026-03-01", "Deploy to staging first; prod only after the smoke test passes."},
		{"project_auth", "project", "2026-02-01", "RESOLVED: the auth migration finished in May; nothing left to do."},
		{"project_billing", "project", "2026-02-15", "COMPLETE: the billing export shipped and runs nightly."},
		{"reference_race", "reference", "2026-01-10", "Always run go test -race; CI flakes otherwise."},
	} {
		write(t, filepath.Join(store, e[0]+".md"), fmt.Sprintf("---\nname: %s\ndescription: %s\nmetadata:\n  node_type: memory\n  type: %s\n  admitted: %s\n---\n%s\n", e[0], e[3], e[1], e[2], e[3]))
	}
	write(t, filepath.Join(store, "LEDGER.md"), "# Ledger\n\n<!-- memory-ledger-begin -->\n")
	write(t, filepath.Join(store, "SLATE.md"), "# Slate\n\n<!-- memory-slate-begin -->\n")
	return cfg, store
}

// preWrite is the hook JSON of one agent Write or Edit of a store file.
func preWrite(store string, k int) string {
	var tool, input string
	ix := filepath.Join(store, "MEMORY.md")
	switch k % 4 {
	case 0: // an Edit adding a hooked pointer to the index
		tool = "Edit"
		input = fmt.Sprintf(`{"file_path":%q,"old_string":"## Work","new_string":"## Work\n- [Cache keys %d](reference_cache_%d.md) — the CI cache key includes go.sum"}`, ix, k, k)
	case 1: // a Write of the whole index, dropping a pointer with no exit
		tool = "Write"
		input = fmt.Sprintf(`{"file_path":%q,"content":"# Memory\n\n## Work\n- [Deploy order](project_deploy.md) — staging first, then prod after the smoke test\n"}`, ix)
	case 2: // a Write of an entry
		tool = "Write"
		input = fmt.Sprintf(`{"file_path":%q,"content":"---\nname: project_deploy\ndescription: deploy order\n---\nStaging first, then prod (%d).\n"}`, filepath.Join(store, "project_deploy.md"), k)
	default: // an Edit of an entry
		tool = "Edit"
		input = fmt.Sprintf(`{"file_path":%q,"old_string":"Always run","new_string":"Always (%d) run"}`, filepath.Join(store, "reference_race.md"), k)
	}
	return fmt.Sprintf(`{"session_id":"s%d","transcript_path":"","cwd":%q,"hook_event_name":"PreToolUse","tool_name":%q,"tool_input":%s}`, k, store, tool, input)
}

// decision reads a pre-write hook's answer: "allow" for no output, "deny"
// for the documented denial JSON, "" for anything else.
func decision(stdout string) string {
	if strings.TrimSpace(stdout) == "" {
		return "allow"
	}
	var v struct {
		HookSpecificOutput struct {
			HookEventName      string `json:"hookEventName"`
			PermissionDecision string `json:"permissionDecision"`
		} `json:"hookSpecificOutput"`
	}
	if json.Unmarshal([]byte(stdout), &v) != nil || v.HookSpecificOutput.HookEventName != "PreToolUse" {
		return ""
	}
	return v.HookSpecificOutput.PermissionDecision
}

// TestSweepApplyAdmitPreWriteConcurrently runs, per round, 8 memcompact
// processes at once on one store (issue 14): two `sweep apply` of one
// plan, two `admit`, and four `hook pre-write` judging an agent's Write or
// Edit of the index and of entries (each also journaling the store), all
// with random pauses inside their writes. At most one apply wins; every
// admission that exits 0 has its pointer in the final index (no rewrite
// interleaved another's); the winning apply's exits are out of the index,
// in ARCHIVE.md and recorded once each; the ledger and slate read whole
// (no torn or lost row); every hook answers allow or deny in the
// documented form; the journal reads back; no temporary file is left.
func TestSweepApplyAdmitPreWriteConcurrently(t *testing.T) {
	rounds := count(3, 40)
	t0 := time.Now()
	var won, refused, admitted, allows, denies, busy, lost int
	for r := 0; r < rounds; r++ {
		cfg, store := sweepStore(t)
		env := []string{"CLAUDE_CONFIG_DIR=" + cfg, "HOME=" + filepath.Dir(cfg), "MEMCOMPACT_DATA_DIR=" + filepath.Join(filepath.Dir(cfg), "data"),
			"MEMCOMPACT_TODAY=" + sweepDate, "MEMCOMPACT_TEST_DELAY_MAX=3ms"}
		ix := filepath.Join(store, "MEMORY.md")
		if res := mc(t, store, "", env, "sweep", "plan", "--as-of", sweepDate, ix); res.code != 0 {
			t.Fatalf("sweep plan: exit %d\n%s%s", res.code, res.stdout, res.stderr)
		}
		plan := filepath.Join(store, ".memcompact", "sweep-plan.json")
		for _, n := range []string{"reference_new_a", "reference_new_b"} {
			write(t, filepath.Join(store, n+".md"), "---\nname: "+n+"\ndescription: a lesson admitted during a sweep\n---\nA lesson admitted during a sweep.\n")
		}
		steps := []string{"apply", "pre-write", "admit:reference_new_a", "pre-write", "apply", "pre-write", "admit:reference_new_b", "pre-write"}
		results := make([]result, len(steps))
		var wg sync.WaitGroup
		for i, step := range steps {
			wg.Add(1)
			go func() {
				defer wg.Done()
				switch {
				case step == "apply":
					results[i] = mc(t, store, "", env, "sweep", "apply", "--yes", "--as-of", sweepDate, plan)
				case step == "pre-write":
					results[i] = mc(t, store, preWrite(store, r*8+i), env, "hook", "pre-write")
				default:
					name := strings.TrimPrefix(step, "admit:")
					results[i] = mc(t, store, "", env, "admit", "--index", ix, "--as-of", sweepDate,
						"--hook", "a lesson admitted while a sweep ran", filepath.Join(store, name+".md"))
				}
			}()
		}
		wg.Wait()
		final := read(t, ix)
		applied := 0
		for i, step := range steps {
			res := results[i]
			switch {
			case step == "apply" && (res.code == 0 || res.code == 1):
				applied++
			case step == "apply" && res.code == 2 && strings.Contains(res.stderr, "the index changed since the plan was made"):
				refused++
			case step == "apply":
				t.Errorf("round %d: a losing apply failed for another reason (exit %d): %s%s", r, res.code, res.stdout, res.stderr)
			case step == "pre-write":
				switch decision(res.stdout) {
				case "allow":
					allows++
				case "deny":
					denies++
					if strings.Contains(res.stdout, "another memcompact run is rewriting this memory store") {
						busy++ // a sweep or an admission held the store: the guard stepped aside
					}
				default:
					t.Errorf("round %d: the pre-write hook answered neither allow nor deny (exit %d): %q %s", r, res.code, res.stdout, res.stderr)
				}
				if res.code != 0 {
					t.Errorf("round %d: the pre-write hook exited %d: %s", r, res.code, res.stderr)
				}
			default:
				name := strings.TrimPrefix(step, "admit:")
				if res.code != 0 {
					t.Errorf("round %d: admit %s failed (exit %d): %s", r, name, res.code, res.stderr)
					continue
				}
				admitted++
				if !strings.Contains(final, "("+name+".md)") {
					lost++
					t.Errorf("round %d: the admission of %s exited 0 but its pointer is not in the index (an interleaved rewrite):\n%s", r, name, final)
				}
			}
		}
		won += applied
		if applied > 1 {
			t.Errorf("round %d: %d applies of one plan won; at most one may", r, applied)
		}
		ledger := read(t, filepath.Join(store, "LEDGER.md"))
		if applied == 1 {
			archive := read(t, filepath.Join(store, "ARCHIVE.md"))
			for _, gone := range []string{"project_auth", "project_billing"} {
				if strings.Contains(final, "("+gone+".md)") || !strings.Contains(archive, "("+gone+".md)") {
					lost++
					t.Errorf("round %d: the demotion of %s is not whole: in the index %v, in the archive %v", r, gone,
						strings.Contains(final, "("+gone+".md)"), strings.Contains(archive, "("+gone+".md)"))
				}
				if n := len(regexp.MustCompile(`(?m)^`+sweepDate+` \| executed \| demote \| `+gone+`@`).FindAllString(ledger, -1)); n != 1 {
					lost++
					t.Errorf("round %d: %d executed rows for %s, want 1:\n%s", r, n, gone, ledger)
				}
			}
		} else if strings.Contains(ledger, "| executed |") {
			t.Errorf("round %d: no apply won, but the ledger records executed acts:\n%s", r, ledger)
		}
		// The records read whole, and the inventory enumerates the store.
		inv := mc(t, store, "", env, "inventory", "--as-of", sweepDate, ix)
		var a struct {
			Ledger struct{ Malformed int } `json:"ledger"`
			Slate  struct {
				Malformed   int
				Trustworthy bool
			} `json:"slate"`
			IncompleteDispositions []any `json:"incomplete_dispositions"`
		}
		if inv.code != 0 || json.Unmarshal([]byte(inv.stdout), &a) != nil || a.Ledger.Malformed != 0 || a.Slate.Malformed != 0 || !a.Slate.Trustworthy || len(a.IncompleteDispositions) != 0 {
			lost++
			t.Errorf("round %d: the records do not read whole (exit %d): %s%s", r, inv.code, inv.stdout, inv.stderr)
		}
		// The journal the hooks wrote reads back.
		if h := mc(t, store, "", env, "history", store); (h.code != 0 && h.code != 1) || strings.Contains(h.stdout+h.stderr, "could not") {
			t.Errorf("round %d: the journal does not read back (exit %d): %s%s", r, h.code, h.stdout, h.stderr)
		}
		if left := scratch(t, store); len(left) > 0 {
			t.Errorf("round %d: temporary files left behind: %v", r, left)
		}
	}
	t.Logf("FIGURE sweep concurrency: %d rounds × 8 processes (2 sweep apply, 2 admit, 4 hook pre-write) in %s: %d applies won, %d refused as stale, %d admissions, %d pre-write allowed, %d denied (%d while another run held the store), %d lost or torn",
		rounds, since(t0), won, refused, admitted, allows, denies, busy, lost)
	if admitted == 0 || allows+denies == 0 {
		t.Error("no admission or no hook answer: the test proves nothing")
	}
}
