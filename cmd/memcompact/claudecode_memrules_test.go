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

	"github.com/memcompact/memcompact/internal/testshared"
)

// TestClaudeCodeMemoryRules checks memcompact's model of the client's own
// memory rules against the real Claude Code (a loopback fake API):
//   - memory switched off, by the environment or by autoMemoryEnabled in
//     the project's local settings: the client loads no memory, memcompact
//     load says "off" with no text, and the session-start hook installed
//     by "hooks install" injects no note;
//   - CLAUDE_MEMORY_STORES: no MEMORY.md loads, the stores' folders are
//     named in the prompt where memcompact load places them, no note, and
//     a write into a read-only store is denied;
//   - a CRLF index: units_loaded is the length of the text the client
//     loaded (it turns CRLF into LF after the cut);
//   - the capacity reminder: after a MEMORY.md write at 80% of the limit
//     the client asks the model to "merge or drop stale entries"; the
//     mass rewrite that follows is denied by the guard with the path that
//     works (the sweep's plan through MCP) and the index stays as the
//     first write left it.
//
// It runs only when MEMCOMPACT_CLAUDE_CODE names a claude executable (see
// TestClaudeCode), and builds memcompact with the go command.
func TestClaudeCodeMemoryRules(t *testing.T) {
	claude := realClaude(t, "the client's memory rules are not tried against the real Claude Code")
	bin := testshared.Install(t, t.TempDir())

	// The control: with memory on, the same store and hooks give the model
	// the index and the note, so the two checks below can fail.
	t.Run("on-control", func(t *testing.T) {
		sc := newScratch(t)
		writeHookStore(t, sc.defaultStore(t))
		installHooks(t, bin, sc)
		api := newFakeAPI()
		srv := httptest.NewServer(api)
		defer srv.Close()
		s := runClaude(t, claude, sc.cwd, append(sc.environ(), "ANTHROPIC_BASE_URL="+srv.URL), nil, api, "/")
		if s.indexPath == "" || !bytes.Contains(bytes.Join(api.raws, nil), []byte("memcompact: this project")) {
			t.Errorf("memory on: index loaded %q, note carried %v", s.indexPath, bytes.Contains(bytes.Join(api.raws, nil), []byte("memcompact: this project")))
		}
	})

	off := func(t *testing.T, setup func(sc *scratch)) {
		sc := newScratch(t)
		writeHookStore(t, sc.defaultStore(t)) // a store with a note to give when memory is on
		setup(sc)
		installHooks(t, bin, sc)
		api := newFakeAPI()
		srv := httptest.NewServer(api)
		defer srv.Close()
		env := append(sc.environ(), "ANTHROPIC_BASE_URL="+srv.URL)
		s := runClaude(t, claude, sc.cwd, env, nil, api, "/")
		if s.indexPath != "" {
			t.Errorf("memory is off, yet Claude Code loaded %s", s.indexPath)
		}
		if bytes.Contains(bytes.Join(api.raws, nil), []byte("memcompact: this project")) {
			t.Errorf("memory is off, yet a session-start note reached the model")
		}
		l := runLoad(t, bin, sc.cwd, env, nil)
		var doc struct {
			Result    string `json:"result"`
			MemoryOff string `json:"memory_off"`
		}
		json.Unmarshal([]byte(l.raw), &doc)
		if doc.Result != "off" || doc.MemoryOff == "" || l.LoadedText == nil || *l.LoadedText != "" {
			t.Errorf("memcompact load does not say memory is off: result %q, memory_off %q\n%.400s", doc.Result, doc.MemoryOff, l.raw)
		}
	}
	t.Run("off-env", func(t *testing.T) {
		off(t, func(sc *scratch) { sc.env["CLAUDE_CODE_DISABLE_AUTO_MEMORY"] = "1" })
	})
	// A restricted session (CLAUDE_CODE_RESTRICTED, as --restricted)
	// reads no settings and loads no memory, even with
	// CLAUDE_CODE_DISABLE_AUTO_MEMORY=0, which the client checks after it.
	t.Run("off-restricted", func(t *testing.T) {
		off(t, func(sc *scratch) {
			sc.env["CLAUDE_CODE_RESTRICTED"] = "1"
			sc.env["CLAUDE_CODE_DISABLE_AUTO_MEMORY"] = "0"
		})
	})
	t.Run("off-safe-mode", func(t *testing.T) {
		off(t, func(sc *scratch) {
			sc.env["CLAUDE_CODE_SAFE_MODE"] = "1"
			sc.env["CLAUDE_CODE_DISABLE_AUTO_MEMORY"] = "0"
		})
	})
	t.Run("off-local-settings", func(t *testing.T) {
		off(t, func(sc *scratch) {
			writeFile(t, filepath.Join(sc.cwd, ".claude", "settings.local.json"), `{"autoMemoryEnabled": false}`)
		})
	})

	// CLAUDE_MEMORY_STORES set: the client mounts the stores it names and
	// loads no MEMORY.md from disk, neither the project's nor a store's;
	// its memory prompt names each read-write team store's folder for
	// writing and each read-only one as read-only, exactly where
	// memcompact load places them; no session-start note is given; and
	// the guard denies a write into the read-only store. With a value the
	// client rejects, it still loads no MEMORY.md.
	t.Run("memory-stores", func(t *testing.T) {
		sc := newScratch(t)
		mem := sc.defaultStore(t)
		writeHookStore(t, mem) // a store with a note to give when its index loads
		for _, m := range []string{"team-a", "team-b", "team-c"} {
			writeFile(t, filepath.Join(mem, "team", m, "MEMORY.md"), "# Team\n- [t](t.md) — zqxmark "+m+"\n")
		}
		sc.env["CLAUDE_MEMORY_STORES"] = `[{"path":"/stores/team-a"},{"path":"/stores/team-b","mode":"ro"},{"path":"/stores/team-c","promptIndex":"notes/MEMORY.md"}]`
		installHooks(t, bin, sc)
		roFile := filepath.Join(mem, "team", "team-b", "feedback_new.md")
		api := newFakeAPI()
		api.respond = func(body []byte) ([]any, string) {
			if !bytes.Contains(body, []byte(`"name":"Write"`)) || bytes.Contains(body, []byte(`"type":"tool_result"`)) {
				return nil, ""
			}
			return []any{map[string]any{"type": "tool_use", "id": "toolu_ro", "name": "Write", "input": map[string]any{"file_path": roFile, "content": "---\nname: new\n---\nNew.\n"}}}, "tool_use"
		}
		srv := httptest.NewServer(api)
		defer srv.Close()
		env := append(sc.environ(), "ANTHROPIC_BASE_URL="+srv.URL)
		s := runClaude(t, claude, sc.cwd, env, []string{"--allowedTools", "Write", "--permission-mode", "acceptEdits"}, api, "/")
		bodies := bytes.Join(api.raws, nil)
		if s.text != "" || bytes.Contains(bodies, []byte("zqxmark")) {
			t.Errorf("with CLAUDE_MEMORY_STORES set, Claude Code loaded a MEMORY.md (%q)", s.indexPath)
		}
		if bytes.Contains(bodies, []byte("memcompact: this project")) {
			t.Errorf("a session-start note on an index the session does not load reached the model")
		}
		system := api.first("/").system()
		l := runLoad(t, bin, sc.cwd, env, nil)
		var doc struct {
			Result string `json:"result"`
			Store  struct {
				IndexSkipped string `json:"index_skipped"`
				MemoryStores []struct {
					Mount, Mode, Scope, Dir string
					WriteDir                string `json:"write_dir"`
				} `json:"memory_stores"`
			} `json:"store"`
		}
		json.Unmarshal([]byte(l.raw), &doc)
		if doc.Result != "stores" || doc.Store.IndexSkipped == "" || l.LoadedText == nil || *l.LoadedText != "" || len(doc.Store.MemoryStores) != 3 {
			t.Fatalf("memcompact load with CLAUDE_MEMORY_STORES: %.900s", l.raw)
		}
		for _, m := range doc.Store.MemoryStores {
			want := "`" + m.WriteDir + "`"
			if m.Mode == "ro" {
				want = "`" + m.Dir + "` (read-only"
			}
			if !strings.Contains(system, want) {
				t.Errorf("store %s: memcompact places it at %s (write dir %q); Claude Code's memory prompt lacks %s:\n%.1500s", m.Mount, m.Dir, m.WriteDir, want, system[max(0, strings.Index(system, "# Memory")):])
			}
		}
		if results := toolResults(api.raws); !strings.Contains(results, "read-only") || !strings.Contains(results, "team-b") {
			t.Errorf("the write into the read-only store was not denied naming it; tool results:\n%.1500s", results)
		}
		if _, err := os.Stat(roFile); err == nil {
			t.Errorf("the write into the read-only store went through")
		}

		// A read-write user-scoped store alone: the client mounts it at
		// the project's own memory folder and names that folder, as load
		// places it, with no index loaded.
		t.Run("user-store", func(t *testing.T) {
			sc := newScratch(t)
			writeFile(t, filepath.Join(sc.defaultStore(t), "MEMORY.md"), "# Memory\n- [a](a.md) — zqxmark own\n")
			sc.env["CLAUDE_MEMORY_STORES"] = `[{"path":"/stores/mine","scope":"user"}]`
			api := newFakeAPI()
			srv := httptest.NewServer(api)
			defer srv.Close()
			env := append(sc.environ(), "ANTHROPIC_BASE_URL="+srv.URL)
			s := runClaude(t, claude, sc.cwd, env, nil, api, "/")
			if s.text != "" || bytes.Contains(bytes.Join(api.raws, nil), []byte("zqxmark")) {
				t.Errorf("with a user store mounted, Claude Code loaded %s", s.indexPath)
			}
			l := runLoad(t, bin, sc.cwd, env, nil)
			var doc struct {
				Result string `json:"result"`
				Store  struct {
					MemoryStores []struct {
						WriteDir string `json:"write_dir"`
					} `json:"memory_stores"`
				} `json:"store"`
			}
			json.Unmarshal([]byte(l.raw), &doc)
			if doc.Result != "stores" || len(doc.Store.MemoryStores) != 1 || doc.Store.MemoryStores[0].WriteDir == "" || doc.Store.MemoryStores[0].WriteDir != s.memoryDir {
				t.Errorf("Claude Code names the memory folder %q; memcompact load: %.600s", s.memoryDir, l.raw)
			}
		})

		t.Run("rejected", func(t *testing.T) {
			sc := newScratch(t)
			writeFile(t, filepath.Join(sc.defaultStore(t), "MEMORY.md"), "# Memory\n- [a](a.md) — the project's own store\n")
			sc.env["CLAUDE_MEMORY_STORES"] = `[{"path":"relative"}]`
			api := newFakeAPI()
			srv := httptest.NewServer(api)
			defer srv.Close()
			env := append(sc.environ(), "ANTHROPIC_BASE_URL="+srv.URL)
			if s := runClaude(t, claude, sc.cwd, env, nil, api, "/"); s.text != "" {
				t.Errorf("with a rejected CLAUDE_MEMORY_STORES, Claude Code loaded %s", s.indexPath)
			}
			l := runLoad(t, bin, sc.cwd, env, nil)
			var doc struct {
				Result string `json:"result"`
				Store  struct {
					Error string `json:"memory_stores_error"`
				} `json:"store"`
			}
			json.Unmarshal([]byte(l.raw), &doc)
			if doc.Result != "stores" || doc.Store.Error == "" || l.LoadedText == nil || *l.LoadedText != "" {
				t.Errorf("memcompact load with a rejected CLAUDE_MEMORY_STORES: %.600s", l.raw)
			}
		})
	})

	t.Run("crlf", func(t *testing.T) {
		sc := newScratch(t)
		var b strings.Builder
		b.WriteString("# Memory\r\n")
		for i := 1; i <= 120; i++ {
			fmt.Fprintf(&b, "- [entry %d](feedback_%04d.md) — what entry %d teaches about the build\r\n", i, i, i)
		}
		writeFile(t, filepath.Join(sc.defaultStore(t), "MEMORY.md"), b.String())
		api := newFakeAPI()
		srv := httptest.NewServer(api)
		defer srv.Close()
		env := append(sc.environ(), "ANTHROPIC_BASE_URL="+srv.URL)
		s := runClaude(t, claude, sc.cwd, env, nil, api, "/")
		l := runLoad(t, bin, sc.cwd, env, nil)
		compare(t, s, l)
		var doc struct {
			UnitsLoaded int `json:"units_loaded"`
			CRLFFolded  int `json:"crlf_folded"`
		}
		json.Unmarshal([]byte(l.raw), &doc)
		if doc.UnitsLoaded != jsUnits(s.text) || doc.CRLFFolded != 120 {
			t.Errorf("units_loaded %d (crlf_folded %d); Claude Code loaded %d units", doc.UnitsLoaded, doc.CRLFFolded, jsUnits(s.text))
		}
	})

	t.Run("capacity-reminder", func(t *testing.T) {
		sc := newScratch(t)
		dir := sc.defaultStore(t)
		index := filepath.Join(dir, "MEMORY.md")
		var b strings.Builder
		b.WriteString("# Memory\n\n## Feedback\n")
		for i := 1; i <= 165; i++ {
			name := fmt.Sprintf("feedback_l%d.md", i)
			fmt.Fprintf(&b, "- [Lesson %d](%s) — what lesson %d teaches about retries, backoff, jitter and the deadline budget\n", i, name, i)
			writeFile(t, filepath.Join(dir, name), fmt.Sprintf("---\nname: l%d\ndescription: lesson %d\nnode_type: memory\nadmitted: 2026-10-01\n---\nLesson %d.\n", i, i, i))
		}
		writeFile(t, filepath.Join(dir, "LEDGER.md"), "<!-- memory-ledger-begin -->\n")
		writeFile(t, filepath.Join(dir, "feedback_new.md"), "---\nname: new\ndescription: the new lesson\nnode_type: memory\nadmitted: 2026-12-01\n---\nNew.\n")
		before := b.String()
		grown := before + "- [New lesson](feedback_new.md) — what the newest lesson teaches about flaky integration tests\n"
		var mass strings.Builder
		for i, line := range strings.SplitAfter(grown, "\n") {
			if i < 100 || strings.Contains(line, "feedback_new.md") {
				mass.WriteString(line)
			}
		}
		writeFile(t, index, before)
		installHooks(t, bin, sc)
		api := newFakeAPI()
		api.respond = func(body []byte) ([]any, string) {
			if !bytes.Contains(body, []byte(`"name":"Write"`)) {
				return nil, ""
			}
			use := func(id, name string, input map[string]any) ([]any, string) {
				return []any{map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}}, "tool_use"
			}
			switch bytes.Count(body, []byte(`"type":"tool_result"`)) {
			case 0:
				return use("toolu_read", "Read", map[string]any{"file_path": index})
			case 1:
				return use("toolu_grow", "Write", map[string]any{"file_path": index, "content": grown})
			case 2:
				return use("toolu_mass", "Write", map[string]any{"file_path": index, "content": mass.String()})
			}
			return nil, ""
		}
		srv := httptest.NewServer(api)
		defer srv.Close()
		env := append(sc.environ(), "ANTHROPIC_BASE_URL="+srv.URL)
		ctx, cancel := context.WithTimeout(context.Background(), claudeTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, claude, "-p", "Add the new lesson to memory.", "--allowedTools", "Read,Write", "--permission-mode", "acceptEdits")
		cmd.Dir, cmd.Env = sc.cwd, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("claude -p: %v\n%s\nrequests seen: %s", err, out, api.paths())
		}
		bodies := bytes.Join(api.raws, []byte("\n"))
		if !bytes.Contains(bodies, []byte("merge or drop stale entries")) {
			t.Errorf("Claude Code gave no capacity reminder after the write at 80%% of the limit")
		}
		results := toolResults(api.raws)
		for _, want := range []string{"sweep_plan", "sweep_apply with confirm: true", "first proposals"} {
			if !strings.Contains(results, want) {
				t.Errorf("the mass rewrite's denial does not name %q; tool results:\n%.2000s", want, results)
			}
		}
		if got, _ := os.ReadFile(index); string(got) != grown {
			t.Errorf("MEMORY.md is not as the allowed first write left it (the mass rewrite went through?); %d lines", strings.Count(string(got), "\n"))
		}
	})
}

// installHooks installs memcompact's hooks into the scratch user settings
// as a user would.
func installHooks(t *testing.T, bin string, sc *scratch) {
	t.Helper()
	out, err := exec.Command(bin, "hooks", "install", "--settings", filepath.Join(sc.config, "settings.json"), "--bin", bin).CombinedOutput()
	if err != nil {
		t.Fatalf("hooks install: %v\n%s", err, out)
	}
}
