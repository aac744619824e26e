package summarize

import (
	"fmt"
	"net/netip"
	"net/url"
	"strings"
	"time"
)

// Kind names a summarizer.
type Kind string

// The summarizers. Builtin is package distill's; Command is a shell command.
const (
	Builtin   Kind = "builtin"
	Command   Kind = "command"
	Claude    Kind = "claude"
	Anthropic Kind = "anthropic"
	OpenAI    Kind = "openai"
)

// Defaults.
const (
	DefaultTimeout        = 2 * time.Minute
	DefaultAnthropicModel = "claude-haiku-4-5"
	DefaultAnthropicURL   = "https://api.anthropic.com"
	DefaultOpenAIModel    = "gpt-5.4-mini"
	DefaultOpenAIURL      = "https://api.openai.com/v1"
	// MaxRetries bounds the SDKs' retries of a rate limit or a server
	// error (with their backoff, honouring Retry-After).
	MaxRetries = 2
	// MaxTokens bounds an answer: a summary longer than this is no summary.
	MaxTokens = 8192
)

// Config says which summarizer to run and how. The zero Kind is Builtin.
type Config struct {
	Kind    Kind
	Command string        // Command: the shell command
	Model   string        // "" for the default (MEMCOMPACT_MODEL, then the kind's own)
	BaseURL string        // anthropic and openai: "" for the environment's or the default
	Timeout time.Duration // per model call; 0 for DefaultTimeout
}

// Parse reads a --summarizer value: a summarizer's name, or else a shell
// command. An empty value chooses nothing (Kind ""), so that a root's
// settings file may; "builtin" chooses the built-in summarizer over it.
func Parse(value string) Config {
	switch k := Kind(strings.TrimSpace(value)); k {
	case "":
		return Config{}
	case Builtin:
		return Config{Kind: Builtin}
	case Claude, Anthropic, OpenAI:
		return Config{Kind: k}
	}
	return Config{Kind: Command, Command: value}
}

// Resolve fills in what the flags left open from the environment (getenv,
// usually os.Getenv) and the defaults: the model from MEMCOMPACT_MODEL,
// the base URL from ANTHROPIC_BASE_URL or OPENAI_BASE_URL.
func (c Config) Resolve(getenv func(string) string) (Config, error) {
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.Model == "" && (c.Kind == Claude || c.Kind == Anthropic || c.Kind == OpenAI) {
		c.Model = strings.TrimSpace(getenv("MEMCOMPACT_MODEL"))
	}
	switch c.Kind {
	case Anthropic:
		c.BaseURL = first(c.BaseURL, getenv("ANTHROPIC_BASE_URL"), DefaultAnthropicURL)
		c.Model = first(c.Model, DefaultAnthropicModel)
	case OpenAI:
		c.BaseURL = first(c.BaseURL, getenv("OPENAI_BASE_URL"), DefaultOpenAIURL)
		if c.Model == "" {
			if !isOpenAI(c.BaseURL) {
				return c, fmt.Errorf("the openai summarizer needs --model (or MEMCOMPACT_MODEL) naming a model %s serves", c.BaseURL)
			}
			c.Model = DefaultOpenAIModel
		}
	case Claude, Command, Builtin, "":
		if c.BaseURL != "" {
			return c, fmt.Errorf("--base-url is for the anthropic and openai summarizers, not %s", c.Kind)
		}
		if c.Kind != Claude && c.Model != "" {
			return c, fmt.Errorf("--model is for the claude, anthropic and openai summarizers, not %s", c.Kind)
		}
	default:
		return c, fmt.Errorf("unknown summarizer %q", c.Kind)
	}
	if c.BaseURL != "" {
		u, err := url.Parse(c.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return c, fmt.Errorf("base URL %q is not an http or https URL", c.BaseURL)
		}
	}
	return c, nil
}

// Remote reports whether the summarizer sends the text off this machine:
// Claude Code always does (to Anthropic); an API does unless its base URL
// is a loopback address; a command is the user's own and is not judged.
func (c Config) Remote() bool {
	switch c.Kind {
	case Claude:
		return true
	case Anthropic, OpenAI:
		return !Loopback(c.BaseURL)
	}
	return false
}

// Where names where the text goes, for a consent question and --plan.
func (c Config) Where() string {
	switch c.Kind {
	case Claude:
		return "Claude Code (claude -p), which sends it to Anthropic"
	case Anthropic:
		return "the Anthropic Messages API at " + strings.TrimRight(c.BaseURL, "/") + "/v1/messages"
	case OpenAI:
		return "the chat-completions API at " + strings.TrimRight(c.BaseURL, "/") + "/chat/completions"
	case Command:
		return "the command " + c.Command
	}
	return "nowhere: the built-in summarizer runs in this process"
}

// Loopback reports whether rawURL's host is this machine (localhost,
// 127.0.0.0/8, ::1).
func Loopback(rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil {
		return false
	}
	h := u.Hostname()
	if strings.EqualFold(h, "localhost") {
		return true
	}
	// netip, not net: package net would link the C resolver, and with it
	// the dynamic loader, into every memcompact run.
	ip, err := netip.ParseAddr(h)
	return err == nil && ip.Zone() == "" && ip.IsLoopback()
}

func isOpenAI(base string) bool {
	u, err := url.Parse(base)
	return err == nil && strings.EqualFold(u.Hostname(), "api.openai.com")
}

func first(s ...string) string {
	for _, v := range s {
		if v = strings.TrimSpace(v); v != "" {
			return v
		}
	}
	return ""
}
