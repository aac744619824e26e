package summarize

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

const tier = `## 2026-05-02 10:00 — Module setup
- Prefers tabs in Go files, because gofmt does.
- Tests run with ` + "`go test ./...`" + ` in 40 s.
- Sam said thanks, good session.
`

var input = Input{File: "topics/go.md", Tier: tier, MustKeep: []string{"Prefers tabs in Go files, because gofmt does."}}

// check is the compaction's verification in miniature: the must-keep line
// and the code fact must be in the bullets.
func check(bullets []string) Verdict {
	all := strings.Join(bullets, "\n")
	var v Verdict
	if !strings.Contains(all, "Prefers tabs in Go files, because gofmt does.") {
		v.Missing = append(v.Missing, Missing{What: "Prefers tabs in Go files, because gofmt does.", Line: "- Prefers tabs in Go files, because gofmt does."})
	}
	if !strings.Contains(all, "`go test ./...`") {
		v.Missing = append(v.Missing, Missing{What: "`go test ./...`", Line: "- Tests run with `go test ./...` in 40 s."})
	}
	return v
}

const (
	good    = "- 2026-05-02: Prefers tabs in Go files, because gofmt does.\n- 2026-05-02: Tests run with `go test ./...` in 40 s.\n"
	partial = "- 2026-05-02: Tests run with `go test ./...` in 40 s.\n"
	garbage = "Sure! The user likes tabs and runs tests, and that is about it."
	leaky   = good + "- AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n"
)

// step is one scripted answer: bullets (or any text), or a failure.
type step struct {
	text string
	fail string // "401", "429", "hang", "shape"
}

// backend makes a Model answering steps, and reports what it was sent.
type backend struct {
	name string
	make func(t *testing.T, steps ...step) (Model, func() []string)
}

var backends = []backend{
	{"anthropic", func(t *testing.T, steps ...step) (Model, func() []string) {
		var rs []reply
		for _, s := range steps {
			switch s.fail {
			case "":
				rs = append(rs, messagesReply(s.text))
			case "401":
				rs = append(rs, messagesError(401, "authentication_error", "invalid x-api-key"))
			case "429":
				rs = append(rs, messagesError(429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"))
			case "hang":
				rs = append(rs, reply{hang: true})
			case "shape":
				rs = append(rs, reply{status: 200, body: `{"completion":"- a bullet","stop_reason":"stop_sequence"}`})
			}
		}
		f := newFake(t, rs...)
		c, err := Config{Kind: Anthropic, BaseURL: f.URL, Timeout: timeoutFor(steps)}.Resolve(envOf(nil))
		if err != nil {
			t.Fatal(err)
		}
		m, err := New(c, Env{Getenv: envOf(map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test"})})
		if err != nil {
			t.Fatal(err)
		}
		return m, func() []string { return bodies(f) }
	}},
	{"openai", func(t *testing.T, steps ...step) (Model, func() []string) {
		var rs []reply
		for _, s := range steps {
			switch s.fail {
			case "":
				rs = append(rs, chatReply(s.text))
			case "401":
				rs = append(rs, chatError(401, "invalid_api_key", "Incorrect API key provided: sk-test."))
			case "429":
				rs = append(rs, chatError(429, "rate_limit_exceeded", "Rate limit reached for requests"))
			case "hang":
				rs = append(rs, reply{hang: true})
			case "shape":
				rs = append(rs, reply{status: 200, body: `{"id":"x","object":"chat.completion","choices":[]}`})
			}
		}
		f := newFake(t, rs...)
		c, err := Config{Kind: OpenAI, BaseURL: f.URL + "/v1", Model: "llama3.2", Timeout: timeoutFor(steps)}.Resolve(envOf(nil))
		if err != nil {
			t.Fatal(err)
		}
		m, err := New(c, Env{Getenv: envOf(nil)})
		if err != nil {
			t.Fatal(err)
		}
		return m, func() []string { return bodies(f) }
	}},
	{"claude", func(t *testing.T, steps ...step) (Model, func() []string) {
		var answers []string
		for _, s := range steps {
			switch s.fail {
			case "":
				answers = append(answers, claudeJSON(s.text, false))
			case "401":
				answers = append(answers, "EXIT1\n"+claudeJSON("Invalid API key · Please run /login", true))
			case "429":
				answers = append(answers, "EXIT1\n"+claudeJSON("API Error: 429 rate_limit_error", true))
			case "hang":
				answers = append(answers, "SLEEP")
			case "shape":
				answers = append(answers, "- a bullet, but not the JSON result\n")
			}
		}
		dir, log := fakeClaude(t, answers...)
		c, err := Config{Kind: Claude, Timeout: timeoutFor(steps)}.Resolve(envOf(nil))
		if err != nil {
			t.Fatal(err)
		}
		m, err := New(c, Env{Getenv: envOf(nil), LookPath: func(string) (string, error) { return dir + "/claude", nil }})
		if err != nil {
			t.Fatal(err)
		}
		return m, func() []string {
			b, _ := os.ReadFile(log)
			calls := strings.Split(string(b), "ARGS: ")
			return calls[1:]
		}
	}},
}

func bodies(f *fakeServer) []string {
	var out []string
	for _, r := range f.requests() {
		out = append(out, r.Body)
	}
	return out
}

func TestDistillAgainstFakes(t *testing.T) {
	cases := []struct {
		name     string
		steps    []step
		strict   bool
		calls    int    // requests the fake got
		err      string // "" for success
		appended int
		repaired bool
		skip     string // a backend the case does not apply to
	}{
		{name: "good bullets", steps: []step{{text: good}}, calls: 1},
		{name: "missing must-keep line, repaired", steps: []step{{text: partial}, {text: good}}, calls: 2, repaired: true},
		{name: "still missing, appended", steps: []step{{text: partial}, {text: partial}}, calls: 2, repaired: true, appended: 1},
		{name: "still missing, strict", steps: []step{{text: partial}, {text: partial}}, strict: true, calls: 2, err: "still misses lines"},
		{name: "garbage", steps: []step{{text: garbage}}, calls: 1, err: "not a list of bullets"},
		{name: "wrong shape", steps: []step{{fail: "shape"}}, calls: 1, err: "answer"},
		{name: "secret smuggled back", steps: []step{{text: leaky}}, calls: 1, err: "answered with a secret"},
		{name: "401", steps: []step{{fail: "401"}}, calls: 1, err: "API key"},
		{name: "429 then success", steps: []step{{fail: "429"}, {text: good}}, calls: 2, skip: "claude"},
		{name: "429 from claude", steps: []step{{fail: "429"}}, calls: 1, err: "429"},
		{name: "timeout", steps: []step{{fail: "hang"}}, err: "timed out"},
	}
	for _, b := range backends {
		for _, tc := range cases {
			if tc.skip == b.name || (tc.name == "429 from claude" && b.name != "claude") {
				continue
			}
			t.Run(b.name+"/"+tc.name, func(t *testing.T) {
				t.Parallel() // each case has a fake of its own
				m, sent := b.make(t, tc.steps...)
				res, err := Distill(context.Background(), m, input, check, tc.strict)
				if tc.err != "" {
					if err == nil || !strings.Contains(err.Error(), tc.err) {
						t.Fatalf("err = %v, want one saying %q", err, tc.err)
					}
					if strings.Contains(err.Error(), "wJalrXUtnFEMI") {
						t.Errorf("the error quotes the secret: %v", err)
					}
				} else {
					if err != nil {
						t.Fatal(err)
					}
					if v := check(res.Bullets); len(v.Missing) > 0 {
						t.Errorf("result still misses %v: %q", v.Missing, res.Bullets)
					}
					if res.Repaired != tc.repaired || len(res.Appended) != tc.appended {
						t.Errorf("repaired %v appended %q, want %v and %d", res.Repaired, res.Appended, tc.repaired, tc.appended)
					}
				}
				got := sent()
				if tc.calls > 0 && len(got) != tc.calls {
					t.Errorf("the fake got %d requests, want %d", len(got), tc.calls)
				}
				if len(got) == 0 {
					t.Fatal("the fake got nothing")
				}
				if !contains(got[0], "Module setup", "Prefers tabs", "Never invent") {
					t.Errorf("the first request lacks the tier or the instructions: %.300s", got[0])
				}
				if tc.repaired && !contains(got[len(got)-1], "not complete yet", "Prefers tabs in Go files, because gofmt does.") {
					t.Errorf("the repair request does not name what is missing: %.600s", got[len(got)-1])
				}
			})
		}
	}
}

func TestNoKeyNoClaude(t *testing.T) {
	c, _ := Config{Kind: Anthropic}.Resolve(envOf(nil))
	if _, err := New(c, Env{Getenv: envOf(nil)}); err == nil || !strings.Contains(err.Error(), "ANTHROPIC_API_KEY") {
		t.Errorf("anthropic without a key: %v", err)
	}
	c, _ = Config{Kind: OpenAI}.Resolve(envOf(nil))
	if _, err := New(c, Env{Getenv: envOf(nil)}); err == nil || !strings.Contains(err.Error(), "OPENAI_API_KEY") {
		t.Errorf("openai without a key: %v", err)
	}
	c, _ = Config{Kind: OpenAI, BaseURL: "http://127.0.0.1:11434/v1", Model: "llama3.2"}.Resolve(envOf(nil))
	if _, err := New(c, Env{Getenv: envOf(nil)}); err != nil {
		t.Errorf("a local server needs no key: %v", err)
	}
	c, _ = Config{Kind: Claude}.Resolve(envOf(nil))
	_, err := New(c, Env{LookPath: func(string) (string, error) { return "", errors.New("not found") }})
	if err == nil || !strings.Contains(err.Error(), "no claude command is on PATH") {
		t.Errorf("claude absent: %v", err)
	}
}

func TestNetworkError(t *testing.T) {
	t.Parallel() // the SDK's retries wait out their backoff
	f := newFake(t, messagesReply(good))
	url := f.URL
	f.Close() // nothing listens there any more
	c, _ := Config{Kind: Anthropic, BaseURL: url, Timeout: time.Second}.Resolve(envOf(nil))
	m, _ := New(c, Env{Getenv: envOf(map[string]string{"ANTHROPIC_API_KEY": "k"})})
	_, err := Distill(context.Background(), m, input, check, false)
	if err == nil || !strings.Contains(err.Error(), "failed") {
		t.Errorf("err = %v, want a connection failure", err)
	}
}

func TestAnthropicRequestShape(t *testing.T) {
	f := newFake(t, messagesReply(good))
	c, _ := Config{Kind: Anthropic, BaseURL: f.URL, Model: "claude-test-1"}.Resolve(envOf(nil))
	m, _ := New(c, Env{Getenv: envOf(map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test"})})
	if _, err := Distill(context.Background(), m, input, check, false); err != nil {
		t.Fatal(err)
	}
	r := f.requests()[0]
	if r.Path != "/v1/messages" || r.Header.Get("X-Api-Key") != "sk-ant-test" {
		t.Errorf("path %s key %q", r.Path, r.Header.Get("X-Api-Key"))
	}
	if !contains(r.Body, `"model":"claude-test-1"`, `"system":[{`, `"role":"user"`, `"max_tokens":8192`) {
		t.Errorf("body: %s", r.Body)
	}
}

func TestOpenAIRequestShape(t *testing.T) {
	f := newFake(t, chatReply(good))
	c, _ := Config{Kind: OpenAI, BaseURL: f.URL + "/v1", Model: "qwen2.5:7b"}.Resolve(envOf(nil))
	m, _ := New(c, Env{Getenv: envOf(map[string]string{"OPENAI_API_KEY": "sk-test"})})
	if _, err := Distill(context.Background(), m, input, check, false); err != nil {
		t.Fatal(err)
	}
	r := f.requests()[0]
	if r.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer sk-test" {
		t.Errorf("path %s auth %q", r.Path, r.Header.Get("Authorization"))
	}
	if !contains(r.Body, `"model":"qwen2.5:7b"`, `"role":"system"`, `"role":"user"`) {
		t.Errorf("body: %s", r.Body)
	}
}

func TestClaudeArgs(t *testing.T) {
	dir, log := fakeClaude(t, claudeJSON(good, false))
	c, _ := Config{Kind: Claude, Model: "sonnet"}.Resolve(envOf(nil))
	m, _ := New(c, Env{LookPath: func(string) (string, error) { return dir + "/claude", nil }})
	if _, err := Distill(context.Background(), m, input, check, false); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(log)
	// No tools, no MCP servers, no session kept, our system prompt.
	if !contains(string(b), "-p --output-format json --tools  --strict-mcp-config --no-session-persistence --system-prompt You compress", "--model sonnet", "<entries>") {
		t.Errorf("claude was run as:\n%s", b)
	}
}

func TestCommand(t *testing.T) {
	dir := t.TempDir()
	script := dir + "/sum.sh"
	os.WriteFile(script, []byte(`cat > "$(dirname "$0")/in$MEMCOMPACT_ROUND"
if [ "$MEMCOMPACT_ROUND" = 1 ]; then echo '- 2026-05-02: Tests run with `+"`go test ./...`"+` in 40 s.'; else printf '%s' "$GOOD"; fi
`), 0o755)
	t.Setenv("GOOD", good)
	c, _ := Config{Kind: Command, Command: "sh " + script, Timeout: 5 * time.Second}.Resolve(envOf(nil))
	m, _ := New(c, Env{})
	res, err := Distill(context.Background(), m, input, check, false)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Repaired || len(res.Appended) != 0 {
		t.Errorf("repaired %v appended %q", res.Repaired, res.Appended)
	}
	in1, _ := os.ReadFile(dir + "/in1")
	in2, _ := os.ReadFile(dir + "/in2")
	if !contains(string(in1), Instructions, "<entries>") || !contains(string(in2), "Your answer was:", "not complete yet") {
		t.Errorf("stdin round 1:\n%s\nround 2:\n%s", in1, in2)
	}

	c.Command, c.Timeout = "sleep 30", 300*time.Millisecond
	m, _ = New(c, Env{})
	if _, err := Distill(context.Background(), m, input, check, false); err == nil || !strings.Contains(err.Error(), "timed out after 300ms") {
		t.Errorf("sleep: %v", err)
	}
	c.Command, c.Timeout = "echo broken >&2; exit 3", time.Second
	m, _ = New(c, Env{})
	if _, err := Distill(context.Background(), m, input, check, false); err == nil || !strings.Contains(err.Error(), "exit status 3: broken") {
		t.Errorf("failing command: %v", err)
	}
}

func TestBullets(t *testing.T) {
	cases := []struct {
		in   string
		want []string
		err  bool
	}{
		{"- a\n- b\n", []string{"a", "b"}, false},
		{"* a\n\n+ b\n1. c\n", []string{"a", "b", "c"}, false},
		{"```markdown\n- a\n- b\n```\n", []string{"a", "b"}, false},
		{"- a\n  continued\n  - nested\n", []string{"a continued - nested"}, false},
		{"Here are your bullets:\n- a\n", nil, true},
		{"", nil, true},
		{"   \n\n", nil, true},
		{"just prose", nil, true},
		{"- \n-\n", nil, true},
	}
	for _, tc := range cases {
		got, err := Bullets(tc.in)
		if (err != nil) != tc.err || strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("Bullets(%q) = %q, %v", tc.in, got, err)
		}
	}
}

func FuzzBullets(f *testing.F) {
	for _, s := range []string{good, partial, garbage, "```\n- a\n```", "- a\n  b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		bs, err := Bullets(s)
		if err == nil && len(bs) == 0 {
			t.Fatal("no error and no bullets")
		}
		for _, b := range bs {
			if strings.ContainsAny(b, "\r\n") || b == "" {
				t.Fatalf("bad bullet %q", b)
			}
		}
	})
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
		kind Kind
		r    reply
		want string
	}{
		{Anthropic, reply{status: 200, body: string(refusal)}, `refused to answer: "I can't help with that."`},
		{Anthropic, reply{status: 200, body: string(cut)}, "stopped at its token limit"},
		{Anthropic, messagesError(403, "permission_error", "Your API key does not have permission to use the specified resource."), "the request was refused (403)"},
		{OpenAI, reply{status: 200, body: string(chatRefusal)}, `refused to answer: "I'm sorry, I cannot do that."`},
		{OpenAI, chatError(403, "unsupported_country_region_territory", "Country, region, or territory not supported"), "Country, region, or territory not supported"},
	}
	for _, tc := range cases {
		f := newFake(t, tc.r)
		c, _ := Config{Kind: tc.kind, BaseURL: f.URL, Model: "m", Timeout: time.Second}.Resolve(envOf(nil))
		m, _ := New(c, Env{Getenv: envOf(map[string]string{"ANTHROPIC_API_KEY": "k", "OPENAI_API_KEY": "k"})})
		_, err := Distill(context.Background(), m, input, check, false)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want %q", tc.kind, err, tc.want)
		}
		if n := len(f.requests()); n != 1 {
			t.Errorf("%s %q: %d requests, want 1 (no retry)", tc.kind, tc.want, n)
		}
	}
}

// timeoutFor is the model timeout for a fake's steps: short where a step
// hangs (the timeout is what the test waits out, three times over for the
// Anthropic SDK, which retries a request that timed out), and generous
// otherwise, so a loaded machine starting the fake slowly is not taken for
// a hang. Under -short the hang is waited out for a third of the time: a
// hang is a hang however short the wait, and the request still reaches
// the fake well inside it.
func timeoutFor(steps []step) time.Duration {
	for _, s := range steps {
		if s.fail == "hang" {
			if testing.Short() {
				return 300 * time.Millisecond
			}
			return time.Second
		}
	}
	return 20 * time.Second
}
