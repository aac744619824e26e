// Package summarizetest is what the tests of every model summarizer share:
// a tier to distill with its check, scripted answers (good, partial,
// garbage, a smuggled secret, failures) and the table of cases each model
// must pass through summarize.Distill, and a loopback HTTP server that
// replays recorded API answers. Package summarize runs the table against
// Claude Code headless, the executable's tests against the two SDKs. Only tests
// import it.
package summarizetest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/summarize"
)

// Tier is the oldest tier every case distills.
const Tier = `## 2026-05-02 10:00 — Module setup
- Prefers tabs in Go files, because gofmt does.
- Tests run with ` + "`go test ./...`" + ` in 40 s.
- Sam said thanks, good session.
`

// Input is the request every case sends.
var Input = summarize.Input{File: "topics/go.md", Tier: Tier, MustKeep: []string{"Prefers tabs in Go files, because gofmt does."}}

// Check is the compaction's verification in miniature: the must-keep line
// and the code fact must be in the bullets.
func Check(bullets []string) summarize.Verdict {
	all := strings.Join(bullets, "\n")
	var v summarize.Verdict
	if !strings.Contains(all, "Prefers tabs in Go files, because gofmt does.") {
		v.Missing = append(v.Missing, summarize.Missing{What: "Prefers tabs in Go files, because gofmt does.", Line: "- Prefers tabs in Go files, because gofmt does."})
	}
	if !strings.Contains(all, "`go test ./...`") {
		v.Missing = append(v.Missing, summarize.Missing{What: "`go test ./...`", Line: "- Tests run with `go test ./...` in 40 s."})
	}
	return v
}

// Scripted answers.
const (
	Good    = "- 2026-05-02: Prefers tabs in Go files, because gofmt does.\n- 2026-05-02: Tests run with `go test ./...` in 40 s.\n"
	Partial = "- 2026-05-02: Tests run with `go test ./...` in 40 s.\n"
	Garbage = "Sure! The user likes tabs and runs tests, and that is about it."
	Leaky   = Good + "- AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n"
)

// Step is one scripted answer: bullets (or any text), or a failure.
type Step struct {
	Text string
	Fail string // "401", "429", "hang", "shape"
}

// Maker makes a Model answering steps, and reports what it was sent.
type Maker func(t *testing.T, steps ...Step) (summarize.Model, func() []string)

// Case is one scripted exchange and what Distill must make of it.
type Case struct {
	Name     string
	Steps    []Step
	Strict   bool
	Calls    int    // requests the model got
	Err      string // "" for success
	Appended int
	Repaired bool
	Only     string // "" for every model, else the one it applies to
	Skip     string // a model the case does not apply to
}

// Cases is the table every model runs.
var Cases = []Case{
	{Name: "good bullets", Steps: []Step{{Text: Good}}, Calls: 1},
	{Name: "missing must-keep line, repaired", Steps: []Step{{Text: Partial}, {Text: Good}}, Calls: 2, Repaired: true},
	{Name: "still missing, appended", Steps: []Step{{Text: Partial}, {Text: Partial}}, Calls: 2, Repaired: true, Appended: 1},
	{Name: "still missing, strict", Steps: []Step{{Text: Partial}, {Text: Partial}}, Strict: true, Calls: 2, Err: "still misses lines"},
	{Name: "garbage", Steps: []Step{{Text: Garbage}}, Calls: 1, Err: "not a list of bullets"},
	{Name: "wrong shape", Steps: []Step{{Fail: "shape"}}, Calls: 1, Err: "answer"},
	{Name: "secret smuggled back", Steps: []Step{{Text: Leaky}}, Calls: 1, Err: "answered with a secret"},
	{Name: "401", Steps: []Step{{Fail: "401"}}, Calls: 1, Err: "API key"},
	{Name: "429 then success", Steps: []Step{{Fail: "429"}, {Text: Good}}, Calls: 2, Skip: "claude"},
	{Name: "429 from claude", Steps: []Step{{Fail: "429"}}, Calls: 1, Err: "429", Only: "claude"},
	{Name: "timeout", Steps: []Step{{Fail: "hang"}}, Err: "timed out"},
}

// RunCases runs every case of Cases that applies to the model named name,
// each in parallel with a model of its own from mk.
func RunCases(t *testing.T, name string, mk Maker) {
	for _, tc := range Cases {
		if tc.Skip == name || (tc.Only != "" && tc.Only != name) {
			continue
		}
		t.Run(name+"/"+tc.Name, func(t *testing.T) {
			t.Parallel() // each case has a fake of its own
			m, sent := mk(t, tc.Steps...)
			res, err := summarize.Distill(context.Background(), m, Input, Check, tc.Strict)
			checkResult(t, tc, res, err)
			got := sent()
			if tc.Calls > 0 && len(got) != tc.Calls {
				t.Errorf("the model got %d requests, want %d", len(got), tc.Calls)
			}
			if len(got) == 0 {
				t.Fatal("the model got nothing")
			}
			if !Contains(got[0], "Module setup", "Prefers tabs", "Never invent") {
				t.Errorf("the first request lacks the tier or the instructions: %.300s", got[0])
			}
			if tc.Repaired && !Contains(got[len(got)-1], "not complete yet", "Prefers tabs in Go files, because gofmt does.") {
				t.Errorf("the repair request does not name what is missing: %.600s", got[len(got)-1])
			}
		})
	}
}

// checkResult compares Distill's answer with what tc expects.
func checkResult(t *testing.T, tc Case, res *summarize.Result, err error) {
	t.Helper()
	if tc.Err != "" {
		if err == nil || !strings.Contains(err.Error(), tc.Err) {
			t.Fatalf("err = %v, want one saying %q", err, tc.Err)
		}
		if strings.Contains(err.Error(), "wJalrXUtnFEMI") {
			t.Errorf("the error quotes the secret: %v", err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if v := Check(res.Bullets); len(v.Missing) > 0 {
		t.Errorf("result still misses %v: %q", v.Missing, res.Bullets)
	}
	if res.Repaired != tc.Repaired || len(res.Appended) != tc.Appended {
		t.Errorf("repaired %v appended %q, want %v and %d", res.Repaired, res.Appended, tc.Repaired, tc.Appended)
	}
}

// TimeoutFor is the model timeout for steps: short where a step hangs (the
// timeout is what the test waits out, three times over for the Anthropic
// SDK, which retries a request that timed out), and generous otherwise, so
// a loaded machine starting the fake slowly is not taken for a hang. Under
// -short the hang is waited out for a third of the time: a hang is a hang
// however short the wait, and the request still reaches the fake well
// inside it.
func TimeoutFor(steps []Step) time.Duration {
	for _, s := range steps {
		if s.Fail == "hang" {
			if testing.Short() {
				return 300 * time.Millisecond
			}
			return time.Second
		}
	}
	return 20 * time.Second
}

// EnvOf is a getenv that reads m.
func EnvOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// Contains says whether s holds every one of subs.
func Contains(s string, subs ...string) bool {
	for _, x := range subs {
		if !strings.Contains(s, x) {
			return false
		}
	}
	return true
}

// Reply is one scripted answer of a Server.
type Reply struct {
	Status int
	Header map[string]string
	Body   string
	Hang   bool // wait until the client gives up
}

// Server is a loopback HTTP server that replays replies in order (the
// last one repeats) and records every request it gets.
type Server struct {
	*httptest.Server
	mu      sync.Mutex
	replies []Reply
	reqs    []Recorded
}

// Recorded is one request a Server got.
type Recorded struct {
	Path   string
	Header http.Header
	Body   string
}

// NewServer starts a Server, closed when t ends.
func NewServer(t *testing.T, replies ...Reply) *Server {
	t.Helper()
	f := &Server{replies: replies}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

func (f *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.reqs = append(f.reqs, Recorded{Path: r.URL.Path, Header: r.Header.Clone(), Body: string(body)})
	rp := f.replies[min(len(f.reqs), len(f.replies))-1]
	f.mu.Unlock()
	if rp.Hang {
		<-r.Context().Done()
		return
	}
	for k, v := range rp.Header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(rp.Status)
	io.WriteString(w, rp.Body)
}

// Requests is every request so far.
func (f *Server) Requests() []Recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Recorded(nil), f.reqs...)
}

// Bodies is every request's body so far.
func (f *Server) Bodies() []string {
	var out []string
	for _, r := range f.Requests() {
		out = append(out, r.Body)
	}
	return out
}

// MessagesReply is a Messages API answer of the recorded shape.
func MessagesReply(text string) Reply {
	b, _ := json.Marshal(map[string]any{
		"id": "msg_01XFDUDYJgAACzvnptvVoYEL", "type": "message", "role": "assistant",
		"model":         summarize.DefaultAnthropicModel,
		"content":       []map[string]any{{"type": "text", "text": text}},
		"stop_reason":   "end_turn",
		"stop_sequence": nil,
		"usage":         map[string]any{"input_tokens": 812, "output_tokens": 96},
	})
	return Reply{Status: 200, Body: string(b)}
}

// MessagesError is a Messages API error of the recorded shape.
func MessagesError(status int, typ, msg string) Reply {
	return Reply{Status: status, Header: map[string]string{"retry-after-ms": "5"},
		Body: fmt.Sprintf(`{"type":"error","error":{"type":%q,"message":%q},"request_id":"req_011"}`, typ, msg)}
}

// ChatReply is a chat-completions answer of the recorded shape.
func ChatReply(text string) Reply {
	b, _ := json.Marshal(map[string]any{
		"id": "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT", "object": "chat.completion", "created": 1741569952,
		"model": "llama3.2",
		"choices": []map[string]any{{"index": 0, "finish_reason": "stop", "logprobs": nil,
			"message": map[string]any{"role": "assistant", "content": text, "refusal": nil}}},
		"usage": map[string]any{"prompt_tokens": 812, "completion_tokens": 96, "total_tokens": 908},
	})
	return Reply{Status: 200, Body: string(b)}
}

// ChatError is a chat-completions error of the recorded shape.
func ChatError(status int, code, msg string) Reply {
	return Reply{Status: status, Header: map[string]string{"retry-after-ms": "5"},
		Body: fmt.Sprintf(`{"error":{"message":%q,"type":"invalid_request_error","param":null,"code":%q}}`, msg, code)}
}
