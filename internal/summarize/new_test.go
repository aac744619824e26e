package summarize

import (
	"errors"
	"testing"

	"github.com/memcompact/memcompact/internal/outcome"
)

// TestNotLinked: in an executable that does not link the SDKs, an API
// summarizer is outcome.ErrNotLinked (memcompact hands the command line to
// memcompact-full), never a guess or a crash; the others need no SDK.
func TestNotLinked(t *testing.T) {
	prev := linked.Get()
	LinkAPI(nil)
	t.Cleanup(func() { LinkAPI(prev) })
	for _, k := range []Kind{Anthropic, OpenAI} {
		c, _ := Config{Kind: k}.Resolve(envOf(map[string]string{"ANTHROPIC_API_KEY": "k", "OPENAI_API_KEY": "k"}))
		if _, err := New(c, Env{Getenv: envOf(nil)}); !errors.Is(err, outcome.ErrNotLinked) {
			t.Errorf("%s without the SDKs: %v, want ErrNotLinked", k, err)
		}
	}
	c, _ := Config{Kind: Command, Command: "cat"}.Resolve(envOf(nil))
	if _, err := New(c, Env{Getenv: envOf(nil)}); err != nil {
		t.Errorf("a command summarizer needs no SDK: %v", err)
	}
}
