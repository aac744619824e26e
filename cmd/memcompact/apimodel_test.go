package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/summarize"
	st "github.com/memcompact/memcompact/internal/summarize/summarizetest"
)

// modelFor makes c's model as the executable does: summarize.New with the
// SDKs linked, reading getenv.
func modelFor(t *testing.T, c summarize.Config, getenv func(string) string) summarize.Model {
	t.Helper()
	c, err := c.Resolve(st.EnvOf(nil))
	if err != nil {
		t.Fatal(err)
	}
	m, err := summarize.New(c, summarize.Env{Getenv: getenv, API: newAPIModel})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// replies is a fake server's script for steps: ok(text) for an answer,
// fails[kind] for a failure.
func replies(steps []st.Step, ok func(string) st.Reply, fails map[string]st.Reply) []st.Reply {
	var rs []st.Reply
	for _, s := range steps {
		if s.Fail == "" {
			rs = append(rs, ok(s.Text))
		} else {
			rs = append(rs, fails[s.Fail])
		}
	}
	return rs
}

// TestDistillAgainstFakes: both SDKs through the table every model runs,
// against loopback servers replaying recorded answers and errors.
func TestDistillAgainstFakes(t *testing.T) {
	st.RunCases(t, "anthropic", func(t *testing.T, steps ...st.Step) (summarize.Model, func() []string) {
		f := st.NewServer(t, replies(steps, st.MessagesReply, map[string]st.Reply{
			"401":   st.MessagesError(401, "authentication_error", "invalid x-api-key"),
			"429":   st.MessagesError(429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"),
			"hang":  {Hang: true},
			"shape": {Status: 200, Body: `{"completion":"- a bullet","stop_reason":"stop_sequence"}`},
		})...)
		m := modelFor(t, summarize.Config{Kind: summarize.Anthropic, BaseURL: f.URL, Timeout: st.TimeoutFor(steps)},
			st.EnvOf(map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test"}))
		return m, f.Bodies
	})
	st.RunCases(t, "openai", func(t *testing.T, steps ...st.Step) (summarize.Model, func() []string) {
		f := st.NewServer(t, replies(steps, st.ChatReply, map[string]st.Reply{
			"401":   st.ChatError(401, "invalid_api_key", "Incorrect API key provided: sk-test."),
			"429":   st.ChatError(429, "rate_limit_exceeded", "Rate limit reached for requests"),
			"hang":  {Hang: true},
			"shape": {Status: 200, Body: `{"id":"x","object":"chat.completion","choices":[]}`},
		})...)
		m := modelFor(t, summarize.Config{Kind: summarize.OpenAI, BaseURL: f.URL + "/v1", Model: "llama3.2", Timeout: st.TimeoutFor(steps)}, st.EnvOf(nil))
		return m, f.Bodies
	})
}

// TestNewKinds: the package makes the two API models and nothing else.
func TestNewKinds(t *testing.T) {
	getenv := st.EnvOf(map[string]string{"ANTHROPIC_API_KEY": "k", "OPENAI_API_KEY": "k"})
	for _, k := range []summarize.Kind{summarize.Anthropic, summarize.OpenAI} {
		c, err := summarize.Config{Kind: k}.Resolve(getenv)
		if err != nil {
			t.Fatal(err)
		}
		m, err := newAPIModel(c, getenv)
		if err != nil || !strings.HasPrefix(m.Name(), string(k)+" ") {
			t.Errorf("%s: %v, %v", k, m, err)
		}
	}
	if _, err := newAPIModel(summarize.Config{Kind: summarize.Claude}, getenv); err == nil {
		t.Error("the claude summarizer made by the SDK package")
	}
}

// TestNoKey: a remote API needs its key; a local server takes any.
func TestNoKey(t *testing.T) {
	for _, tc := range []struct {
		c    summarize.Config
		want string // "" for no error
	}{
		{summarize.Config{Kind: summarize.Anthropic}, "ANTHROPIC_API_KEY"},
		{summarize.Config{Kind: summarize.OpenAI}, "OPENAI_API_KEY"},
		{summarize.Config{Kind: summarize.OpenAI, BaseURL: "http://127.0.0.1:11434/v1", Model: "llama3.2"}, ""},
	} {
		c, _ := tc.c.Resolve(st.EnvOf(nil))
		_, err := summarize.New(c, summarize.Env{Getenv: st.EnvOf(nil), API: newAPIModel})
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s at %s: %v, want %q", c.Kind, c.BaseURL, err, tc.want)
		}
	}
}

func TestNetworkError(t *testing.T) {
	t.Parallel() // the SDK's retries wait out their backoff
	f := st.NewServer(t, st.MessagesReply(st.Good))
	url := f.URL
	f.Close() // nothing listens there any more
	m := modelFor(t, summarize.Config{Kind: summarize.Anthropic, BaseURL: url, Timeout: time.Second}, st.EnvOf(map[string]string{"ANTHROPIC_API_KEY": "k"}))
	_, err := summarize.Distill(context.Background(), m, st.Input, st.Check, false)
	if err == nil || !strings.Contains(err.Error(), "failed") {
		t.Errorf("err = %v, want a connection failure", err)
	}
}

func TestAnthropicRequestShape(t *testing.T) {
	f := st.NewServer(t, st.MessagesReply(st.Good))
	m := modelFor(t, summarize.Config{Kind: summarize.Anthropic, BaseURL: f.URL, Model: "claude-test-1"}, st.EnvOf(map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test"}))
	if _, err := summarize.Distill(context.Background(), m, st.Input, st.Check, false); err != nil {
		t.Fatal(err)
	}
	r := f.Requests()[0]
	if r.Path != "/v1/messages" || r.Header.Get("X-Api-Key") != "sk-ant-test" {
		t.Errorf("path %s key %q", r.Path, r.Header.Get("X-Api-Key"))
	}
	if !st.Contains(r.Body, `"model":"claude-test-1"`, `"system":[{`, `"role":"user"`, `"max_tokens":8192`) {
		t.Errorf("body: %s", r.Body)
	}
}

func TestOpenAIRequestShape(t *testing.T) {
	f := st.NewServer(t, st.ChatReply(st.Good))
	m := modelFor(t, summarize.Config{Kind: summarize.OpenAI, BaseURL: f.URL + "/v1", Model: "qwen2.5:7b"}, st.EnvOf(map[string]string{"OPENAI_API_KEY": "sk-test"}))
	if _, err := summarize.Distill(context.Background(), m, st.Input, st.Check, false); err != nil {
		t.Fatal(err)
	}
	r := f.Requests()[0]
	if r.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer sk-test" {
		t.Errorf("path %s auth %q", r.Path, r.Header.Get("Authorization"))
	}
	if !st.Contains(r.Body, `"model":"qwen2.5:7b"`, `"role":"system"`, `"role":"user"`) {
		t.Errorf("body: %s", r.Body)
	}
}

// TestRefusedRequests: a model's refusal, a 403 and a cut-off answer are
// errors that quote what the server said.
func TestRefusedRequests(t *testing.T) {
	refusal, _ := json.Marshal(map[string]any{"id": "msg_2", "type": "message", "role": "assistant", "model": "m",
		"content": []map[string]any{{"type": "text", "text": "I can't help with that."}}, "stop_reason": "refusal",
		"usage": map[string]any{"input_tokens": 1, "output_tokens": 1}})
	cut, _ := json.Marshal(map[string]any{"id": "msg_3", "type": "message", "role": "assistant", "model": "m",
		"content": []map[string]any{{"type": "text", "text": "- half a bul"}}, "stop_reason": "max_tokens",
		"usage": map[string]any{"input_tokens": 1, "output_tokens": 8192}})
	chatRefusal, _ := json.Marshal(map[string]any{"id": "c", "object": "chat.completion", "created": 1, "model": "m",
		"choices": []map[string]any{{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": nil, "refusal": "I'm sorry, I cannot do that."}}}})
	cases := []struct {
		kind summarize.Kind
		r    st.Reply
		want string
	}{
		{summarize.Anthropic, st.Reply{Status: 200, Body: string(refusal)}, `refused to answer: "I can't help with that."`},
		{summarize.Anthropic, st.Reply{Status: 200, Body: string(cut)}, "stopped at its token limit"},
		{summarize.Anthropic, st.MessagesError(403, "permission_error", "Your API key does not have permission to use the specified resource."), "the request was refused (403)"},
		{summarize.OpenAI, st.Reply{Status: 200, Body: string(chatRefusal)}, `refused to answer: "I'm sorry, I cannot do that."`},
		{summarize.OpenAI, st.ChatError(403, "unsupported_country_region_territory", "Country, region, or territory not supported"), "Country, region, or territory not supported"},
	}
	for _, tc := range cases {
		f := st.NewServer(t, tc.r)
		m := modelFor(t, summarize.Config{Kind: tc.kind, BaseURL: f.URL, Model: "m", Timeout: time.Second},
			st.EnvOf(map[string]string{"ANTHROPIC_API_KEY": "k", "OPENAI_API_KEY": "k"}))
		_, err := summarize.Distill(context.Background(), m, st.Input, st.Check, false)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want %q", tc.kind, err, tc.want)
		}
		if n := len(f.Requests()); n != 1 {
			t.Errorf("%s %q: %d requests, want 1 (no retry)", tc.kind, tc.want, n)
		}
	}
}
