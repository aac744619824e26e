package main

// The summarizers reached over HTTP through the official Go SDKs:
// Anthropic's Messages API ("anthropic", anthropic.go) and any
// OpenAI-compatible chat-completions server ("openai", openai.go).
//
// They live in the executable, not in package summarize, because the SDKs
// are most of the executable's size: a test binary that links them takes
// four times as long to link, and every package above summarize paid that
// in its tests. main gives them to summarize (summarize.LinkAPI); tests
// elsewhere that need a model give a fake (summarize.Env.API), and the
// tests here run both SDKs against loopback fakes.

import (
	"fmt"

	"github.com/memcompact/memcompact/internal/summarize"
)

// newAPIModel makes the model of the API summarizer c names (c is
// Resolved), through the official SDKs: the executable's
// summarize.APIFunc.
func newAPIModel(c summarize.Config, getenv func(string) string) (summarize.Model, error) {
	switch c.Kind {
	case summarize.Anthropic:
		return newAnthropic(c, getenv)
	case summarize.OpenAI:
		return newOpenAI(c, getenv)
	}
	return nil, fmt.Errorf("the %s summarizer is not an API", c.Kind)
}
