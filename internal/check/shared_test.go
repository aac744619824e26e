package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/testshared"

	"github.com/memcompact/memcompact/internal/policy"
	"github.com/memcompact/memcompact/internal/textfile"
)

// sharedDir locates the shared test data (the reference copies and the
// real-store corpus), skipping the test when it is absent.
func sharedDir(t testing.TB) string {
	t.Helper()
	return testshared.Dir(t, filepath.Join("reference", "agent-orchestra", "SKILL.md"))
}

func regionOf(t *testing.T, path, begin, end string) string {
	t.Helper()
	f, err := textfile.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	r := policy.ReadRegion(textfile.Lines(f.Text), begin, end)
	if !r.HasContent() {
		t.Fatalf("%s has no %s region", path, begin)
	}
	return strings.Join(r.Block, "\n") + "\n"
}

// TestAgentOrchestraReference assembles stores from the shipped
// agent-orchestra texts, the way its own regression suite does, and checks
// the verdicts that suite pins.
func TestAgentOrchestraReference(t *testing.T) {
	shared := sharedDir(t)
	skill := filepath.Join(shared, "reference", "agent-orchestra", "SKILL.md")
	pre := filepath.Join(shared, "reference", "agent-orchestra", "policy-pre-supersession.md")
	canon := regionOf(t, skill, policy.PolicyBegin, policy.PolicyEnd)
	stanza := regionOf(t, skill, policy.StanzaBegin, policy.StanzaEnd)
	legacyCanon := regionOf(t, pre, policy.PolicyBegin, policy.PolicyEnd)
	body := "\n## Entries\n\n- [alpha](reference_alpha_lesson.md) — a stale read wins the race and silently drops the write\n- [beta](project_beta_thing.md) — the retry cap is three, not unlimited\n"
	values := "<!-- store-values-begin -->\nbudget_fraction: 0.80\nstaleness_bound_days: 30\nlimit_observation: 2026-08-06 | 24978 | characters | truncation-boundary test\n<!-- store-values-end -->\n\n"
	today := time.Date(2026, 8, 20, 0, 0, 0, 0, time.Local)

	check := func(dir, ref string) *Report {
		return Evaluate(Options{IndexPath: filepath.Join(dir, "MEMORY.md"), Reference: Reference{Display: ref, Path: ref}, Today: today})
	}
	t.Run("legacy clean", func(t *testing.T) {
		r := check(writeFiles(t, map[string]string{"MEMORY.md": canon + body}), skill)
		if r.Result != Clean || r.PolicyStatus != "in-index header - present, complete" {
			t.Errorf("%s: %s %s", r.Result, r.PolicyStatus, r.PolicyDivergence)
		}
	})
	t.Run("pre-supersession header", func(t *testing.T) {
		dir := writeFiles(t, map[string]string{"MEMORY.md": legacyCanon + body})
		r := check(dir, skill)
		if r.Result != Defects || r.PolicyStatus != "in-index header - present, INCOMPLETE" || len(r.PolicyExplanation) != 10 ||
			!strings.HasPrefix(r.PolicyDivergence, "first divergence at header line ") {
			t.Errorf("against the current text: %s %q %q", r.Result, r.PolicyStatus, r.PolicyDivergence)
		}
		if r := check(dir, pre); r.Result != Clean {
			t.Errorf("against the preserved text: %s %q %q", r.Result, r.PolicyStatus, r.PolicyDivergence)
		}
	})
	t.Run("split clean at real magnitude", func(t *testing.T) {
		r := check(writeFiles(t, map[string]string{
			"MEMORY.md": "<!-- memory-policy-stanza-begin: POLICY.md -->\n" + stanza + "<!-- memory-policy-stanza-end -->\n" + body,
			"POLICY.md": "# Store policy\n\n" + values + "<!-- policy-canonical-begin -->\n" + canon + "<!-- policy-canonical-end -->\n",
		}), skill)
		if r.Result != Clean || r.Size.Budget != 19982 || r.Size.ObservationAgeDays != 14 {
			t.Errorf("%s %q %+v", r.Result, r.PolicyDivergence, r.Size)
		}
		if got := SizeText(&r.Size); !strings.HasSuffix(got, " of 19,982 characters (budget = 0.80 of the 24,978-character limit observed 2026-08-06)") {
			t.Errorf("size text %q", got)
		}
	})
	t.Run("stanza-less reference refuses a split store", func(t *testing.T) {
		r := check(writeFiles(t, map[string]string{
			"MEMORY.md": "<!-- memory-policy-stanza-begin: POLICY.md -->\n" + stanza + "<!-- memory-policy-stanza-end -->\n" + body,
			"POLICY.md": "<!-- policy-canonical-begin -->\n" + legacyCanon + "<!-- policy-canonical-end -->\n",
		}), pre)
		if r.Result != Refused || r.Refusal.Kind != RefReferenceStanza {
			t.Errorf("%s %+v", r.Result, r.Refusal)
		}
	})
	t.Run("the skill itself is not a split declaration", func(t *testing.T) {
		r := check(filepath.Dir(skill), skill) // no MEMORY.md there
		if r.Result != UsageError {
			t.Errorf("%s", r.Result)
		}
		r = Evaluate(Options{IndexPath: skill, Reference: Reference{Display: skill, Path: skill}, Today: today})
		if r.Result == Refused && r.Refusal.Kind == RefStanzaMalformed || r.Shape != "" && r.Shape != ShapeLegacy {
			t.Errorf("SKILL.md read as split: %s %+v %s", r.Result, r.Refusal, r.Shape)
		}
	})
}

// TestUnreadable: a file that exists but cannot be read is a refusal naming
// the cause, never a usage error or the half-migrated state.
func TestUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("file permissions do not bind root")
	}
	dir := writeFiles(t, map[string]string{
		"MEMORY.md": "<!-- memory-policy-stanza-begin: POLICY.md -->\nThe policy file named above holds the rules; read it before compacting.\n<!-- memory-policy-stanza-end -->\n\n## E\n- [a](reference_a.md) — a hook\n",
		"POLICY.md": "x\n",
		"ref.md":    testRef,
	})
	os.Chmod(filepath.Join(dir, "POLICY.md"), 0)
	if r := run(t, dir); r.Result != Refused || r.Refusal.Kind != RefPolicyFileUnreadable || r.Refusal.Detail[2] != "the file exists, so this is not the half-migrated state" {
		t.Errorf("policy file: %s %+v", r.Result, r.Refusal)
	}
	os.Chmod(filepath.Join(dir, "ref.md"), 0)
	ref := filepath.Join(dir, "ref.md")
	if r := Evaluate(Options{IndexPath: filepath.Join(dir, "MEMORY.md"), Reference: Reference{Display: ref, Path: ref}, Today: testToday}); r.Result != Refused || r.Refusal.Reason != "policy reference copy could not be read" {
		t.Errorf("reference: %s %+v", r.Result, r.Refusal)
	}
	os.Chmod(filepath.Join(dir, "MEMORY.md"), 0)
	if r := run(t, dir); r.Result != Refused || r.Refusal.Reason != "index could not be read" {
		t.Errorf("index: %s %+v", r.Result, r.Refusal)
	}
}
