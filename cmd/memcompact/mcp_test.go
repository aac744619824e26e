package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memcompact/memcompact/internal/testshared"
)

// mcpStore is a small store every MCP tool can be pointed at.
var mcpStore = map[string]string{
	"memory/MEMORY.md": "# Memory\n\n## Feedback\n" +
		"- [Run tests with race](feedback_race.md) — always pass -race; CI flakes otherwise\n" +
		"- [Deploy](project_deploy.md)\n",
	"memory/feedback_race.md":           "---\nname: race\nnode_type: memory\nadmitted: 2026-10-01\n---\nAlways run go test -race.\n",
	"memory/project_deploy.md":          "---\nname: deploy\nnode_type: memory\nadmitted: 2026-09-15\n---\nStaging first.\n",
	"memory/project_orphan.md":          "---\nname: orphan\n---\nNobody points here.\n",
	"memory/LEDGER.md":                  "<!-- memory-ledger-begin -->\n",
	"memory/SLATE.md":                   "<!-- memory-slate-begin -->\n2026-11-01 | feedback_race@2026-10-01 | critical | no | routine\n",
	"memory/destination.md":             "The lesson: always pass -race.\n",
	"memory/compaction/.keep":           "",
	"memory/compaction/snapshots/.keep": "",
	"memory/compaction/compaction-policy.md": "# Compaction policy\n\n" +
		"| File | Budget | Newest tier (verbatim) | Notes |\n|---|---|---|---|\n" +
		"| topics/diary.md | 24 lines | last 1 entries | test |\n",
	"memory/topics/diary.md": diary(),
}

// diary is a topic diary of eight dated entries, 26 lines: over its
// 24-line budget until its oldest three entries are distilled.
func diary() string {
	var b strings.Builder
	b.WriteString("# Diary\n\n")
	for i := 1; i <= 8; i++ {
		fmt.Fprintf(&b, "## 2026-11-0%d 10:00 — day %d\nOn day %d we set `retries=%d` for the sync worker.\n\n", i, i, i, i)
	}
	return b.String()
}

// diarySummary is an agent's distillation of the diary's oldest tier.
const diarySummary = "- day 1: `retries=1` (2026-11-01)\n- day 2: `retries=2` (2026-11-02)\n- day 3: `retries=3` (2026-11-03)\n"

// mcpCases calls each tool once with arguments that work on mcpStore (paths
// relative to the store's parent) and names the exit code expected. A tool
// the server lists without a case here fails the test.
func mcpCases(dir string) map[string]struct {
	args map[string]any
	code int
} {
	p := func(rel string) string { return filepath.Join(dir, rel) }
	return map[string]struct {
		args map[string]any
		code int
	}{
		"check":          {map[string]any{"index": p("memory/MEMORY.md")}, 1}, // no policy, one bare title
		"budgets":        {map[string]any{"root": p("memory")}, 1},            // the diary is over 8 lines
		"measure":        {map[string]any{"path": p("memory/MEMORY.md")}, 0},
		"inventory":      {map[string]any{"index": p("memory/MEMORY.md")}, 0},
		"gate_deferral":  {map[string]any{"index": p("memory/MEMORY.md"), "identity": "feedback_race@2026-10-01"}, 0},
		"gate_exit":      {map[string]any{"index": p("memory/MEMORY.md"), "identity": "feedback_race@2026-10-01", "disposition": "promote", "destination": p("memory/destination.md"), "probe": "always pass -race"}, 0},
		"gate_admission": {map[string]any{"index": p("memory/MEMORY.md"), "identity": "feedback_race@2026-10-01", "admission_rule_landed_on": "2026-09-01"}, 0},
		"gate_reconcile": {map[string]any{"index": p("memory/MEMORY.md"), "entry": p("memory/feedback_race.md")}, 0},
		"partition":      {map[string]any{"index": p("memory/MEMORY.md"), "inventory": p("inventory.json")}, 0},
		"load":           {map[string]any{"index": p("memory/MEMORY.md")}, 0},
		"drift":          {map[string]any{"store": p("memory")}, 1}, // project_orphan.md, destination.md
		"secrets":        {map[string]any{"paths": []string{p("memory")}}, 0},
		"doctor":         {map[string]any{"index": p("memory/MEMORY.md")}, 1},
		"compact_plan":   {map[string]any{"file": p("memory/topics/diary.md"), "root": p("memory")}, 0},
		// Without confirm, a dry run: exit 0, nothing written (checked below).
		"compact_apply": {map[string]any{"file": p("memory/topics/diary.md"), "root": p("memory"), "summary": diarySummary}, 0},
		"sweep_plan":    {map[string]any{"index": p("memory/MEMORY.md")}, 0},
		// Without confirm, a dry run that gates every act: nothing written.
		"sweep_apply": {map[string]any{"index": p("memory/MEMORY.md")}, 0},
		"history":     {map[string]any{"store": p("memory")}, 0},
		"journal":     {map[string]any{"store": p("memory")}, 0},
		// The store matches the snapshot journal just took (tools are
		// called in name order): nothing to undo, refused.
		"undo": {map[string]any{"store": p("memory"), "to": "2026"}, 2},
	}
}

// TestMCP starts "memcompact mcp" as a subprocess, lists its tools and calls
// each one through the SDK's client: this test executable, and the
// memcompact a user installs.
func TestMCP(t *testing.T) {
	bin, err := exec.LookPath("memcompact") // testscript.Main put this test binary on PATH as memcompact
	if err != nil {
		t.Fatalf("memcompact not on PATH: %v", err)
	}
	t.Run("linked", func(t *testing.T) { testMCP(t, bin) })
	t.Run("installed", func(t *testing.T) {
		if testing.Short() {
			t.Skip("builds memcompact with the go command")
		}
		testMCP(t, testshared.Install(t, t.TempDir()))
	})
}

// mcpFixture lays mcpStore out in a new folder, with the sweep plan and
// the inventory artifact two tools read, and returns the folder.
func mcpFixture(t *testing.T, bin string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range mcpStore {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// sweep_apply reads the plan sweep_plan writes (tools are called in
	// name order, so the plan is made here first).
	sp := exec.Command(bin, "sweep", "plan", filepath.Join(dir, "memory", "MEMORY.md"))
	sp.Env = mcpEnv(dir)
	if out, err := sp.CombinedOutput(); err != nil {
		t.Fatalf("sweep plan: %v\n%s", err, out)
	}
	// partition reads an artifact the inventory wrote before the sweep.
	inv := exec.Command(bin, "inventory", "--out", filepath.Join(dir, "inventory.json"), filepath.Join(dir, "memory", "MEMORY.md"))
	inv.Env = mcpEnv(dir)
	if out, err := inv.CombinedOutput(); err != nil {
		t.Fatalf("inventory: %v\n%s", err, out)
	}

	return dir
}

func testMCP(t *testing.T, bin string) {
	dir := mcpFixture(t, bin)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.Command(bin, "mcp")
	cmd.Dir = dir
	cmd.Env = mcpEnv(dir)
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer session.Close()

	list, err := session.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("list tools: %v", err)
	}
	cases := mcpCases(dir)
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		if tool.Description == "" {
			t.Errorf("%s: no description", tool.Name)
		}
		if tool.Annotations == nil {
			t.Errorf("%s: no annotations", tool.Name)
		} else if ro := tool.Annotations.ReadOnlyHint; ro == (strings.HasPrefix(tool.Name, "compact_apply") || strings.HasPrefix(tool.Name, "sweep_") || tool.Name == "journal" || tool.Name == "undo") {
			t.Errorf("%s: readOnlyHint %v", tool.Name, ro)
		}
		c, ok := cases[tool.Name]
		if !ok {
			t.Errorf("tool %s has no test case", tool.Name)
			continue
		}
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: tool.Name, Arguments: c.args})
		if err != nil {
			t.Errorf("%s: %v", tool.Name, err)
			continue
		}
		got := decodeResult(t, tool.Name, res)
		if got.ExitCode != c.code {
			t.Errorf("%s: exit_code %d, want %d; result %s; messages %q", tool.Name, got.ExitCode, c.code, got.Result, got.Messages)
		}
		if len(got.Result) == 0 || !json.Valid(got.Result) {
			t.Errorf("%s: result is not the verb's JSON: %q (text %q)", tool.Name, got.Result, got.Text)
		}
	}
	sort.Strings(names)
	t.Logf("%d tools: %v", len(names), names)
	for _, want := range []string{"check", "load", "drift", "secrets", "budgets", "inventory", "gate_deferral", "gate_exit",
		"gate_admission", "gate_reconcile", "partition", "measure", "doctor", "compact_plan", "compact_apply"} {
		if i := sort.SearchStrings(names, want); i >= len(names) || names[i] != want {
			t.Errorf("tool %s not listed; tools: %v", want, names)
		}
	}

	// compact_apply wrote nothing without confirm; with it, it compacts.
	diaryPath := filepath.Join(dir, "memory", "topics", "diary.md")
	if b, _ := os.ReadFile(diaryPath); string(b) != diary() {
		t.Fatalf("compact_apply without confirm changed the file:\n%s", b)
	}
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "compact_apply", Arguments: map[string]any{
		"file": diaryPath, "root": filepath.Join(dir, "memory"), "summary": diarySummary, "confirm": true}})
	if err != nil {
		t.Fatal(err)
	}
	if got := decodeResult(t, "compact_apply", res); got.ExitCode != 0 {
		t.Errorf("compact_apply confirmed: exit %d: %s %q", got.ExitCode, got.Result, got.Messages)
	}
	if b, _ := os.ReadFile(diaryPath); !strings.Contains(string(b), "## Compacted History") || !strings.Contains(string(b), "`retries=2`") {
		t.Errorf("compact_apply confirmed did not compact:\n%s", b)
	}
	if snaps, _ := filepath.Glob(filepath.Join(dir, "memory", "compaction", "snapshots", "diary-*.md")); len(snaps) != 1 {
		t.Errorf("snapshots: %v", snaps)
	}

	// sweep_apply wrote nothing without confirm; with the owner's decision
	// and confirm it demotes, record first, and the partition accounts.
	indexPath := filepath.Join(dir, "memory", "MEMORY.md")
	if b, _ := os.ReadFile(indexPath); string(b) != mcpStore["memory/MEMORY.md"] {
		t.Fatalf("sweep_apply without confirm changed the index:\n%s", b)
	}
	res, err = session.CallTool(ctx, &mcp.CallToolParams{Name: "sweep_apply", Arguments: map[string]any{
		"index": indexPath, "confirm": true,
		"decisions": []map[string]any{{"identity": "project_deploy@2026-09-15", "decision": "accepted", "disposition": "demote"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := decodeResult(t, "sweep_apply", res); got.ExitCode != 0 {
		t.Errorf("sweep_apply confirmed: exit %d: %s %q", got.ExitCode, got.Result, got.Messages)
	}
	if b, _ := os.ReadFile(indexPath); strings.Contains(string(b), "project_deploy.md") {
		t.Errorf("sweep_apply confirmed did not demote:\n%s", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "memory", "LEDGER.md")); !strings.Contains(string(b), "| executed | demote | project_deploy@2026-09-15 |") {
		t.Errorf("no executed record for the demotion:\n%s", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "memory", "ARCHIVE.md")); !strings.Contains(string(b), "[Deploy](project_deploy.md)") {
		t.Errorf("the demoted pointer is not in ARCHIVE.md:\n%s", b)
	}

	// undo previews without confirm and brings an entry back with it.
	orphan := filepath.Join(dir, "memory", "project_orphan.md")
	if err := os.Remove(orphan); err != nil {
		t.Fatal(err)
	}
	for _, confirm := range []bool{false, true} {
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "undo", Arguments: map[string]any{
			"store": filepath.Join(dir, "memory"), "entry": "project_orphan.md", "confirm": confirm}})
		if err != nil {
			t.Fatal(err)
		}
		got := decodeResult(t, "undo", res)
		_, statErr := os.Stat(orphan)
		if got.ExitCode != 0 || (statErr == nil) != confirm {
			t.Errorf("undo confirm=%v: exit %d, entry back %v: %s %q", confirm, got.ExitCode, statErr == nil, got.Result, got.Messages)
		}
	}

	// Malformed arguments are a tool error, and the server keeps serving.
	for _, bad := range []map[string]any{
		{"index": 42},
		{"identity": "x@unknown"}, // gate_deferral without its required index
	} {
		name := "check"
		if _, ok := bad["identity"]; ok {
			name = "gate_deferral"
		}
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: bad})
		if err != nil {
			t.Fatalf("%s with %v: protocol error %v (want a tool error)", name, bad, err)
		}
		if !res.IsError {
			t.Errorf("%s with %v: not a tool error", name, bad)
		}
	}
	// A verb's usage error is a tool error too.
	res, err = session.CallTool(ctx, &mcp.CallToolParams{Name: "gate_deferral", Arguments: map[string]any{"index": filepath.Join(dir, "nope.md"), "identity": "x@unknown"}})
	if err != nil || !res.IsError {
		t.Errorf("gate_deferral on a missing index: err %v, IsError %v", err, res != nil && res.IsError)
	}
	if err := session.Ping(ctx, nil); err != nil {
		t.Fatalf("server gone after bad calls: %v", err)
	}
}

// mcpResult is a tool's result as the test reads it: the exit code from
// _meta, the verb's JSON (the structured content), and the second text
// content's status and stderr lines.
type mcpResult struct {
	ExitCode int
	Outcome  string
	Result   json.RawMessage
	Text     string
	Messages []string
}

func decodeResult(t *testing.T, name string, res *mcp.CallToolResult) mcpResult {
	t.Helper()
	var r mcpResult
	if res.IsError {
		t.Errorf("%s: tool error: %v", name, contentText(res))
		return r
	}
	code, ok := res.Meta["exit_code"].(float64)
	if !ok {
		t.Errorf("%s: no exit_code in _meta: %v", name, res.Meta)
	}
	r.ExitCode = int(code)
	r.Outcome, _ = res.Meta["outcome"].(string)
	env, _ := res.StructuredContent.(map[string]any)
	if env["exit_code"] != code || env["status"] != r.Outcome {
		t.Errorf("%s: structuredContent's exit_code %v and status %v differ from _meta's %v %v", name, env["exit_code"], env["status"], code, r.Outcome)
	}
	b, err := json.Marshal(env["result"])
	if err != nil || env["result"] == nil {
		t.Errorf("%s: structured content: %v", name, err)
		return r
	}
	r.Result = b
	if len(res.Content) == 2 {
		r.Text = res.Content[0].(*mcp.TextContent).Text
		lines := strings.Split(res.Content[1].(*mcp.TextContent).Text, "\n")
		r.Messages = lines[1:]
	}
	return r
}

func contentText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// mcpEnv is the subprocess environment: PATH (to find nothing else), a home
// and config dir inside the test's directory, and a pinned date.
func mcpEnv(dir string) []string {
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + filepath.Join(dir, "home"),
		"CLAUDE_CONFIG_DIR=" + filepath.Join(dir, "cfg"),
		"MEMCOMPACT_TODAY=2026-12-02",
		"MEMCOMPACT_REFERENCE=",
		"TZ=UTC",
	}
}

// TestMCPSignalAndEOF runs "memcompact mcp" as a real process: SIGINT
// ends it (Claude Code gives a server 140 ms), and so does the end of its
// input, after every request read has been answered. The times are
// logged, not asserted (the machine may be busy); a server that does not
// stop within seconds fails.
func TestMCPSignalAndEOF(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT to send on Windows")
	}
	bin, err := exec.LookPath("memcompact")
	if err != nil {
		t.Fatalf("memcompact not on PATH: %v", err)
	}
	dir := t.TempDir()
	const init = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
	start := func() (*exec.Cmd, io.WriteCloser, *bufio.Reader) {
		cmd := exec.Command(bin, "mcp")
		cmd.Dir, cmd.Env = dir, mcpEnv(dir)
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		io.WriteString(stdin, init)
		out := bufio.NewReader(stdout)
		if _, err := out.ReadString('\n'); err != nil {
			t.Fatalf("no answer to initialize: %v", err)
		}
		return cmd, stdin, out
	}
	waitExit := func(cmd *exec.Cmd, what string) time.Duration {
		t0 := time.Now()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("%s: %v", what, err)
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%s: the server did not exit", what)
		}
		return time.Since(t0)
	}

	cmd, stdin, _ := start()
	cmd.Process.Signal(os.Interrupt)
	t.Logf("exit after SIGINT: %v", waitExit(cmd, "SIGINT"))
	stdin.Close()

	cmd, stdin, out := start()
	for id := 2; id <= 6; id++ {
		fmt.Fprintf(stdin, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"measure","arguments":{"path":%q}}}`+"\n", id, dir)
	}
	stdin.Close()
	answered := map[float64]bool{}
	for {
		line, err := out.ReadString('\n')
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) == nil {
			if id, ok := m["id"].(float64); ok {
				answered[id] = true
			}
		}
		if err != nil {
			break
		}
	}
	t.Logf("exit after the end of input: %v", waitExit(cmd, "stdin closed"))
	for id := 2.0; id <= 6; id++ {
		if !answered[id] {
			t.Errorf("request %v was not answered before the server exited", id)
		}
	}
}

// TestMCPOfficialClients: the official TypeScript MCP SDK's client lists
// every tool (its listTools rejects an output schema whose root is not an
// object) and calls each one (its callTool validates structuredContent
// against the output schema), and the MCP Inspector's CLI lists them in
// its strict mode.
// .ci/run installs the pinned packages with npm and names them in
// MEMCOMPACT_MCP_SDK (the install prefix) and MEMCOMPACT_MCP_INSPECTOR
// (its mcp-inspector executable); without them the test skips.
func TestMCPOfficialClients(t *testing.T) {
	prefix, inspector := os.Getenv("MEMCOMPACT_MCP_SDK"), os.Getenv("MEMCOMPACT_MCP_INSPECTOR")
	if prefix == "" && inspector == "" {
		t.Skip("MEMCOMPACT_MCP_SDK and MEMCOMPACT_MCP_INSPECTOR are not set (.ci/run installs them with npm)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node on PATH")
	}
	bin, err := exec.LookPath("memcompact")
	if err != nil {
		t.Fatalf("memcompact not on PATH: %v", err)
	}
	dir := mcpFixture(t, bin)
	cases := mcpCases(dir)
	if prefix != "" {
		t.Run("typescript-sdk", func(t *testing.T) {
			env := map[string]string{}
			for _, kv := range mcpEnv(dir) {
				k, v, _ := strings.Cut(kv, "=")
				env[k] = v
			}
			args := map[string]any{}
			for name, c := range cases {
				args[name] = c.args
			}
			b, _ := json.Marshal(map[string]any{"dir": dir, "env": env, "args": args})
			casesFile := filepath.Join(t.TempDir(), "cases.json")
			if err := os.WriteFile(casesFile, b, 0o644); err != nil {
				t.Fatal(err)
			}
			script, _ := filepath.Abs(filepath.Join("testdata", "tsclient.cjs"))
			out, err := exec.Command(node, script, prefix, bin, casesFile).Output()
			if err != nil {
				t.Fatalf("the TypeScript client failed: %v\n%s%s", err, out, stderrOf(err))
			}
			var got struct {
				Tools []string
				Calls map[string]struct {
					ExitCode  *int   `json:"exit_code"`
					Status    string `json:"status"`
					IsError   bool   `json:"is_error"`
					HasResult bool   `json:"has_result"`
					Error     string `json:"error"`
				}
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			if len(got.Tools) != len(cases) {
				t.Errorf("the TypeScript client listed %d tools %v; the Go cases name %d", len(got.Tools), got.Tools, len(cases))
			}
			for _, name := range got.Tools {
				c, r := cases[name], got.Calls[name]
				if r.Error != "" || r.ExitCode == nil || *r.ExitCode != c.code || r.IsError || !r.HasResult || r.Status == "" {
					t.Errorf("%s through the TypeScript client: %+v; want exit %d with a result", name, r, c.code)
				}
			}
		})
	}
	if inspector != "" {
		t.Run("inspector", func(t *testing.T) {
			// --strict: a schema the Inspector finds unportable (a bare
			// true where a schema object belongs) fails the listing.
			cmd := exec.Command(inspector, "--cli", bin, "mcp", "--method", "tools/list", "--strict")
			cmd.Dir = dir
			cmd.Env = append(mcpEnv(dir), "PATH="+os.Getenv("PATH"))
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("the Inspector failed: %v\n%s%s", err, out, stderrOf(err))
			}
			var list struct {
				Tools []struct {
					Name         string         `json:"name"`
					OutputSchema map[string]any `json:"outputSchema"`
				} `json:"tools"`
			}
			if err := json.Unmarshal(out, &list); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			if len(list.Tools) != len(cases) {
				t.Errorf("the Inspector listed %d tools; the Go cases name %d", len(list.Tools), len(cases))
			}
			for _, tool := range list.Tools {
				if tool.OutputSchema["type"] != "object" {
					t.Errorf("%s: output schema type %v", tool.Name, tool.OutputSchema["type"])
				}
			}
		})
	}
}

// stderrOf is what a failed command wrote on stderr.
func stderrOf(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return string(ee.Stderr)
	}
	return ""
}
