package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"strings"
	"sync"
)

// fakeAPI is a Messages API that answers every request with "ok" (or
// what respond says), streamed (SSE) or not as asked, and keeps every
// request body.
type fakeAPI struct {
	mu   sync.Mutex
	reqs map[string][]*apiRequest // by URL path
	raws [][]byte                 // every request body, in order
	// respond, when set, chooses the answer's content blocks and stop
	// reason for a request body; nil blocks answer "ok".
	respond func(body []byte) (blocks []any, stop string)
}

type apiRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	System   any    `json:"system"`
	Messages []struct {
		Role    string `json:"role"`
		Content any    `json:"content"`
	} `json:"messages"`
}

func newFakeAPI() *fakeAPI { return &fakeAPI{reqs: map[string][]*apiRequest{}} }

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if os.Getenv("MEMCOMPACT_CLAUDE_CODE_DEBUG") != "" {
		fmt.Fprintf(os.Stderr, "fake API: %s %s (%d bytes)\n", r.Method, r.URL, len(body))
	}
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/v1/messages") {
		http.NotFound(w, r)
		return
	}
	var req apiRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.reqs[r.URL.Path] = append(f.reqs[r.URL.Path], &req)
	f.raws = append(f.raws, body)
	f.mu.Unlock()
	blocks, stop := []any{map[string]any{"type": "text", "text": "ok"}}, "end_turn"
	if f.respond != nil {
		if b, s := f.respond(body); b != nil {
			blocks, stop = b, s
		}
	}
	msg := map[string]any{"id": "msg_fake", "type": "message", "role": "assistant", "model": req.Model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": map[string]int{"input_tokens": 1, "output_tokens": 1}}
	if !req.Stream {
		msg["content"] = blocks
		msg["stop_reason"] = stop
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(msg)
		return
	}
	streamMessage(w, msg, blocks, stop)
}

// streamMessage writes msg as the Messages API's event stream, its content
// the given blocks (text, or tool_use with its input), stopping for
// stopReason.
func streamMessage(w http.ResponseWriter, msg map[string]any, blocks []any, stopReason string) {
	w.Header().Set("Content-Type", "text/event-stream")
	type event struct {
		name string
		data any
	}
	events := []event{{"message_start", map[string]any{"type": "message_start", "message": msg}}}
	for i, b := range blocks {
		start := maps.Clone(b.(map[string]any))
		var delta map[string]any
		switch start["type"] {
		case "tool_use":
			in, _ := json.Marshal(start["input"])
			start["input"] = map[string]any{}
			delta = map[string]any{"type": "input_json_delta", "partial_json": string(in)}
		default:
			delta = map[string]any{"type": "text_delta", "text": start["text"]}
			start["text"] = ""
		}
		events = append(events,
			event{"content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": start}},
			event{"content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": delta}},
			event{"content_block_stop", map[string]any{"type": "content_block_stop", "index": i}})
	}
	events = append(events,
		event{"message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stopReason, "stop_sequence": nil}, "usage": map[string]int{"output_tokens": 1}}},
		event{"message_stop", map[string]any{"type": "message_stop"}})
	for _, e := range events {
		b, _ := json.Marshal(e.data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.name, b)
	}
}

// paths lists the request paths seen, with counts, for a failure report.
func (f *fakeAPI) paths() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for p, rs := range f.reqs {
		out = append(out, fmt.Sprintf("%s×%d", p, len(rs)))
	}
	return strings.Join(out, ", ")
}

// first returns the first request under prefix that carries messages.
func (f *fakeAPI) first(prefix string) *apiRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	for path, rs := range f.reqs {
		if !strings.HasPrefix(path, prefix) {
			continue
		}
		for _, r := range rs {
			if len(r.Messages) > 0 {
				return r
			}
		}
	}
	return nil
}

func (r *apiRequest) system() string {
	b, _ := json.Marshal(r.System)
	var blocks []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(b, &blocks) == nil {
		var parts []string
		for _, bl := range blocks {
			parts = append(parts, bl.Text)
		}
		return strings.Join(parts, "\n")
	}
	var s string
	_ = json.Unmarshal(b, &s)
	return s
}

func (r *apiRequest) userTexts() []string {
	var out []string
	for _, m := range r.Messages {
		if m.Role != "user" {
			continue
		}
		switch c := m.Content.(type) {
		case string:
			out = append(out, c)
		case []any:
			for _, part := range c {
				if p, ok := part.(map[string]any); ok {
					if s, ok := p["text"].(string); ok {
						out = append(out, s)
					}
				}
			}
		}
	}
	return out
}
