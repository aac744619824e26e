package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/testshared"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fallbackPeople is a people file over its budget, with a health fact
// and a person's attribute in its oldest tier.
const fallbackPeople = "# People\n\n" +
	"## 2025-01-17 10:00 — Omar\n\nOmar is allergic to peanuts and carries an EpiPen.\n\n" +
	"## 2025-01-18 10:00 — Omar's family\n\nOmar has two kids, Sami and Noor.\n\n" +
	"## 2025-01-20 09:00 — Cafe\n\nThe cafe on Elm Street was closed for repairs.\n\n" +
	"## 2025-01-22 09:00 — Cafe again\n\nThe cafe reopened.\n\n" +
	"## 2025-02-01 09:00 — Note 5\n\nLena moved to the platform team.\n\n" +
	"## 2025-02-02 09:00 — Note 6\n\nThe cafe has a new menu.\n\n" +
	"## 2025-02-03 09:00 — Note 7\n\nThe cafe now opens at 8.\n\n" +
	"## 2025-02-04 09:00 — Note 8\n\nThe cafe closes at 18.\n"

// TestMCPCompactFallback: compact_apply's fallback argument. A summary
// that flips a health fact is refused with the file unchanged; with
// fallback "builtin" the built-in summarizer writes the block instead and
// the result says what it replaced; a value other than builtin is a usage
// error that names the one allowed.
func TestMCPCompactFallback(t *testing.T) {
	f := newFixture(t)
	env, _, _ := f.env(nil)
	cs := connect(t, env)
	flip := "- Omar is not allergic to peanuts and carries an EpiPen.\n- Omar has two kids, Sami and Noor.\n"
	call := func(root string, extra map[string]any) (*mcp.CallToolResult, map[string]any) {
		t.Helper()
		args := map[string]any{"file": filepath.Join(root, "people.md"), "root": root, "summary": flip, "confirm": true}
		for k, v := range extra {
			args[k] = v
		}
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "compact_apply", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		env, _ := res.StructuredContent.(map[string]any)
		result, _ := env["result"].(map[string]any)
		files, _ := result["files"].([]any)
		if len(files) != 1 {
			return res, nil
		}
		rep, _ := files[0].(map[string]any)
		return res, rep
	}
	policy := "| File | Budget | Newest tier | Notes |\n|---|---|---|---|\n| people.md | 30 lines | last 3 entries | n |\n"
	newRoot := func() string {
		return testshared.Tree(t, map[string]string{budget.PolicyRel: policy, "people.md": fallbackPeople})
	}

	root := newRoot()
	_, rep := call(root, nil)
	got, _ := os.ReadFile(filepath.Join(root, "people.md"))
	if rep == nil || rep["status"] != "aborted" || rep["unfaithful"] == nil && rep["lost_must_keep"] == nil || string(got) != fallbackPeople {
		t.Fatalf("a flipped summary without fallback: %v; file changed: %v", rep, string(got) != fallbackPeople)
	}

	root = newRoot()
	_, rep = call(root, map[string]any{"fallback": "builtin"})
	got, _ = os.ReadFile(filepath.Join(root, "people.md"))
	if fb, _ := rep["fell_back"].(string); rep == nil || rep["status"] != "compacted" || !strings.Contains(fb, "Omar is allergic to peanuts") {
		t.Fatalf("with fallback builtin: %v", rep)
	}
	if !strings.Contains(string(got), "Omar is allergic to peanuts and carries an EpiPen.") || strings.Contains(string(got), "not allergic") {
		t.Errorf("the built-in block does not hold the health fact as written:\n%s", got)
	}

	root = newRoot()
	res, _ := call(root, map[string]any{"fallback": "claude"})
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	if !res.IsError || !strings.Contains(text.String(), "fallback") || !strings.Contains(text.String(), "builtin") {
		t.Errorf("fallback claude: IsError %v, %s", res.IsError, text.String())
	}
	if got, _ := os.ReadFile(filepath.Join(root, "people.md")); string(got) != fallbackPeople {
		t.Error("a usage error changed the file")
	}
}
