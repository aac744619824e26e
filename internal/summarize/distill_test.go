package summarize_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/summarize"
	st "github.com/memcompact/memcompact/internal/summarize/summarizetest"
)

// The inputs and answers every model's cases use.
var (
	input = st.Input
	check = st.Check
	envOf = st.EnvOf
)

const (
	good = st.Good
)

// TestDistillAgainstFakes: Claude Code headless through the table every
// model runs (the executable's tests run the two SDKs), a fake claude on PATH
// answering each step.
func TestDistillAgainstFakes(t *testing.T) {
	st.RunCases(t, "claude", func(t *testing.T, steps ...st.Step) (summarize.Model, func() []string) {
		var answers []string
		for _, s := range steps {
			switch s.Fail {
			case "":
				answers = append(answers, claudeJSON(s.Text, false))
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
		c, err := summarize.Config{Kind: summarize.Claude, Timeout: st.TimeoutFor(steps)}.Resolve(envOf(nil))
		if err != nil {
			t.Fatal(err)
		}
		m, err := summarize.New(c, summarize.Env{Getenv: envOf(nil), LookPath: func(string) (string, error) { return dir + "/claude", nil }})
		if err != nil {
			t.Fatal(err)
		}
		return m, func() []string {
			b, _ := os.ReadFile(log)
			calls := strings.Split(string(b), "ARGS: ")
			return calls[1:]
		}
	})
}

// TestNoKeyNoClaude: no claude on PATH is an error naming it; an API
// summarizer in a program that links no SDK (a test binary) says so
// rather than calling anything.
func TestNoKeyNoClaude(t *testing.T) {
	c, _ := summarize.Config{Kind: summarize.Claude}.Resolve(envOf(nil))
	_, err := summarize.New(c, summarize.Env{LookPath: func(string) (string, error) { return "", errors.New("not found") }})
	if err == nil || !strings.Contains(err.Error(), "no claude command is on PATH") {
		t.Errorf("claude absent: %v", err)
	}
	for _, k := range []summarize.Kind{summarize.Anthropic, summarize.OpenAI} {
		c, _ := summarize.Config{Kind: k, BaseURL: "http://127.0.0.1:9/v1", Model: "m"}.Resolve(envOf(nil))
		if _, err := summarize.New(c, summarize.Env{Getenv: envOf(nil)}); err == nil || !strings.Contains(err.Error(), "not built into this program") {
			t.Errorf("%s unlinked: %v", k, err)
		}
	}
}

func TestClaudeArgs(t *testing.T) {
	dir, log := fakeClaude(t, claudeJSON(good, false))
	c, _ := summarize.Config{Kind: summarize.Claude, Model: "sonnet"}.Resolve(envOf(nil))
	m, _ := summarize.New(c, summarize.Env{LookPath: func(string) (string, error) { return dir + "/claude", nil }})
	if _, err := summarize.Distill(context.Background(), m, input, check, false); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(log)
	// No tools, no MCP servers, no session kept, our system prompt.
	if !st.Contains(string(b), "-p --output-format json --tools  --strict-mcp-config --no-session-persistence --system-prompt You compress", "--model sonnet", "<entries>") {
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
	c, _ := summarize.Config{Kind: summarize.Command, Command: "sh " + script, Timeout: 5 * time.Second}.Resolve(envOf(nil))
	m, _ := summarize.New(c, summarize.Env{})
	res, err := summarize.Distill(context.Background(), m, input, check, false)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Repaired || len(res.Appended) != 0 {
		t.Errorf("repaired %v appended %q", res.Repaired, res.Appended)
	}
	in1, _ := os.ReadFile(dir + "/in1")
	in2, _ := os.ReadFile(dir + "/in2")
	if !st.Contains(string(in1), summarize.Instructions, "<entries>") || !st.Contains(string(in2), "Your answer was:", "not complete yet") {
		t.Errorf("stdin round 1:\n%s\nround 2:\n%s", in1, in2)
	}

	c.Command, c.Timeout = "sleep 30", 300*time.Millisecond
	m, _ = summarize.New(c, summarize.Env{})
	if _, err := summarize.Distill(context.Background(), m, input, check, false); err == nil || !strings.Contains(err.Error(), "timed out after 300ms") {
		t.Errorf("sleep: %v", err)
	}
	c.Command, c.Timeout = "echo broken >&2; exit 3", time.Second
	m, _ = summarize.New(c, summarize.Env{})
	if _, err := summarize.Distill(context.Background(), m, input, check, false); err == nil || !strings.Contains(err.Error(), "exit status 3: broken") {
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
		got, err := summarize.Bullets(tc.in)
		if (err != nil) != tc.err || strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("Bullets(%q) = %q, %v", tc.in, got, err)
		}
	}
}

func FuzzBullets(f *testing.F) {
	for _, s := range []string{good, st.Partial, st.Garbage, "```\n- a\n```", "- a\n  b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		bs, err := summarize.Bullets(s)
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
