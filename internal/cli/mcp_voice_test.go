package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// voiceCase is a refusal or usage error met on both faces: the tool's
// envelope must carry the CLI's exit code and, where the CLI says it on
// stderr, the same error and hint lines (stderr is set); check looks at
// what is particular to the case.
type voiceCase struct {
	name   string
	tool   string
	in     func(f *fixture) any // map[string]any, or json.RawMessage for arguments as a client spells them
	argv   func(f *fixture) []string
	code   int // the exit code both faces give
	stderr bool
	check  func(t *testing.T, f *fixture, env map[string]any)
}

var voiceCases = []voiceCase{
	{name: "budgets-no-policy", code: 2, tool: "budgets", stderr: true,
		in:   func(f *fixture) any { return map[string]any{"root": f.p(pEmptyRoot)} },
		argv: func(f *fixture) []string { return []string{"budgets", "--json", "--root", f.p(pEmptyRoot)} },
		check: func(t *testing.T, f *fixture, env map[string]any) {
			wantHint(t, env, "memcompact init")
			wantMessage(t, env, filepath.Join(f.p(pEmptyRoot), "compaction", "compaction-policy.md")+": no compaction policy")
		}},
	{name: "budgets-malformed", code: 2, tool: "budgets", stderr: true,
		in:   func(f *fixture) any { return map[string]any{"root": f.p(pBadRoot)} },
		argv: func(f *fixture) []string { return []string{"budgets", "--json", "--root", f.p(pBadRoot)} },
		check: func(t *testing.T, f *fixture, env map[string]any) {
			wantHint(t, env, "fix those lines of compaction/compaction-policy.md")
		}},
	{name: "compact_plan-no-policy", code: 2, tool: "compact_plan",
		in: func(f *fixture) any {
			return map[string]any{"root": f.p(pEmptyRoot), "file": filepath.Join(f.p(pEmptyRoot), "a.md")}
		},
		argv: func(f *fixture) []string {
			return []string{"compact", "--plan", "--json", "--root", f.p(pEmptyRoot), "a.md"}
		},
		check: func(t *testing.T, f *fixture, env map[string]any) {
			wantHint(t, env, "create its policy: memcompact init ")
			wantMessage(t, env, "compaction-policy.md: no compaction policy")
		}},
	{name: "compact_apply-malformed", code: 2, tool: "compact_apply",
		in: func(f *fixture) any {
			return map[string]any{"root": f.p(pBadRoot), "file": filepath.Join(f.p(pBadRoot), "a.md"), "summary": "- kept"}
		},
		argv: func(f *fixture) []string {
			return []string{"compact", "--json", "--dry-run", "--summary", f.p(pSummary), "--root", f.p(pBadRoot), "a.md"}
		},
		check: func(t *testing.T, f *fixture, env map[string]any) {
			wantHint(t, env, "fix those lines of compaction/compaction-policy.md")
		}},
	{name: "sweep_plan-negative-target", code: 3, tool: "sweep_plan", stderr: true,
		in: func(f *fixture) any { return map[string]any{"index": f.p(pIndex), "target_units": -5, "record": true} },
		argv: func(f *fixture) []string {
			return []string{"sweep", "plan", "--json", "--record", "--target", "-5", f.p(pIndex)}
		},
		check: func(t *testing.T, f *fixture, env map[string]any) {
			if _, err := os.Stat(filepath.Join(f.storeDir, ".memcompact")); err == nil {
				t.Error("a refused plan was written")
			}
		}},
	{name: "sweep_plan-missing-index", code: 3, tool: "sweep_plan", stderr: true,
		in: func(f *fixture) any { return map[string]any{"index": filepath.Join(f.dir, "nope", "MEMORY.md")} },
		argv: func(f *fixture) []string {
			return []string{"sweep", "plan", "--json", filepath.Join(f.dir, "nope", "MEMORY.md")}
		},
		check: func(t *testing.T, f *fixture, env map[string]any) {
			if _, err := os.Stat(filepath.Join(f.dir, "nope")); err == nil {
				t.Error("a refusal created the store's folder")
			}
		}},
	{name: "sweep_apply-missing-index", code: 3, tool: "sweep_apply", stderr: true,
		in: func(f *fixture) any { return map[string]any{"index": filepath.Join(f.dir, "nope", "MEMORY.md")} },
		argv: func(f *fixture) []string {
			return []string{"sweep", "apply", "--json", "--yes", "--dry-run", "--index", filepath.Join(f.dir, "nope", "MEMORY.md")}
		}},
	{name: "measure-path-and-validate", code: 3, tool: "measure",
		in: func(f *fixture) any { return map[string]any{"path": f.p(pDest), "validate": voiceRecord} },
		argv: func(f *fixture) []string {
			return []string{"measure", "--json", "--path", f.p(pDest), "--validate", voiceRecord}
		}},
	{name: "partition-not-an-artifact", code: 3, tool: "partition",
		in: func(f *fixture) any { return map[string]any{"index": f.p(pIndex), "artifact": map[string]any{"x": 1}} },
		argv: func(f *fixture) []string {
			return []string{"partition", "--json", "--inventory", f.p(pNotArtifact), f.p(pIndex)}
		},
		check: func(t *testing.T, f *fixture, env map[string]any) {
			wantHint(t, env, "the inventory tool's result as artifact")
			for _, m := range textsOf(env["messages"]) {
				if !strings.HasPrefix(m, "memcompact: ") {
					t.Errorf("a message not in memcompact's voice: %q", m)
				}
			}
		}},
	{name: "journal-not-a-store", code: 3, tool: "journal", stderr: true,
		in:   func(f *fixture) any { return map[string]any{"store": f.p(pEmptyRoot)} },
		argv: func(f *fixture) []string { return []string{"journal", "--json", f.p(pEmptyRoot)} }},
	{name: "history-not-a-store", code: 3, tool: "history", stderr: true,
		in:   func(f *fixture) any { return map[string]any{"store": f.p(pEmptyRoot)} },
		argv: func(f *fixture) []string { return []string{"history", "--json", f.p(pEmptyRoot)} }},
	{name: "undo-no-such-snapshot", code: 2, tool: "undo",
		in:   func(f *fixture) any { return map[string]any{"store": f.storeDir, "to": "bogus"} },
		argv: func(f *fixture) []string { return []string{"undo", "--json", "--to", "bogus", f.storeDir} },
		check: func(t *testing.T, f *fixture, env map[string]any) {
			result, _ := env["result"].(map[string]any)
			if got, want := textsOf(result["hints"]), textsOf(env["hints"]); !slices.Equal(got, want) || len(want) == 0 {
				t.Errorf("the result's hints %q are not the envelope's %q", got, want)
			}
		}},
	// The two sweep steps, done: the way forward is a hint, in the tools' terms.
	{name: "sweep_plan-record", code: 0, tool: "sweep_plan",
		in: func(f *fixture) any { return map[string]any{"index": f.p(pIndex), "record": true} },
		argv: func(f *fixture) []string {
			return []string{"sweep", "plan", "--json", "--out", filepath.Join(f.dir, "cli-plan.json"), f.p(pIndex)}
		},
		check: func(t *testing.T, f *fixture, env map[string]any) {
			wantHint(t, env, "present the plan to the owner, then call sweep_apply with their decisions (the plan is written to ")
			wantHint(t, env, "proposals recorded in the ledger: ")
		}},
	{name: "sweep_apply-dry-run", code: 0, tool: "sweep_apply",
		in: func(f *fixture) any { return map[string]any{"index": f.p(pIndex)} },
		argv: func(f *fixture) []string {
			return []string{"sweep", "apply", "--json", "--yes", "--dry-run", "--index", f.p(pIndex)}
		},
		check: func(t *testing.T, f *fixture, env map[string]any) {
			wantHint(t, env, "dry run: nothing written; call again with confirm: true once the owner has said yes")
		}},
	{name: "load-lines-as-float", code: 1, tool: "load", stderr: true,
		in: func(f *fixture) any {
			b, _ := json.Marshal(f.p(pIndex))
			return json.RawMessage(`{"index":` + string(b) + `,"lines":5.0,"units":1e4}`)
		},
		argv: func(f *fixture) []string {
			return []string{"load", "--json", "--lines", "5", "--units", "10000", f.p(pIndex)}
		}},
}

// voiceRecord is a destination-measurement record that validates.
const voiceRecord = "2026-12-01 | 68 | characters | CLAUDE.md | Measure-MemorySurface.ps1"

// The paths the voice cases add to the fixture.
const (
	pEmptyRoot   = "voice/empty-root"
	pBadRoot     = "voice/bad-root"
	pNotArtifact = "voice/not-artifact.json"
)

// TestMCPSaysWhatCLISays holds the two faces to one voice on refusals and
// usage errors: the same exit code, and the hints and error lines the CLI
// prints, in the envelope the model is handed.
func TestMCPSaysWhatCLISays(t *testing.T) {
	f := newFixture(t)
	must(t, os.WriteFile(f.p(pSummary), []byte("- kept\n"), 0o644))
	for rel, text := range map[string]string{
		pEmptyRoot + "/a.md":                          "# a\n",
		pBadRoot + "/compaction/compaction-policy.md": "| File | Budget |\n|---|---|\n| a.md | lots |\n",
		pBadRoot + "/a.md":                            "# a\n",
		pNotArtifact:                                  `{"x":1}`,
	} {
		p := filepath.Join(f.dir, filepath.FromSlash(rel))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(text), 0o644))
	}
	for _, rel := range []string{pEmptyRoot, pBadRoot, pNotArtifact} {
		f.paths[rel] = filepath.Join(f.dir, filepath.FromSlash(rel))
	}
	env, _, _ := f.env(nil)
	cs := connect(t, env)
	for _, c := range voiceCases {
		t.Run(c.name, func(t *testing.T) {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.in(f)})
			if err != nil {
				t.Fatal(err)
			}
			cliEnv, _, errb := f.env(nil)
			code := Run(cliEnv, c.argv(f))
			envelope, _ := res.StructuredContent.(map[string]any)
			if code != c.code {
				t.Errorf("the CLI exits %d, want %d (stderr %s)", code, c.code, errb.String())
			}
			if envelope["exit_code"] != float64(code) {
				t.Errorf("exit code: tool %v, CLI %d\ntool: %v\nCLI stderr: %s", envelope["exit_code"], code, envelope["messages"], errb.String())
			}
			if c.stderr {
				got := strings.Join(textsOf(envelope["messages"]), "\n")
				if want := strings.TrimSuffix(errb.String(), "\n"); got != want {
					t.Errorf("messages are not the CLI's stderr\ntool: %q\nCLI:  %q", got, want)
				}
				var hints []string
				for _, l := range strings.Split(errb.String(), "\n") {
					if h, ok := strings.CutPrefix(l, "memcompact: hint: "); ok {
						hints = append(hints, h)
					}
				}
				if got := textsOf(envelope["hints"]); !slices.Equal(got, hints) && len(got)+len(hints) > 0 {
					t.Errorf("hints: tool %q, CLI %q", got, hints)
				}
			}
			if c.check != nil {
				c.check(t, f, envelope)
			}
		})
	}
}

// textsOf is a JSON array of strings as decoded from the envelope.
func textsOf(v any) []string {
	var out []string
	xs, _ := v.([]any)
	for _, x := range xs {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// wantHint fails unless one of the envelope's hints holds part.
func wantHint(t *testing.T, env map[string]any, part string) {
	t.Helper()
	for _, h := range textsOf(env["hints"]) {
		if strings.Contains(h, part) {
			return
		}
	}
	t.Errorf("no hint holds %q: %q", part, env["hints"])
}

// wantMessage fails unless one of the envelope's messages holds part.
func wantMessage(t *testing.T, env map[string]any, part string) {
	t.Helper()
	for _, m := range textsOf(env["messages"]) {
		if strings.Contains(m, part) {
			return
		}
	}
	t.Errorf("no message holds %q: %q", part, env["messages"])
}

// TestMCPBigAnswerFitsAClient: an answer whose document is too big to send
// twice carries it once, in the structured content, so that it stays under
// the 10 MiB the official TypeScript SDK reads in one message (a 30,000
// pointer inventory sent twice came to 16.8 MB and closed the connection).
func TestMCPBigAnswerFitsAClient(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 30,000-pointer store")
	}
	f := newFixture(t)
	dir := filepath.Join(f.dir, "big")
	must(t, os.MkdirAll(dir, 0o755))
	var b strings.Builder
	b.WriteString("# Memory\n\n")
	for i := range 30000 {
		fmt.Fprintf(&b, "- [Deploy note %d](project_deploy_note_%d.md) — the deploy of service %d goes out on Tuesdays after the stand-up\n", i, i, i)
	}
	must(t, os.WriteFile(filepath.Join(dir, "MEMORY.md"), []byte(b.String()), 0o644))
	env, _, _ := f.env(nil)
	cs := connect(t, env)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "inventory", Arguments: map[string]any{"index": filepath.Join(dir, "MEMORY.md"), "as_of": "2026-12-02"}})
	if err != nil {
		t.Fatal(err)
	}
	whole, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if len(whole) >= 10<<20 {
		t.Errorf("the answer is %d bytes, past the 10 MiB a client reads in one message", len(whole))
	}
	envelope, _ := res.StructuredContent.(map[string]any)
	result, _ := envelope["result"].(map[string]any)
	if subjects, _ := result["subjects"].([]any); len(subjects) != 30000 {
		t.Errorf("the structured result holds %d subjects, want 30000", len(subjects))
	}
	if tc, _ := res.Content[0].(*mcp.TextContent); tc == nil || !strings.Contains(tc.Text, "is in the structured content's result only") {
		t.Errorf("the text content does not say where the document is")
	}
}
