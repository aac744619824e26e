package summarize

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/extcmd"
)

// claudeModel runs Claude Code headless: `claude -p` with Instructions as
// its system prompt, the conversation on standard input, every tool turned
// off, no session kept, and the answer read from its JSON result.
type claudeModel struct {
	path    string // the claude binary
	model   string
	timeout time.Duration
}

// newClaude finds claude on PATH (look, usually exec.LookPath).
func newClaude(c Config, look func(string) (string, error)) (*claudeModel, error) {
	p, err := look("claude")
	if err != nil {
		return nil, errors.New("the claude summarizer runs Claude Code, but no claude command is on PATH; install it (npm install -g @anthropic-ai/claude-code) and log in, or choose another --summarizer")
	}
	return &claudeModel{path: p, model: c.Model, timeout: c.Timeout}, nil
}

// claudeArgs are the arguments claude is run with (after the binary).
func claudeArgs(model string) []string {
	args := []string{"-p", "--output-format", "json", "--tools", "", "--strict-mcp-config", "--no-session-persistence", "--system-prompt", Instructions}
	if model != "" {
		args = append(args, "--model", model)
	}
	return args
}

func (m *claudeModel) Name() string {
	if m.model != "" {
		return "claude -p --model " + m.model
	}
	return "claude -p"
}

// claudeResult is the part of `claude -p --output-format json`'s result
// object that is read.
type claudeResult struct {
	Type    string `json:"type"`
	Subtype string `json:"subtype"`
	IsError bool   `json:"is_error"`
	Result  string `json:"result"`
}

func (m *claudeModel) Complete(ctx context.Context, turns []Turn) (string, error) {
	args := append([]string{m.path}, claudeArgs(m.model)...)
	out, runErr := run(ctx, m.Name(), extcmd.Spec{Args: args, Stdin: flatten(turns), Timeout: runTimeout(m.timeout)})
	var r claudeResult
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &r); err != nil || r.Type != "result" {
		if runErr != nil {
			return "", runErr
		}
		return "", fmt.Errorf("%s answered in an unexpected shape (not its JSON result): %q", m.Name(), QuoteShort(strings.TrimSpace(out)))
	}
	if r.IsError || r.Subtype != "success" {
		what := QuoteShort(strings.TrimSpace(r.Result))
		if r.Subtype != "success" {
			what = r.Subtype + ": " + what
		}
		return "", fmt.Errorf("%s reported an error: %s", m.Name(), what)
	}
	if runErr != nil {
		return "", runErr
	}
	return r.Result, nil
}
