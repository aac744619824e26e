package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/summarize"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPCompactPlanCarriesThePrompt: an agent that distills in session
// gets the same instructions every summarizer gets, and compact_apply
// returns the must-keep statements its bullets drop, so the agent can
// repair them.
func TestMCPCompactPlanCarriesThePrompt(t *testing.T) {
	f := newFixture(t)
	env, _, _ := f.env(nil)
	cs := connect(t, env)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "compact_plan", Arguments: map[string]any{"file": f.p(pMemFile), "root": f.root}})
	if err != nil {
		t.Fatal(err)
	}
	file := firstFile(t, res)
	if file["status"] != "planned" || file["prompt"] != summarize.Instructions || !strings.Contains(file["request"].(string), "<entries>") {
		t.Fatalf("compact_plan's file: status %v, prompt %.60v, request %.80v", file["status"], file["prompt"], file["request"])
	}
	res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "compact_apply", Arguments: map[string]any{"file": f.p(pMemFile), "root": f.root, "summary": "- kept\n"}})
	if err != nil {
		t.Fatal(err)
	}
	file = firstFile(t, res)
	if file["status"] != "aborted" || file["lost_must_keep"] == nil {
		t.Fatalf("compact_apply with a summary that drops must-keep statements: status %v, lost %v", file["status"], file["lost_must_keep"])
	}
}

func firstFile(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	env, _ := res.StructuredContent.(map[string]any)
	doc, _ := env["result"].(map[string]any)
	files, _ := doc["files"].([]any)
	if len(files) == 0 {
		t.Fatalf("no files in %v", res.StructuredContent)
	}
	m, _ := files[0].(map[string]any)
	return m
}
