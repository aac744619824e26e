package mcpserver

import (
	"context"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestArgs checks, over the SDK's in-memory transport, that each tool turns
// its typed input into the verb's command line, and that a verb's exit code
// and JSON come back as the tool's result.
func TestArgs(t *testing.T) {
	var got []string
	run := func(_ context.Context, args []string, _ []byte) Outcome {
		got = args
		code := 0
		if args[0] == "budgets" {
			code = 1
		}
		if args[0] == "gate" {
			code = 3
		}
		return Outcome{Stdout: []byte(fakeDoc), Stderr: []byte("memcompact: warning: w\n"), Code: code}
	}
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	server := New(&Host{Run: run, Getenv: func(string) string { return "" }, Today: time.Now}, "test")
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	tests := []struct {
		tool string
		in   map[string]any
		want []string
	}{
		{"budgets", map[string]any{"root": "-r"}, []string{"budgets", "--json", "--root=-r"}},
		{"compact_plan", map[string]any{"file": "d.md"}, []string{"compact", "--plan", "--json", "--", "d.md"}},
	}
	for _, tt := range tests {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tt.tool, Arguments: tt.in})
		if err != nil {
			t.Fatalf("%s: %v", tt.tool, err)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s %v: args %q, want %q", tt.tool, tt.in, got, tt.want)
		}
		m, _ := res.StructuredContent.(map[string]any)
		if m["result"] != "x" {
			t.Errorf("%s: structured content %v is not the verb's JSON", tt.tool, res.StructuredContent)
		}
		if tt.tool == "budgets" && (res.Meta["exit_code"] != float64(1) || res.Meta["outcome"] != "defects") {
			t.Errorf("budgets: _meta %v", res.Meta)
		}
		if tc, ok := res.Content[1].(*mcp.TextContent); !ok || !strings.Contains(tc.Text, "memcompact: warning: w") {
			t.Errorf("%s: the verb's stderr is not in the second text content: %v", tt.tool, res.Content[1])
		}
		if tc, ok := res.Content[0].(*mcp.TextContent); !ok || tc.Text != fakeDoc {
			t.Errorf("%s: text content is not the verb's stdout: %v", tt.tool, res.Content[0])
		}
	}

	// compact_apply: a dry run without confirm, --yes with it; an empty
	// summary is a tool error and runs nothing.
	for _, c := range []struct {
		confirm bool
		last    string
	}{{false, "--dry-run"}, {true, "--yes"}} {
		got = nil
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "compact_apply", Arguments: map[string]any{"file": "d.md", "summary": "- x", "confirm": c.confirm}}); err != nil {
			t.Fatal(err)
		}
		if len(got) < 6 || got[len(got)-3] != c.last || got[len(got)-1] != "d.md" {
			t.Errorf("compact_apply confirm=%v: %q", c.confirm, got)
		}
	}
	got = nil
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "compact_apply", Arguments: map[string]any{"file": "d.md", "summary": " "}})
	if err != nil || !res.IsError || got != nil {
		t.Errorf("empty summary: err %v, IsError %v, ran %q", err, res != nil && res.IsError, got)
	}
}

// TestTempFiles checks that compact_apply's summary, which the agent passes
// inline, reaches the compaction verb as a file holding exactly that value,
// and that the file is gone after the call.
func TestTempFiles(t *testing.T) {
	var path, body string
	run := func(_ context.Context, args []string, _ []byte) Outcome {
		for i, a := range args {
			switch {
			case strings.HasPrefix(a, "--inventory="):
				path = strings.TrimPrefix(a, "--inventory=")
			case a == "--summary":
				path = args[i+1]
			}
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v", args[0], err)
		}
		body = string(b)
		return Outcome{Stdout: []byte(fakeDoc)}
	}
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := New(&Host{Run: run, Getenv: func(string) string { return "" }, Today: time.Now}, "test").Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, tt := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"compact_apply", map[string]any{"file": "d.md", "summary": "- x\n- y\n"}, "- x\n- y\n"},
	} {
		path, body = "", ""
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tt.tool, Arguments: tt.args})
		if err != nil || res.IsError {
			t.Fatalf("%s: err %v, result %v", tt.tool, err, res)
		}
		if path == "" || body != tt.want {
			t.Errorf("%s: the verb read %q from %q, want %q", tt.tool, body, path, tt.want)
		}
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("%s: %s left behind (%v)", tt.tool, path, err)
		}
	}
}

// fakeDoc is what the fake verbs print: memcompact's error object, which
// every in-process tool's output schema admits.
const fakeDoc = `{"schema_version":1,"result":"x","exit_code":0,"error":"e","hints":[]}` + "\n"
