package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/memcompact/memcompact/internal/testshared"
)

// TestClaudeSummarizer runs `memcompact compact --summarizer claude` with
// the real Claude Code client on PATH, pointed at a fake Messages API on
// 127.0.0.1 that answers our prompt with bullets. It checks what really
// reaches the API: our instructions as the system prompt, no tools, the
// tier without the secret entry; and that the file is compacted with the
// answer. Like TestClaudeCode it runs only when MEMCOMPACT_CLAUDE_CODE
// names a claude executable (.ci/run sets it).
func TestClaudeSummarizer(t *testing.T) {
	claude := realClaude(t, "--summarizer claude against the real client is skipped")
	// The memcompact a user installs.
	memcompact := testshared.Install(t, t.TempDir())
	api := &bulletAPI{answer: "- 2026-05-02: Module path is github.com/acme/tool; Go 1.26 pinned in go.mod.\n" +
		"- 2026-05-03: Tests live beside code; CLI tests in testdata/script; `go test ./...` runs everything in 40 s.\n"}
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)

	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	writeFile(t, filepath.Join(root, "compaction", "compaction-policy.md"), "| File | Budget | Newest tier | Notes |\n|---|---|---|---|\n| topics/go.md | 45 lines | last 2 entries | n |\n")
	writeFile(t, filepath.Join(root, "topics", "go.md"), summarizerDiary)
	bin := filepath.Join(dir, "bin")
	mkdirAll(t, bin)
	if err := os.Symlink(claude, filepath.Join(bin, "claude")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(memcompact, "compact", "topics/go.md", "--summarizer", "claude", "--yes", "--timeout", "90s")
	cmd.Dir = root
	cmd.Env = []string{
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + filepath.Join(dir, "home"),
		"ANTHROPIC_API_KEY=test-key",
		"ANTHROPIC_BASE_URL=" + srv.URL,
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1",
		"MEMCOMPACT_TODAY=2026-12-02",
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("memcompact: %v\n%s\nrequests: %d", err, out, len(api.bodies()))
	}
	ours := 0
	for _, b := range api.bodies() {
		if strings.Contains(b, "glpat") || strings.Contains(b, "Registry access") {
			t.Errorf("a request holds the secret entry")
		}
		if !strings.Contains(b, "You compress the oldest entries") {
			continue
		}
		ours++
		var req struct {
			Tools []any `json:"tools"`
		}
		json.Unmarshal([]byte(b), &req)
		if len(req.Tools) > 0 {
			t.Errorf("the summarizing request offers %d tools; want none", len(req.Tools))
		}
		if !strings.Contains(b, "## 2026-05-02 10:00 — Module setup") {
			t.Errorf("the summarizing request lacks the tier")
		}
	}
	if ours != 1 {
		t.Errorf("%d requests carried our instructions, want 1 (no repair round)\n%s", ours, out)
	}
	got, _ := os.ReadFile(filepath.Join(root, "topics", "go.md"))
	if !strings.Contains(string(got), "- 2026-05-02: Module path is github.com/acme/tool; Go 1.26 pinned in go.mod.\n") || !strings.Contains(string(got), "DEPLOY_TOKEN=glpat-") {
		t.Errorf("the file was not compacted with the answer:\n%s\n%s", out, got)
	}
}

// bulletAPI is a Messages API answering every request with answer,
// streamed (SSE) or not as asked, and keeping every request body.
type bulletAPI struct {
	answer string
	mu     sync.Mutex
	got    []string
}

func (f *bulletAPI) bodies() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.got...)
}

func (f *bulletAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/v1/messages") {
		http.NotFound(w, r)
		return
	}
	f.mu.Lock()
	f.got = append(f.got, string(body))
	f.mu.Unlock()
	var req struct {
		Model  string `json:"model"`
		Stream bool   `json:"stream"`
	}
	json.Unmarshal(body, &req)
	msg := map[string]any{"id": "msg_fake", "type": "message", "role": "assistant", "model": req.Model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": map[string]int{"input_tokens": 1, "output_tokens": 1}}
	if !req.Stream {
		msg["content"] = []any{map[string]string{"type": "text", "text": f.answer}}
		msg["stop_reason"] = "end_turn"
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(msg)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	for _, e := range []struct {
		name string
		data any
	}{
		{"message_start", map[string]any{"type": "message_start", "message": msg}},
		{"content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]string{"type": "text", "text": ""}}},
		{"content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]string{"type": "text_delta", "text": f.answer}}},
		{"content_block_stop", map[string]any{"type": "content_block_stop", "index": 0}},
		{"message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": "end_turn", "stop_sequence": nil}, "usage": map[string]int{"output_tokens": 1}}},
		{"message_stop", map[string]any{"type": "message_stop"}},
	} {
		b, _ := json.Marshal(e.data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.name, b)
	}
}

const summarizerDiary = `# Go Topic Diary
*Reusable discoveries about Go.*

## Topic Metadata
- **Created**: 2026-05-01 10:00

---

## 2026-05-01 09:00 — Registry access
- DEPLOY_TOKEN=glpat-8fK2mQ9xR4vT7wY1zB3n

---

## 2026-05-02 10:00 — Module setup
- Module path is github.com/acme/tool.
- Pinned Go 1.26 in go.mod.
- We talked about naming for a long while.
- More talk about naming.

---

## 2026-05-03 11:00 — Test layout
- Tests live beside code; CLI tests in testdata/script.
- ` + "`go test ./...`" + ` runs everything in 40 s.

---

## 2026-05-04 12:00 — Lint
- staticcheck lives at ~/go/bin/staticcheck.

---

## 2026-05-05 13:00 — Vet
- go vet runs in CI.

---

## 2026-05-06 14:00 — Fuzz
- Fuzz tests beside parsers.

---

## 2026-05-07 15:00 — Bench
- Benchmarks in BENCHMARKS.md.
- One more line.
- And another.
- And a fourth.
- And a fifth.
- And a sixth.
`
