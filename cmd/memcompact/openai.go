package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/memcompact/memcompact/internal/summarize"
)

type openaiError = openai.Error

// openaiModel calls a chat-completions endpoint through the official SDK:
// OpenAI's, or any server that speaks the same protocol.
type openaiModel struct {
	client  openai.Client
	model   string
	base    string
	timeout time.Duration
}

func newOpenAI(c summarize.Config, getenv func(string) string) (*openaiModel, error) {
	key := strings.TrimSpace(getenv("OPENAI_API_KEY"))
	if key == "" {
		if !summarize.Loopback(c.BaseURL) {
			return nil, fmt.Errorf("the openai summarizer needs an API key in OPENAI_API_KEY for %s", c.BaseURL)
		}
		// A local server (Ollama, llama.cpp, vLLM, LM Studio) takes any key.
		key = "local"
	}
	opts := []option.RequestOption{
		option.WithAPIKey(key),
		option.WithBaseURL(c.BaseURL),
		option.WithMaxRetries(summarize.MaxRetries),
		option.WithRequestTimeout(c.Timeout),
	}
	return &openaiModel{client: openai.NewClient(opts...), model: c.Model, base: c.BaseURL, timeout: c.Timeout}, nil
}

func (m *openaiModel) Name() string {
	return fmt.Sprintf("openai %s at %s", m.model, m.base)
}

func (m *openaiModel) Complete(ctx context.Context, turns []summarize.Turn) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, m.timeout*(summarize.MaxRetries+1))
	defer cancel()
	msgs := []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(summarize.Instructions)}
	for _, t := range turns {
		if t.Role == "assistant" {
			msgs = append(msgs, openai.AssistantMessage(t.Text))
		} else {
			msgs = append(msgs, openai.UserMessage(t.Text))
		}
	}
	resp, err := m.client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
		Model:    m.model,
		Messages: msgs,
	})
	if err != nil {
		return "", apiError(ctx, m.Name(), err)
	}
	if len(resp.Choices) == 0 {
		return "", errors.New(m.Name() + " answered with no choices")
	}
	ch := resp.Choices[0]
	switch {
	case ch.Message.Refusal != "":
		return "", fmt.Errorf("%s refused to answer: %q", m.Name(), summarize.QuoteShort(ch.Message.Refusal))
	case ch.FinishReason == "length":
		return "", fmt.Errorf("%s stopped at its length limit: the answer is cut off", m.Name())
	case strings.TrimSpace(ch.Message.Content) == "":
		return "", fmt.Errorf("%s answered with no text (finish reason %q)", m.Name(), ch.FinishReason)
	}
	return ch.Message.Content, nil
}
