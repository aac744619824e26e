package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/memcompact/memcompact/internal/summarize"
)

// anthropicModel calls the Messages API through the official SDK.
type anthropicModel struct {
	client  anthropic.Client
	model   string
	base    string
	timeout time.Duration
}

func newAnthropic(c summarize.Config, getenv func(string) string) (*anthropicModel, error) {
	key := strings.TrimSpace(getenv("ANTHROPIC_API_KEY"))
	if key == "" {
		return nil, errors.New("the anthropic summarizer needs an API key in ANTHROPIC_API_KEY (or use --summarizer claude, which uses Claude Code's login)")
	}
	opts := []option.RequestOption{
		option.WithAPIKey(key),
		option.WithBaseURL(c.BaseURL),
		option.WithMaxRetries(summarize.MaxRetries),
		option.WithRequestTimeout(c.Timeout),
	}
	return &anthropicModel{client: anthropic.NewClient(opts...), model: c.Model, base: c.BaseURL, timeout: c.Timeout}, nil
}

func (m *anthropicModel) Name() string {
	return fmt.Sprintf("anthropic %s at %s", m.model, m.base)
}

func (m *anthropicModel) Complete(ctx context.Context, turns []summarize.Turn) (string, error) {
	// The deadline spans the SDK's retries; each attempt has its own too.
	ctx, cancel := context.WithTimeout(ctx, m.timeout*(summarize.MaxRetries+1))
	defer cancel()
	var msgs []anthropic.MessageParam
	for _, t := range turns {
		if t.Role == "assistant" {
			msgs = append(msgs, anthropic.NewAssistantMessage(anthropic.NewTextBlock(t.Text)))
		} else {
			msgs = append(msgs, anthropic.NewUserMessage(anthropic.NewTextBlock(t.Text)))
		}
	}
	msg, err := m.client.Messages.New(ctx, anthropic.MessageNewParams{
		Model:     anthropic.Model(m.model),
		MaxTokens: summarize.MaxTokens,
		System:    []anthropic.TextBlockParam{{Text: summarize.Instructions}},
		Messages:  msgs,
	})
	if err != nil {
		return "", apiError(ctx, m.Name(), err)
	}
	var text strings.Builder
	for _, b := range msg.Content {
		if b.Type == "text" {
			text.WriteString(b.Text)
		}
	}
	switch msg.StopReason {
	case anthropic.StopReasonMaxTokens:
		return "", fmt.Errorf("%s stopped at its token limit (%d): the answer is cut off", m.Name(), summarize.MaxTokens)
	case anthropic.StopReasonRefusal:
		return "", fmt.Errorf("%s refused to answer: %q", m.Name(), summarize.QuoteShort(text.String()))
	}
	if strings.TrimSpace(text.String()) == "" {
		return "", fmt.Errorf("%s answered with no text (stop reason %q)", m.Name(), msg.StopReason)
	}
	return text.String(), nil
}

// apiError turns an SDK's error into one that says what happened: the
// status and the server's own message, or the timeout.
func apiError(ctx context.Context, name string, err error) error {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%s timed out: %v", name, err)
	}
	var status int
	var body string
	var ae *anthropic.Error
	var oe *openaiError
	switch {
	case errors.As(err, &ae):
		status, body = ae.StatusCode, ae.RawJSON()
	case errors.As(err, &oe):
		status, body = oe.StatusCode, oe.RawJSON()
	default:
		return fmt.Errorf("%s failed: %v", name, err)
	}
	what := http.StatusText(status)
	switch status {
	case http.StatusUnauthorized:
		what = "the API key was not accepted (401)"
	case http.StatusForbidden:
		what = "the request was refused (403)"
	case http.StatusTooManyRequests:
		what = fmt.Sprintf("rate limited (429), still after %d retries", summarize.MaxRetries)
	default:
		what = fmt.Sprintf("%s (%d)", what, status)
	}
	if body = strings.TrimSpace(body); body != "" {
		return fmt.Errorf("%s: %s: %s", name, what, summarize.QuoteShort(body))
	}
	return fmt.Errorf("%s: %s", name, what)
}
