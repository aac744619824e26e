package summarize_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/summarize"
	st "github.com/memcompact/memcompact/internal/summarize/summarizetest"
)

func TestParseResolveRemote(t *testing.T) {
	cases := []struct {
		flag, model, base string
		env               map[string]string
		kind              summarize.Kind
		wantModel         string
		wantBase          string
		remote            bool
		err               string
	}{
		{flag: "", kind: ""},
		{flag: "builtin", kind: summarize.Builtin},
		{flag: "claude", kind: summarize.Claude, remote: true},
		{flag: "claude", env: map[string]string{"MEMCOMPACT_MODEL": "sonnet"}, kind: summarize.Claude, wantModel: "sonnet", remote: true},
		{flag: "anthropic", kind: summarize.Anthropic, wantModel: summarize.DefaultAnthropicModel, wantBase: summarize.DefaultAnthropicURL, remote: true},
		{flag: "anthropic", env: map[string]string{"ANTHROPIC_BASE_URL": "http://127.0.0.1:8080", "MEMCOMPACT_MODEL": "m1"}, kind: summarize.Anthropic, wantModel: "m1", wantBase: "http://127.0.0.1:8080"},
		{flag: "anthropic", model: "flag-model", env: map[string]string{"MEMCOMPACT_MODEL": "m1"}, kind: summarize.Anthropic, wantModel: "flag-model", wantBase: summarize.DefaultAnthropicURL, remote: true},
		{flag: "openai", kind: summarize.OpenAI, wantModel: summarize.DefaultOpenAIModel, wantBase: summarize.DefaultOpenAIURL, remote: true},
		{flag: "openai", base: "http://localhost:11434/v1", model: "llama3.2", kind: summarize.OpenAI, wantModel: "llama3.2", wantBase: "http://localhost:11434/v1"},
		{flag: "openai", base: "http://[::1]:8000/v1", model: "q", kind: summarize.OpenAI, wantModel: "q", wantBase: "http://[::1]:8000/v1"},
		{flag: "openai", base: "http://gpu-box.lan:8000/v1", model: "q", kind: summarize.OpenAI, wantModel: "q", wantBase: "http://gpu-box.lan:8000/v1", remote: true},
		{flag: "openai", env: map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:1234/v1"}, kind: summarize.OpenAI, err: "needs --model"},
		{flag: "openai", base: "ftp://x", model: "m", kind: summarize.OpenAI, err: "not an http or https URL"},
		{flag: "sed 1d", kind: summarize.Command},
		{flag: "sed 1d", model: "m", kind: summarize.Command, err: "--model is for"},
		{flag: "claude", base: "http://127.0.0.1", kind: summarize.Claude, err: "--base-url is for"},
	}
	for _, tc := range cases {
		c := summarize.Parse(tc.flag)
		c.Model, c.BaseURL = tc.model, tc.base
		if c.Kind != tc.kind {
			t.Errorf("Parse(%q).Kind = %s", tc.flag, c.Kind)
		}
		r, err := c.Resolve(envOf(tc.env))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%+v: err %v, want %q", tc, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%+v: %v", tc, err)
			continue
		}
		if r.Model != tc.wantModel || r.BaseURL != tc.wantBase || r.Remote() != tc.remote || r.Timeout != summarize.DefaultTimeout {
			t.Errorf("%+v: got model %q base %q remote %v timeout %s", tc, r.Model, r.BaseURL, r.Remote(), r.Timeout)
		}
	}
}

// TestPreviewSendsNothing: --plan shows the prompt and the request, and no
// fake server hears of it; the secret entry the caller left out is not in
// it either.
func TestPreviewSendsNothing(t *testing.T) {
	f := st.NewServer(t, st.MessagesReply(good))
	for _, k := range []summarize.Kind{summarize.Claude, summarize.Anthropic, summarize.OpenAI, summarize.Command} {
		c := summarize.Config{Kind: k, BaseURL: f.URL, Model: "m"}
		if k == summarize.Claude || k == summarize.Command {
			c.BaseURL, c.Command = "", "my-llm"
		}
		if k == summarize.Command {
			c.Model = ""
		}
		c, err := c.Resolve(envOf(nil))
		if err != nil {
			t.Fatal(err)
		}
		p := summarize.Preview(c, input)
		if !st.Contains(p, summarize.Instructions, summarize.Request(input), c.Where()) {
			t.Errorf("%s preview lacks the prompt, the request or where:\n%s", k, p)
		}
		if strings.Contains(p, "sk-") {
			t.Errorf("%s preview shows a key", k)
		}
	}
	if n := len(f.Requests()); n != 0 {
		t.Errorf("the fake got %d requests from a preview", n)
	}
}

func TestLoadFile(t *testing.T) {
	root := t.TempDir()
	if f, err := summarize.LoadFile(root); f != nil || err != nil {
		t.Fatalf("no file: %v %v", f, err)
	}
	if (*summarize.File)(nil).Config().Kind != summarize.Builtin {
		t.Error("no file is the built-in summarizer")
	}
	os.MkdirAll(filepath.Join(root, "compaction"), 0o755)
	write := func(s string) {
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(summarize.ConfigRel)), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("# the model for this root\nsummarizer = \"openai\"\nmodel = \"llama3.2\"\nbase_url = \"http://127.0.0.1:11434/v1\"\ntimeout = \"90s\"\nallow_remote = false\nstrict = true\n")
	f, err := summarize.LoadFile(root)
	if err != nil {
		t.Fatal(err)
	}
	c := f.Config()
	if c.Kind != summarize.OpenAI || c.Model != "llama3.2" || c.BaseURL != "http://127.0.0.1:11434/v1" || c.Timeout != 90*time.Second || !f.Strict || f.AllowRemote {
		t.Errorf("got %+v from %+v", c, f)
	}
	for src, want := range map[string]string{
		"summarizer = \"claude\"\nmodle = \"x\"\n": "summarizer.toml:2: unknown setting \"modle\"",
		"summarizer = \n":                          "summarizer.toml:1:",
		"timeout = \"soon\"\n":                     "not a positive duration",
	} {
		write(src)
		if _, err := summarize.LoadFile(root); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err %v, want %q", src, err, want)
		}
	}
}
