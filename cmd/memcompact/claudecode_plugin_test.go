package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/testshared"
)

// TestClaudeCodePlugin installs memcompact's Claude Code plugin from a
// local marketplace with the real client, as a user would ("claude plugin
// marketplace add", "claude plugin install memcompact@memcompact"), with
// release archives of this checkout served on 127.0.0.1 and no Go on
// PATH, so the launcher's first run fetches and checks them into the
// plugin's data folder. The fake Messages API plays an agent that reads
// MEMORY.md, edits it to strip a pointer's recall hook, and calls the MCP
// load tool. The session-start note must reach the model once, the Edit
// be denied once with memcompact's reason, the MCP tool be offered and
// answer, and the skill be listed; "claude plugin validate --strict" must
// pass on the repository.
//
// It runs only when MEMCOMPACT_CLAUDE_CODE names a claude executable (see
// TestClaudeCode), and builds the executables with the go command.
func TestClaudeCodePlugin(t *testing.T) {
	claude := realClaude(t, "the plugin inside the real Claude Code client is not tried")
	if runtime.GOOS == "windows" {
		t.Skip("the plugin's sh launcher is tried on POSIX systems")
	}
	repo, _ := filepath.Abs(filepath.Join("..", ".."))
	sc := newScratch(t)
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(claude, args...)
		cmd.Dir, cmd.Env = sc.cwd, append(sc.environ(), "PATH="+pathWithoutGo())
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("claude %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run("plugin", "validate", "--strict", repo)

	market := pluginCopy(t, repo)
	srv := httptest.NewServer(releaseOf(t, market))
	defer srv.Close()
	sc.env["MEMCOMPACT_RELEASE_URL"] = srv.URL
	run("plugin", "marketplace", "add", market)
	run("plugin", "install", "memcompact@memcompact")

	index := filepath.Join(sc.defaultStore(t), "MEMORY.md")
	writeHookStore(t, filepath.Dir(index))
	before, _ := os.ReadFile(index)
	// A plugin's MCP server is named plugin_PLUGIN_SERVER in Claude Code.
	const tool = "mcp__plugin_memcompact_memcompact__load"
	api := newFakeAPI()
	strip := readThenStripHook(index)
	entry := filepath.Join(filepath.Dir(index), "note_007.md")
	api.respond = func(body []byte) ([]any, string) {
		if !bytes.Contains(body, []byte(`"name":"Edit"`)) {
			return nil, ""
		}
		switch bytes.Count(body, []byte(`"type":"tool_result"`)) {
		case 2:
			return []any{map[string]any{"type": "tool_use", "id": "toolu_load", "name": tool, "input": map[string]any{"index": index}}}, "tool_use"
		case 3:
			// The post-read hook counts a read of an entry file.
			return []any{map[string]any{"type": "tool_use", "id": "toolu_entry", "name": "Read", "input": map[string]any{"file_path": entry}}}, "tool_use"
		}
		return strip(body)
	}
	fake := httptest.NewServer(api)
	defer fake.Close()
	ctx, cancel := context.WithTimeout(context.Background(), claudeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, claude, "-p", "Tidy the memory index.", "--allowedTools", "Read,Edit,"+tool, "--permission-mode", "acceptEdits")
	cmd.Dir = sc.cwd
	cmd.Env = append(sc.environ(), "PATH="+pathWithoutGo(), "ANTHROPIC_BASE_URL="+fake.URL, "ENABLE_TOOL_SEARCH=false")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("claude -p: %v\n%s\nrequests seen: %s", err, out, api.paths())
	}

	installed, _ := filepath.Glob(filepath.Join(sc.config, "plugins", "data", "*", "v*", "memcompact"))
	if len(installed) != 1 {
		t.Errorf("the launcher's first run did not install one executable into CLAUDE_PLUGIN_DATA (under %s): %v", filepath.Join(sc.config, "plugins", "data"), installed)
	}
	var last []byte
	for _, raw := range api.raws {
		if bytes.Contains(raw, []byte(`"name":"Edit"`)) {
			last = raw
		}
	}
	if last == nil {
		t.Fatalf("no request offered the Edit tool; claude said:\n%s", out)
	}
	if len(installed) == 0 {
		t.FailNow()
	}
	note := sessionNote(t, installed[0], sc)
	if n := bytes.Count(last, jsonFragment(note)); n != 1 {
		t.Errorf("the session-start note %q reached the model %d times, want once", note, n)
	}
	result := toolResults([][]byte{last})
	if n := strings.Count(result, "bare title"); n != 1 {
		t.Errorf("the Edit's denial appears %d times in the tool results, want once: %.600s", n, result)
	}
	if after, _ := os.ReadFile(index); !bytes.Equal(after, before) {
		t.Errorf("the denied Edit changed MEMORY.md")
	}
	if offered := offeredTools(last); !strings.Contains(offered, " "+tool+" ") {
		t.Errorf("Claude Code never offered %s; it offered%s", tool, offered)
	} else if !strings.Contains(result, `\"first_cut_line\":201`) {
		t.Errorf("the MCP load tool did not answer; tool results: %.600s", result)
	}
	// The post-read hook fired once for the entry read (the plugin's hook
	// alone: no settings hook doubles it) and not for MEMORY.md.
	recall, _ := os.ReadFile(filepath.Join(filepath.Dir(index), ".memcompact", "recall.log"))
	if lines := strings.Split(strings.TrimSpace(string(recall)), "\n"); len(lines) != 1 || !strings.HasSuffix(lines[0], "\tnote_007") {
		t.Errorf("the post-read hook's recall log after one entry read: %q, want one line for note_007", recall)
	}
	if !bytes.Contains(last, []byte("memcompact:memcompact")) {
		t.Errorf("the skill memcompact:memcompact is not listed to the model")
	}
}

// pluginCopy lays out the plugin's own files (manifests, hooks, skill,
// launcher) as a local marketplace, without the rest of the repository.
func pluginCopy(t *testing.T, repo string) string {
	t.Helper()
	dir := t.TempDir()
	for _, sub := range []string{".claude-plugin", "hooks", "skills", "bin"} {
		out, err := exec.Command("cp", "-R", filepath.Join(repo, sub), filepath.Join(dir, sub)).CombinedOutput()
		if err != nil {
			t.Fatalf("cp %s: %v\n%s", sub, err, out)
		}
	}
	return dir
}

// releaseOf builds this checkout's commands and serves them as the
// plugin version's release for this system, in GoReleaser's layout.
func releaseOf(t *testing.T, plugin string) http.Handler {
	t.Helper()
	manifest, _ := os.ReadFile(filepath.Join(plugin, ".claude-plugin", "plugin.json"))
	version := between(string(manifest), `"version": "`, `"`)
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", bin+string(filepath.Separator), "github.com/memcompact/memcompact/cmd/...")
	build.Env = testshared.StaticBuild(os.Environ())
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	entries, _ := os.ReadDir(bin)
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(bin, e.Name()))
		tw.WriteHeader(&tar.Header{Name: e.Name(), Mode: 0o755, Size: int64(len(b)), Typeflag: tar.TypeReg})
		tw.Write(b)
	}
	tw.Close()
	gz.Close()
	name := "memcompact_" + version + "_" + runtime.GOOS + "_" + runtime.GOARCH + ".tar.gz"
	sum := sha256.Sum256(buf.Bytes())
	files := map[string][]byte{
		name: buf.Bytes(),
		"memcompact_" + version + "_checksums.txt": []byte(hex.EncodeToString(sum[:]) + "  " + name + "\n"),
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if b, ok := files[filepath.Base(r.URL.Path)]; ok {
			w.Write(b)
			return
		}
		http.NotFound(w, r)
	})
}

func between(s, from, to string) string {
	_, after, _ := strings.Cut(s, from)
	v, _, _ := strings.Cut(after, to)
	return v
}

// pathWithoutGo is PATH without the folders holding a go command, so the
// plugin's launcher must fetch the release rather than build.
func pathWithoutGo() string {
	var keep []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(d, "go")); err != nil {
			keep = append(keep, d)
		}
	}
	return strings.Join(keep, string(os.PathListSeparator))
}

// offeredTools lists the names of the tools a request offers, each
// between spaces.
func offeredTools(raw []byte) string {
	var req struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	json.Unmarshal(raw, &req)
	out := " "
	for _, tl := range req.Tools {
		out += tl.Name + " "
	}
	return out
}
