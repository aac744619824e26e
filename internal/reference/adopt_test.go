package reference_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/check"
	"github.com/memcompact/memcompact/internal/policy"
	"github.com/memcompact/memcompact/internal/reference"
	"github.com/memcompact/memcompact/internal/textfile"
)

const body = `
## Entries
- [Retry caps drop writes](feedback_retry.md) — a stale read wins the race and the retry cap silently drops the write
- [Migration](project_migration.md) — the coupled fields must move together, [style](user_style.md) — prefers short commits
- [Bounded reads](reference_reads.md) — grep the whole file before claiming something is absent
`

func region(t *testing.T, begin, end string) string {
	t.Helper()
	r := policy.ReadRegion(textfile.Lines(string(reference.Embedded())), begin, end)
	if !r.HasContent() {
		t.Fatalf("no %s region", begin)
	}
	return strings.Join(r.Block, "\n")
}

// TestAdoptedStoreIsClean builds stores the way the reference tells a store
// to adopt it, and checks each against the embedded reference: the split
// shape with and without budget inputs, and the legacy shape with the policy
// as the index header. Each must be clean; and one changed word must not be.
func TestAdoptedStoreIsClean(t *testing.T) {
	pol := region(t, reference.PolicyBegin, reference.PolicyEnd)
	stanza := region(t, reference.StanzaBegin, reference.StanzaEnd)
	policyFile := reference.PolicyBegin + "\n" + pol + "\n" + reference.PolicyEnd + "\n"
	values := "\n<!-- store-values-begin -->\nbudget_fraction: 0.80\nlimit_observation: 2026-11-30 | 25000 | characters | truncation test\n<!-- store-values-end -->\n"
	splitIndex := "<!-- memory-policy-stanza-begin: POLICY.md -->\n" + stanza + "\n<!-- memory-policy-stanza-end -->\n" + body
	cases := []struct {
		name   string
		files  map[string]string
		clean  bool
		status string
	}{
		{"split", map[string]string{"MEMORY.md": splitIndex, "POLICY.md": policyFile}, true, "split - stanza and policy file both match the reference"},
		{"split with budget", map[string]string{"MEMORY.md": splitIndex, "POLICY.md": policyFile + values}, true, "split - stanza and policy file both match the reference"},
		{"split, CRLF and BOM", map[string]string{"MEMORY.md": "\uFEFF" + strings.ReplaceAll(splitIndex, "\n", "\r\n"), "POLICY.md": strings.ReplaceAll(policyFile, "\n", "\r\n")}, true, "split - stanza and policy file both match the reference"},
		{"legacy header", map[string]string{"MEMORY.md": pol + "\n" + body}, true, "in-index header - present, complete"},
		{"split, one word changed", map[string]string{"MEMORY.md": splitIndex, "POLICY.md": strings.Replace(policyFile, "No entry has tenure.", "No entry has any tenure.", 1)}, false, "split - stanza complete, policy file INCOMPLETE"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range c.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, e := range []string{"feedback_retry.md", "project_migration.md", "user_style.md", "reference_reads.md"} {
				if err := os.WriteFile(filepath.Join(dir, e), []byte("body\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			src := reference.Resolve("", func(string) string { return "" }, t.TempDir())
			rep := check.Evaluate(check.Options{
				IndexPath: filepath.Join(dir, "MEMORY.md"),
				Reference: check.Reference{Display: src.Display, Path: src.Path, Text: src.Text},
				Today:     time.Date(2026, 12, 2, 0, 0, 0, 0, time.Local),
			})
			var text strings.Builder
			check.WriteText(&text, rep)
			if got := rep.Result == check.Clean; got != c.clean {
				t.Fatalf("clean = %v, want %v:\n%s", got, c.clean, text.String())
			}
			if !strings.Contains(text.String(), "\npolicy: "+c.status+"\n") {
				t.Errorf("want policy status %q in:\n%s", c.status, text.String())
			}
			if !strings.Contains(text.String(), "reference: memcompact built-in reference (v1)\n") {
				t.Errorf("report does not name the built-in reference:\n%s", text.String())
			}
		})
	}
}
