package summarize

import (
	"strings"
	"testing"
)

// TestNewKinds: the package makes the two API models and nothing else;
// summarize's tests run both against loopback fakes.
func TestNewKinds(t *testing.T) {
	getenv := func(k string) string { return map[string]string{"ANTHROPIC_API_KEY": "k", "OPENAI_API_KEY": "k"}[k] }
	for _, k := range []Kind{Anthropic, OpenAI} {
		c, err := Config{Kind: k}.Resolve(getenv)
		if err != nil {
			t.Fatal(err)
		}
		m, err := newAPI(c, getenv)
		if err != nil || !strings.HasPrefix(m.Name(), string(k)+" ") {
			t.Errorf("%s: %v, %v", k, m, err)
		}
	}
	if _, err := newAPI(Config{Kind: Claude}, getenv); err == nil {
		t.Error("the claude summarizer made by the SDK package")
	}
}
