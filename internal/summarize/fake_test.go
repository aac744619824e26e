package summarize

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// reply is one scripted answer of a fake server.
type reply struct {
	status int
	header map[string]string
	body   string
	hang   bool // wait until the client gives up
}

// fakeServer is a loopback HTTP server that replays replies in order
// (the last one repeats) and records every request it gets.
type fakeServer struct {
	*httptest.Server
	mu      sync.Mutex
	replies []reply
	reqs    []recorded
}

type recorded struct {
	Path   string
	Header http.Header
	Body   string
}

func newFake(t *testing.T, replies ...reply) *fakeServer {
	t.Helper()
	f := &fakeServer{replies: replies}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		f.reqs = append(f.reqs, recorded{Path: r.URL.Path, Header: r.Header.Clone(), Body: string(body)})
		rp := f.replies[min(len(f.reqs), len(f.replies))-1]
		f.mu.Unlock()
		if rp.hang {
			<-r.Context().Done()
			return
		}
		for k, v := range rp.header {
			w.Header().Set(k, v)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rp.status)
		io.WriteString(w, rp.body)
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeServer) requests() []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recorded(nil), f.reqs...)
}

// messagesReply is a Messages API answer of the recorded shape.
func messagesReply(text string) reply {
	b, _ := json.Marshal(map[string]any{
		"id": "msg_01XFDUDYJgAACzvnptvVoYEL", "type": "message", "role": "assistant",
		"model":         DefaultAnthropicModel,
		"content":       []map[string]any{{"type": "text", "text": text}},
		"stop_reason":   "end_turn",
		"stop_sequence": nil,
		"usage":         map[string]any{"input_tokens": 812, "output_tokens": 96},
	})
	return reply{status: 200, body: string(b)}
}

func messagesError(status int, typ, msg string) reply {
	return reply{status: status, header: map[string]string{"retry-after-ms": "5"},
		body: fmt.Sprintf(`{"type":"error","error":{"type":%q,"message":%q},"request_id":"req_011"}`, typ, msg)}
}

// chatReply is a chat-completions answer of the recorded shape.
func chatReply(text string) reply {
	b, _ := json.Marshal(map[string]any{
		"id": "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT", "object": "chat.completion", "created": 1741569952,
		"model": "llama3.2",
		"choices": []map[string]any{{"index": 0, "finish_reason": "stop", "logprobs": nil,
			"message": map[string]any{"role": "assistant", "content": text, "refusal": nil}}},
		"usage": map[string]any{"prompt_tokens": 812, "completion_tokens": 96, "total_tokens": 908},
	})
	return reply{status: 200, body: string(b)}
}

func chatError(status int, code, msg string) reply {
	return reply{status: status, header: map[string]string{"retry-after-ms": "5"},
		body: fmt.Sprintf(`{"error":{"message":%q,"type":"invalid_request_error","param":null,"code":%q}}`, msg, code)}
}

// fakeClaude writes a claude script into a fresh directory: it appends its
// arguments and standard input to a log, then prints the next of answers
// (files answer1, answer2, …; the last repeats) and exits with its code.
// It returns the directory (for PATH) and the log's path.
func fakeClaude(t *testing.T, answers ...string) (dir, log string) {
	t.Helper()
	dir = t.TempDir()
	log = filepath.Join(dir, "calls.log")
	for i, a := range answers {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("answer%d", i+1)), []byte(a), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	script := fmt.Sprintf(`#!/bin/sh
d=%q
n=$(cat "$d/count" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$d/count"
{ echo "ARGS: $*"; echo "STDIN:"; cat; echo "END"; } >> "$d/calls.log"
f="$d/answer$n"; [ -f "$f" ] || f="$d/answer%d"
code=0
case "$(head -c 6 "$f")" in
SLEEP*) sleep 30 ;;
EXIT*) code=$(head -n1 "$f" | cut -c6-); tail -n +2 "$f" ;;
*) cat "$f" ;;
esac
exit $code
`, dir, len(answers))
	if err := os.WriteFile(filepath.Join(dir, "claude"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, log
}

// claudeJSON is `claude -p --output-format json`'s result object.
func claudeJSON(result string, isErr bool) string {
	sub := "success"
	if isErr {
		sub = "error_during_execution"
	}
	b, _ := json.Marshal(map[string]any{"type": "result", "subtype": sub, "is_error": isErr, "duration_ms": 2481,
		"num_turns": 1, "result": result, "session_id": "b7f0c1de-0000-4000-8000-000000000000", "total_cost_usd": 0.0031})
	return string(b)
}

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func contains(s string, subs ...string) bool {
	for _, x := range subs {
		if !strings.Contains(s, x) {
			return false
		}
	}
	return true
}
