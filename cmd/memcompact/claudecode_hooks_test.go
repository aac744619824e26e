package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/shellword"
	"github.com/memcompact/memcompact/internal/testshared"
)

// TestClaudeCodeHooks runs memcompact's hooks inside the real Claude Code,
// installed by "memcompact hooks install" as a user would, from a folder
// whose path holds a space (the command written must be quoted for the
// shell). The fake Messages API plays an agent that reads the store's
// MEMORY.md, then edits it to strip a pointer's recall hook. Claude Code
// must carry the session-start note to the model, deny the Edit with
// memcompact's reason, and leave the index as it was.
//
// It runs only when MEMCOMPACT_CLAUDE_CODE names a claude executable (see
// TestClaudeCode), and builds memcompact with the go command.
func TestClaudeCodeHooks(t *testing.T) {
	claude := realClaude(t, "the hooks inside the real Claude Code client are not tried")
	bin := testshared.Install(t, filepath.Join(t.TempDir(), "my tools"))
	for _, c := range []struct{ name string }{{"memcompact"}} {
		t.Run(c.name, func(t *testing.T) {
			sc := newScratch(t)
			index := filepath.Join(sc.defaultStore(t), "MEMORY.md")
			writeHookStore(t, filepath.Dir(index))
			before, _ := os.ReadFile(index)
			// Installed by a plain "hooks install": the command written is
			// the absolute path of the executable that ran it.
			install := exec.Command(bin, "hooks", "install", "--settings", filepath.Join(sc.config, "settings.json"))
			install.Dir = sc.cwd
			out, err := install.CombinedOutput()
			if err != nil {
				t.Fatalf("hooks install: %v\n%s", err, out)
			}
			settings, _ := os.ReadFile(filepath.Join(sc.config, "settings.json"))
			if !bytes.Contains(settings, []byte(shellword.Quote(bin)+" hook pre-write")) {
				t.Fatalf("the hooks do not run %s:\n%s", shellword.Quote(bin), settings)
			}
			note := sessionNote(t, bin, sc)
			api := newFakeAPI()
			api.respond = readThenStripHook(index)
			srv := httptest.NewServer(api)
			defer srv.Close()
			env := append(sc.environ(), "ANTHROPIC_BASE_URL="+srv.URL)
			ctx, cancel := context.WithTimeout(context.Background(), claudeTimeout)
			defer cancel()
			cmd := exec.CommandContext(ctx, claude, "-p", "Tidy the memory index.", "--allowedTools", "Read,Edit", "--permission-mode", "acceptEdits")
			cmd.Dir, cmd.Env = sc.cwd, env
			out, err = cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("claude -p: %v\n%s\nrequests seen: %s", err, out, api.paths())
			}
			if os.Getenv("MEMCOMPACT_CLAUDE_CODE_DEBUG") != "" {
				t.Logf("claude -p said:\n%s\nsettings:\n%s", out, settings)
			}
			bodies := bytes.Join(api.raws, []byte("\n"))
			if !bytes.Contains(bodies, jsonFragment(note)) {
				t.Errorf("no request carried the session-start note %q", note)
			}
			result := toolResults(api.raws)
			if !strings.Contains(result, "bare title") {
				t.Errorf("the Edit's tool result does not carry memcompact's denial; the last tool result: %.300q", result[strings.LastIndex(result, "\n")+1:])
			}
			if after, _ := os.ReadFile(index); !bytes.Equal(after, before) {
				t.Errorf("the denied Edit changed MEMORY.md; its head:\n%.300s", after)
			}
		})
	}
}

// hookPointer is the line the scripted agent strips of its hook, leaving
// "- [Race](feedback_race.md)": a bare title, every word in the file name.
const hookPointer = "- [Race conditions](feedback_race.md) — locks before shared writes"

// writeHookStore writes a store whose index is past Claude Code's
// 200-line cut, so session-start has a note to give.
func writeHookStore(t *testing.T, dir string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("# Memory\n\n" + hookPointer + "\n")
	writeFile(t, filepath.Join(dir, "feedback_race.md"), "# Race conditions\n\nTake the lock before a shared write.\n")
	for i := 1; i <= 230; i++ {
		name := fmt.Sprintf("note_%03d.md", i)
		fmt.Fprintf(&b, "- [Note %d](%s) — what note %d teaches\n", i, name, i)
		writeFile(t, filepath.Join(dir, name), fmt.Sprintf("# Note %d\n\nBody %d.\n", i, i))
	}
	writeFile(t, filepath.Join(dir, "MEMORY.md"), b.String())
}

// sessionNote is the first line of the note memcompact's session-start
// hook gives for the scratch project, run directly.
func sessionNote(t *testing.T, bin string, sc *scratch) string {
	t.Helper()
	in, _ := json.Marshal(map[string]string{"session_id": "direct", "hook_event_name": "SessionStart", "source": "startup", "cwd": sc.cwd})
	cmd := exec.Command(bin, "hook", "session-start")
	cmd.Dir, cmd.Env, cmd.Stdin = sc.cwd, sc.environ(), bytes.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("hook session-start: %v", err)
	}
	var v struct {
		HookSpecificOutput struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out, &v); err != nil || v.HookSpecificOutput.AdditionalContext == "" {
		t.Fatalf("session-start gave no note (%v): %s", err, out)
	}
	return strings.SplitN(v.HookSpecificOutput.AdditionalContext, "\n", 2)[0]
}

// readThenStripHook answers the agent's turns of a request that offers
// the Edit tool: first a Read of index, then an Edit that strips
// hookPointer's hook, then "ok". Other requests (Claude Code's own side
// calls) get the default answer.
func readThenStripHook(index string) func([]byte) ([]any, string) {
	return func(body []byte) ([]any, string) {
		if !bytes.Contains(body, []byte(`"name":"Edit"`)) {
			return nil, ""
		}
		switch bytes.Count(body, []byte(`"type":"tool_result"`)) {
		case 0:
			return []any{map[string]any{"type": "tool_use", "id": "toolu_read", "name": "Read", "input": map[string]any{"file_path": index}}}, "tool_use"
		case 1:
			return []any{map[string]any{"type": "tool_use", "id": "toolu_edit", "name": "Edit", "input": map[string]any{
				"file_path": index, "old_string": hookPointer, "new_string": "- [Race](feedback_race.md)"}}}, "tool_use"
		}
		return nil, ""
	}
}

// toolResults is the text of every tool result the requests carried.
func toolResults(raws [][]byte) string {
	var out []string
	for _, raw := range raws {
		var req struct {
			Messages []struct {
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		if json.Unmarshal(raw, &req) != nil {
			continue
		}
		for _, m := range req.Messages {
			var blocks []struct {
				Type    string          `json:"type"`
				Content json.RawMessage `json:"content"`
			}
			if json.Unmarshal(m.Content, &blocks) != nil {
				continue
			}
			for _, b := range blocks {
				if b.Type == "tool_result" {
					out = append(out, string(b.Content))
				}
			}
		}
	}
	return strings.Join(out, "\n")
}

// jsonFragment is s as it appears inside a JSON string.
func jsonFragment(s string) []byte {
	b, _ := json.Marshal(s)
	return b[1 : len(b)-1]
}
