package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	initLine  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	readyLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

// response is one line the server wrote.
type response struct {
	ID     any             `json:"id"`
	HasID  bool            `json:"-"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// serveLines runs a server over input (closed at its end) with a size
// cap of max bytes and returns what it wrote, line by line.
func serveLines(t *testing.T, input string, max int) []response {
	t.Helper()
	var out syncBuffer
	h := &Host{Getenv: func(string) string { return "" }, Home: t.TempDir(), Today: time.Now}
	done := make(chan error, 1)
	go func() {
		done <- New(h, "test").Run(context.Background(), &lineTransport{r: strings.NewReader(input), w: &out, max: max})
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not stop at the end of its input")
	}
	var rs []response
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if line == "" {
			continue
		}
		var r response
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("the server wrote a line that is not JSON: %q", line)
		}
		var raw map[string]json.RawMessage
		json.Unmarshal([]byte(line), &raw)
		_, r.HasID = raw["id"]
		rs = append(rs, r)
	}
	return rs
}

// byID is the responses to the request with id (a JSON number).
func byID(rs []response, id float64) []response {
	var out []response
	for _, r := range rs {
		if r.ID == id {
			out = append(out, r)
		}
	}
	return out
}

// TestFraming: a frame the server cannot take is answered by itself with
// the JSON-RPC error the spec names, and every request after it is still
// answered.
func TestFraming(t *testing.T) {
	ping := func(id int) string { return `{"jsonrpc":"2.0","id":` + itoa(id) + `,"method":"ping"}` }
	cases := []struct {
		name  string
		frame string
		code  int
		nulID bool
	}{
		{"malformed line", `{"jsonrpc":"2.0","id":`, -32700, true},
		{"not JSON at all", `hello`, -32700, true},
		{"deep nesting", strings.Repeat("[", 200000) + strings.Repeat("]", 200000), -32700, true},
		{"deep nesting in params", `{"jsonrpc":"2.0","id":9,"method":"ping","params":` + strings.Repeat(`{"a":`, 20000) + "1" + strings.Repeat("}", 20000) + "}", -32700, true},
		{"over the size cap", `{"jsonrpc":"2.0","id":9,"method":"ping","params":{"pad":"` + strings.Repeat("x", 5000) + `"}}`, -32600, true},
		{"no version tag", `{"id":9,"method":"ping"}`, -32600, false},
		{"a batch", `[` + ping(9) + `]`, -32600, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := initLine + "\n" + readyLine + "\n" + ping(2) + "\n" + c.frame + "\n" + ping(3) + "\n"
			max := MaxMessage
			if c.code == -32600 && c.nulID {
				max = 4096 // the oversize case, and a batch well under it
			}
			rs := serveLines(t, in, max)
			for _, id := range []float64{1, 2, 3} {
				if got := byID(rs, id); len(got) != 1 || got[0].Error != nil {
					t.Errorf("request %v: %d answers %+v; want one result", id, len(got), got)
				}
			}
			var refusals []response
			for _, r := range rs {
				if r.Error != nil {
					refusals = append(refusals, r)
				}
			}
			if len(refusals) != 1 || refusals[0].Error.Code != c.code {
				t.Fatalf("refusals %+v; want one with code %d", refusals, c.code)
			}
			if c.nulID && (!refusals[0].HasID || refusals[0].ID != nil) {
				t.Errorf("the refusal's id is %v (present %v); want null", refusals[0].ID, refusals[0].HasID)
			}
		})
	}
}

// TestFramingDuplicateIDs: two requests under one id each get exactly one
// answer, a result or a refusal (never one answer for both).
func TestFramingDuplicateIDs(t *testing.T) {
	call := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"measure","arguments":{"path":"` + t.TempDir() + `"}}}`
	in := initLine + "\n" + readyLine + "\n" + call + "\n" + call + "\n" + call + "\n"
	rs := serveLines(t, in, MaxMessage)
	got := byID(rs, 7)
	if len(got) != 3 {
		t.Fatalf("%d answers to three requests under id 7: %+v", len(got), rs)
	}
	for _, r := range got {
		if r.Error != nil && (r.Error.Code != -32600 || !strings.Contains(r.Error.Message, "in flight")) {
			t.Errorf("refusal %+v; want -32600 naming the id in flight", r.Error)
		}
	}
}

// TestFramingBeforeInitialize: a call before initialize is refused with
// a JSON-RPC error code, never 0.
func TestFramingBeforeInitialize(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":4,"method":"tools/list"}` + "\n" + initLine + "\n"
	rs := serveLines(t, in, MaxMessage)
	got := byID(rs, 4)
	if len(got) != 1 || got[0].Error == nil || got[0].Error.Code != -32600 {
		t.Fatalf("tools/list before initialize: %+v; want a -32600 error", got)
	}
	if r := byID(rs, 1); len(r) != 1 || r[0].Error != nil {
		t.Errorf("initialize after it: %+v", r)
	}
}

// TestFramingBadArguments: null items and wrong types are tool errors in
// plain words.
func TestFramingBadArguments(t *testing.T) {
	calls := map[float64]struct{ args, want string }{
		2: {`{"name":"secrets","arguments":{"paths":[null]}}`, "paths[0] is null; want a string"},
		3: {`{"name":"load","arguments":{"lines":"200"}}`, "lines is a string; want an integer"},
		4: {`{"name":"load","arguments":{"lines":1.5}}`, "lines is a number; want an integer"},
		5: {`{"name":"check","arguments":{"index":{"a":1}}}`, "index is an object; want a string"},
		6: {`{"name":"check","arguments":{"nosuch":1}}`, `unknown argument`},
		7: {`{"name":"gate_deferral","arguments":{"index":null}}`, `is required`},
		8: {`{"name":"check","arguments":[1]}`, "not a JSON object"},
	}
	in := initLine + "\n" + readyLine + "\n"
	for id, c := range calls {
		in += `{"jsonrpc":"2.0","id":` + itoa(int(id)) + `,"method":"tools/call","params":` + c.args + "}\n"
	}
	rs := serveLines(t, in, MaxMessage)
	for id, c := range calls {
		got := byID(rs, id)
		if len(got) != 1 {
			t.Errorf("%s: %d answers", c.args, len(got))
			continue
		}
		text := string(got[0].Result)
		if got[0].Error != nil {
			text = got[0].Error.Message
		}
		if !strings.Contains(text, `"isError":true`) || !strings.Contains(text, c.want) || strings.Contains(text, "reflect") {
			t.Errorf("%s: %s; want a tool error saying %q", c.args, text, c.want)
		}
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// syncBuffer is a buffer the server's goroutines may write at once.
type syncBuffer struct {
	mu chan struct{}
	b  bytes.Buffer
}

func (s *syncBuffer) lock() {
	if s.mu == nil {
		s.mu = make(chan struct{}, 1)
	}
	s.mu <- struct{}{}
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.lock()
	defer func() { <-s.mu }()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.lock()
	defer func() { <-s.mu }()
	return s.b.String()
}

// TestServeStopsWithACallInFlight: cancelled (SIGINT), Serve returns while
// a tool call is still running, here one that never ends. The SDK's
// session alone waits for it, so a long call (a journal record of a large
// store) kept the server past the 140 ms Claude Code gives it.
func TestServeStopsWithACallInFlight(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	started, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	mcp.AddTool(server, &mcp.Tool{Name: "hang"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		close(started)
		<-release // ignores ctx, as a long engine step does
		return &mcp.CallToolResult{}, nil, nil
	})
	in, feed := io.Pipe()
	defer feed.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, server, in, io.Discard) }()
	go io.WriteString(feed, initLine+"\n"+readyLine+"\n"+`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"hang","arguments":{}}}`+"\n")
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Fatal("the call never started")
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Serve returned %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after its context was cancelled while a call ran")
	}
}
