package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memcompact/memcompact/internal/mcpserver"
)

// mcpCase is one tool call and the command line that must print the same
// JSON document.
type mcpCase struct {
	name string
	tool string
	in   func(f *fixture) map[string]any
	argv func(f *fixture) []string
}

var mcpCases = []mcpCase{
	{"check", "check", func(f *fixture) map[string]any {
		return map[string]any{"index": f.p(pIndex), "reference": f.p(pReference)}
	},
		func(f *fixture) []string {
			return []string{"check", "--json", "--reference", f.p(pReference), f.p(pIndex)}
		}},
	{"check-missing", "check", func(f *fixture) map[string]any { return map[string]any{"index": filepath.Join(f.dir, "nosuch.md")} },
		func(f *fixture) []string { return []string{"check", "--json", filepath.Join(f.dir, "nosuch.md")} }},
	{"load", "load", func(f *fixture) map[string]any { return map[string]any{"index": f.p(pIndex), "lines": 5} },
		func(f *fixture) []string { return []string{"load", "--json", "--lines", "5", f.p(pIndex)} }},
	{"load-missing", "load", func(f *fixture) map[string]any {
		return map[string]any{"index": filepath.Join(f.dir, "nosuch.md"), "units": nil}
	},
		func(f *fixture) []string { return []string{"load", "--json", filepath.Join(f.dir, "nosuch.md")} }},
	{"drift", "drift", func(f *fixture) map[string]any { return map[string]any{"store": f.storeDir} },
		func(f *fixture) []string { return []string{"drift", "--json", f.storeDir} }},
	{"drift-missing", "drift", func(f *fixture) map[string]any { return map[string]any{"store": filepath.Join(f.dir, "nosuch")} },
		func(f *fixture) []string { return []string{"drift", "--json", filepath.Join(f.dir, "nosuch")} }},
	{"secrets", "secrets", func(f *fixture) map[string]any { return map[string]any{"paths": []string{f.storeDir, f.p(pDest)}} },
		func(f *fixture) []string { return []string{"secrets", "--json", f.storeDir, f.p(pDest)} }},
	{"secrets-missing", "secrets", func(f *fixture) map[string]any {
		return map[string]any{"paths": []string{filepath.Join(f.dir, "nosuch")}}
	},
		func(f *fixture) []string { return []string{"secrets", "--json", filepath.Join(f.dir, "nosuch")} }},
	{"doctor", "doctor", func(f *fixture) map[string]any { return map[string]any{"index": f.p(pIndex)} },
		func(f *fixture) []string { return []string{"doctor", "--json", f.p(pIndex)} }},
	{"doctor-all", "doctor", func(f *fixture) map[string]any { return map[string]any{"all": true} },
		func(f *fixture) []string { return []string{"doctor", "--json", "--all"} }},
	{"doctor-missing", "doctor", func(f *fixture) map[string]any { return map[string]any{"index": filepath.Join(f.dir, "nosuch.md")} },
		func(f *fixture) []string { return []string{"doctor", "--json", filepath.Join(f.dir, "nosuch.md")} }},
	{"measure", "measure", func(f *fixture) map[string]any { return map[string]any{"path": f.p(pDest), "as_of": "2026-12-01"} },
		func(f *fixture) []string { return []string{"measure", "--json", "--as-of", "2026-12-01", f.p(pDest)} }},
	{"measure-validate", "measure", func(f *fixture) map[string]any { return map[string]any{"validate": f.record} },
		func(f *fixture) []string { return []string{"measure", "--json", "--validate", f.record} }},
	{"measure-bad-date", "measure", func(f *fixture) map[string]any { return map[string]any{"path": f.p(pDest), "as_of": "2026-13-01"} },
		func(f *fixture) []string { return []string{"measure", "--json", "--as-of", "2026-13-01", f.p(pDest)} }},
	{"budgets", "budgets", func(f *fixture) map[string]any { return map[string]any{"root": f.root} },
		func(f *fixture) []string { return []string{"budgets", "--json", "--root", f.root} }},
	{"inventory", "inventory", func(f *fixture) map[string]any { return map[string]any{"index": f.p(pIndex), "as_of": "2026-12-02"} },
		func(f *fixture) []string {
			return []string{"inventory", "--json", "--as-of", "2026-12-02", f.p(pIndex)}
		}},
	{"gate_deferral", "gate_deferral", func(f *fixture) map[string]any {
		return map[string]any{"index": f.p(pIndex), "identity": "feedback_testing@2026-10-21"}
	}, func(f *fixture) []string {
		return []string{"gate", "--json", "--gate", "deferral", "--identity", "feedback_testing@2026-10-21", f.p(pIndex)}
	}},
	{"gate_exit", "gate_exit", func(f *fixture) map[string]any {
		return map[string]any{"index": f.p(pIndex), "identity": "reference_release@2026-08-03", "disposition": "promote", "destination": f.p(pDest), "probe": "release"}
	}, func(f *fixture) []string {
		return []string{"gate", "--json", "--gate", "exit", "--identity", "reference_release@2026-08-03", "--disposition", "promote",
			"--destination", f.p(pDest), "--probe", "release", f.p(pIndex)}
	}},
	{"gate_admission", "gate_admission", func(f *fixture) map[string]any {
		return map[string]any{"index": f.p(pIndex), "identity": "feedback_testing@2026-10-21", "admission_rule_landed_on": "2026-06-01"}
	}, func(f *fixture) []string {
		return []string{"gate", "--json", "--gate", "admission", "--identity", "feedback_testing@2026-10-21", "--admission-rule-landed-on", "2026-06-01", f.p(pIndex)}
	}},
	{"gate_reconcile", "gate_reconcile", func(f *fixture) map[string]any { return map[string]any{"index": f.p(pIndex), "entry": f.p(pEntry)} },
		func(f *fixture) []string {
			return []string{"gate", "--json", "--gate", "reconcile", "--entry", f.p(pEntry), f.p(pIndex)}
		}},
	{"partition", "partition", func(f *fixture) map[string]any {
		return map[string]any{"index": f.p(pIndex), "inventory": f.p(pArtifact)}
	},
		func(f *fixture) []string {
			return []string{"partition", "--json", "--inventory", f.p(pArtifact), "--strict", f.p(pIndex)}
		}},
	{"partition-artifact", "partition", func(f *fixture) map[string]any {
		var art any
		b, _ := os.ReadFile(f.p(pArtifact))
		json.Unmarshal(b, &art)
		return map[string]any{"index": f.p(pIndex), "artifact": art, "lenient": true}
	}, func(f *fixture) []string {
		return []string{"partition", "--json", "--inventory", f.p(pArtifact), f.p(pIndex)}
	}},
	{"gate-missing-index", "gate_deferral", func(f *fixture) map[string]any {
		return map[string]any{"index": filepath.Join(f.dir, "nosuch.md"), "identity": "x@unknown"}
	}, func(f *fixture) []string {
		return []string{"gate", "--json", "--gate", "deferral", "--identity", "x@unknown", filepath.Join(f.dir, "nosuch.md")}
	}},
	{"compact_plan", "compact_plan", func(f *fixture) map[string]any { return map[string]any{"file": f.p(pMemFile), "root": f.root} },
		func(f *fixture) []string {
			return []string{"compact", "--plan", "--json", "--root", f.root, f.p(pMemFile)}
		}},
	{"compact_apply", "compact_apply", func(f *fixture) map[string]any {
		return map[string]any{"file": f.p(pMemFile), "root": f.root, "summary": "- kept\n"}
	}, func(f *fixture) []string {
		return []string{"compact", "--json", "--summary", f.p(pSummary), "--dry-run", "--root", f.root, f.p(pMemFile)}
	}},
	{"history", "history", func(f *fixture) map[string]any { return map[string]any{"store": f.storeDir, "since": "7d"} },
		func(f *fixture) []string { return []string{"history", "--json", "--since", "7d", f.storeDir} }},
	{"journal-prune", "journal", func(f *fixture) map[string]any {
		return map[string]any{"store": f.storeDir, "action": "prune", "dry_run": true}
	}, func(f *fixture) []string { return []string{"journal", "prune", "--dry-run", "--json", f.storeDir} }},
	{"journal-status", "journal", func(f *fixture) map[string]any { return map[string]any{"store": f.storeDir, "action": "status"} },
		func(f *fixture) []string { return []string{"history", "--json", f.storeDir} }},
	{"undo-missing", "undo", func(f *fixture) map[string]any {
		return map[string]any{"store": filepath.Join(f.dir, "nosuch"), "entry": "x.md"}
	}, func(f *fixture) []string {
		return []string{"undo", "--json", "--entry", "x.md", "--store", filepath.Join(f.dir, "nosuch")}
	}},
	{"sweep_plan", "sweep_plan", func(f *fixture) map[string]any { return map[string]any{"index": f.p(pIndex)} },
		func(f *fixture) []string { return []string{"sweep", "plan", "--json", f.p(pIndex)} }},
	{"sweep_apply", "sweep_apply", func(f *fixture) map[string]any { return map[string]any{"index": f.p(pIndex)} },
		func(f *fixture) []string {
			return []string{"sweep", "apply", "--json", "--yes", "--dry-run", "--index", f.p(pIndex)}
		}},
}

// TestMCPMatchesCLI calls every tool and runs the matching command line on
// the same fixture: the tool's structuredContent must be the document the
// CLI prints with --json, valid against the tool's published output
// schema, and its exit code the CLI's.
func TestMCPMatchesCLI(t *testing.T) {
	f := newFixture(t)
	must(t, os.WriteFile(f.p(pSummary), []byte("- kept\n"), 0o644))
	env, _, _ := f.env(nil)
	cs := connect(t, env)
	schemas := outputSchemas(t, cs)
	covered := map[string]bool{}
	for _, c := range mcpCases {
		covered[c.tool] = true
		t.Run(c.name, func(t *testing.T) {
			cliEnv, out, errb := f.env(nil)
			code := Run(cliEnv, c.argv(f))
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.in(f)})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Meta["exit_code"]; got != float64(code) {
				t.Errorf("exit code: tool %v, CLI %d (stderr %s)", got, code, errb.String())
			}
			var want any
			if err := json.Unmarshal(out.Bytes(), &want); err != nil {
				t.Fatalf("CLI printed no JSON (exit %d): %v\n%s", code, err, out.String())
			}
			env, _ := res.StructuredContent.(map[string]any)
			got := env["result"]
			if env["exit_code"] != float64(code) {
				t.Errorf("structuredContent's exit_code %v, CLI %d", env["exit_code"], code)
			}
			if c.tool == "compact_apply" {
				// The tool passes the summary as a value, named "agent";
				// the CLI names the file it read it from.
				got, want = withoutSummaryPath(got), withoutSummaryPath(want)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("structuredContent's result differs from the CLI's --json\ntool: %v\nCLI:  %v", env["result"], want)
			}
			if tc, ok := res.Content[0].(*mcp.TextContent); c.tool != "compact_apply" && (!ok || tc.Text != out.String()) {
				t.Errorf("text content is not the CLI's stdout:\n%v\nCLI:\n%s", res.Content[0], out.String())
			}
			if err := schemas[c.tool].Validate(res.StructuredContent); err != nil {
				t.Errorf("structuredContent does not match the published output schema: %v", err)
			}
		})
	}
	for name := range schemas {
		if !covered[name] {
			t.Errorf("tool %s has no case comparing it with the CLI", name)
		}
	}
}

// withoutSummaryPath blanks the file name in "summarizer": "summary:FILE".
func withoutSummaryPath(v any) any {
	b, _ := json.Marshal(v)
	var out any
	json.Unmarshal(regexp.MustCompile(`"summary:[^"]*"`).ReplaceAll(b, []byte(`"summary:FILE"`)), &out)
	return out
}

// connect serves env's tools over the SDK's in-memory transport.
func connect(t *testing.T, env *Env) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	server := mcpserver.New(&mcpserver.Host{Getenv: env.Getenv, Home: env.Home(), Today: env.Today, Now: env.Now}, "test")
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// outputSchemas resolves every tool's published output schema.
func outputSchemas(t *testing.T, cs *mcp.ClientSession) map[string]*jsonschema.Resolved {
	t.Helper()
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*jsonschema.Resolved{}
	for _, tool := range list.Tools {
		b, err := json.Marshal(tool.OutputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var s jsonschema.Schema
		if err := json.Unmarshal(b, &s); err != nil || tool.OutputSchema == nil {
			t.Fatalf("%s: no output schema (%v)", tool.Name, err)
		}
		r, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		out[tool.Name] = r
	}
	return out
}

// TestMCPAnswersBeforeEOF pipes requests into the server and closes its
// input right after them: every request must be answered.
func TestMCPAnswersBeforeEOF(t *testing.T) {
	f := newFixture(t)
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	call := `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"load","arguments":{"index":%q}}}`
	for i := range 20 {
		in := init + "\n"
		if i%2 == 1 {
			in += `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" + fmt.Sprintf(call, 2, f.p(pIndex)) + "\n" + fmt.Sprintf(call, 3, "") + "\n"
		}
		env, out, errb := f.env([]byte(in))
		done := make(chan int)
		go func() { done <- Run(env, []string{"mcp"}) }()
		select {
		case code := <-done:
			if code != 0 {
				t.Fatalf("run %d: exit %d: %s", i, code, errb.String())
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("run %d: the server did not stop at the end of its input", i)
		}
		want := []int{1}
		if i%2 == 1 {
			want = []int{1, 2, 3}
		}
		got := map[float64]bool{}
		for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			var m map[string]any
			if json.Unmarshal([]byte(line), &m) == nil && m["id"] != nil {
				got[m["id"].(float64)] = true
			}
		}
		for _, id := range want {
			if !got[float64(id)] {
				t.Errorf("run %d: request %d was not answered; output:\n%s", i, id, out.String())
			}
		}
	}
}

// TestMCPNullArgument: a null argument is the argument not given, never
// an error naming Go's reflection.
func TestMCPNullArgument(t *testing.T) {
	f := newFixture(t)
	env, _, _ := f.env(nil)
	cs := connect(t, env)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "load", Arguments: map[string]any{"index": f.p(pIndex), "lines": nil, "units": nil}})
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	if res.IsError || strings.Contains(text.String(), "reflect") {
		t.Errorf("null arguments: IsError %v, %s", res.IsError, text.String())
	}
}
