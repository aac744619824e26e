package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/testshared"
)

// TestClaudeCodeMCP runs "memcompact mcp" inside the real Claude Code, as
// a user registers it: the one executable a user installs. A fake Messages API plays an agent
// that calls memcompact's load tool on the project's index; Claude Code
// must start the server, offer the tool, and carry the tool's JSON answer
// back to the model.
//
// It runs only when MEMCOMPACT_CLAUDE_CODE names a claude executable (see
// TestClaudeCode), and builds the executables with the go command.
func TestClaudeCodeMCP(t *testing.T) {
	claude := realClaude(t, "the MCP server inside the real Claude Code client is not tried")
	bin := testshared.Install(t, t.TempDir())
	sc := newScratch(t)
	index := filepath.Join(sc.defaultStore(t), "MEMORY.md")
	writeHookStore(t, filepath.Dir(index))
	config := filepath.Join(t.TempDir(), "mcp.json")
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"memcompact": map[string]any{"command": bin, "args": []string{"mcp"}}}})
	writeFile(t, config, string(cfg))

	const tool = "mcp__memcompact__load"
	api := newFakeAPI()
	api.respond = func(body []byte) ([]any, string) {
		if !bytes.Contains(body, []byte(`"name":"`+tool+`"`)) || bytes.Contains(body, []byte(`"type":"tool_result"`)) {
			return nil, ""
		}
		return []any{map[string]any{"type": "tool_use", "id": "toolu_load", "name": tool, "input": map[string]any{"index": index}}}, "tool_use"
	}
	srv := httptest.NewServer(api)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), claudeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, claude, "-p", "How much of the memory index loads?",
		"--mcp-config", config, "--strict-mcp-config", "--allowedTools", tool)
	// Offer MCP tools up front, not behind a tool search the fake would
	// have to play.
	cmd.Dir, cmd.Env = sc.cwd, append(sc.environ(), "ANTHROPIC_BASE_URL="+srv.URL, "ENABLE_TOOL_SEARCH=false")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("claude -p: %v\n%s\nrequests seen: %s", err, out, api.paths())
	}
	if !bytes.Contains(bytes.Join(api.raws, nil), []byte(`"name":"`+tool+`"`)) {
		var names []string
		for _, raw := range api.raws {
			var req struct {
				Tools []struct {
					Name string `json:"name"`
				} `json:"tools"`
			}
			json.Unmarshal(raw, &req)
			for _, tl := range req.Tools {
				names = append(names, tl.Name)
			}
		}
		t.Fatalf("Claude Code never offered %s: the server did not start or list its tools; it offered %q and said:\n%s", tool, names, out)
	}
	result := toolResults(api.raws)
	// The index has 233 lines: the cut is at line 201, as "memcompact load
	// --json" says (the tool result quotes its JSON inside a string).
	for _, want := range []string{`\"cut\":true`, `\"first_cut_line\":201`} {
		if !strings.Contains(result, want) {
			t.Errorf("the load tool's result lacks %s; it was: %.600s", want, result)
		}
	}
}
