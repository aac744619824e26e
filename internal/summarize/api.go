package summarize

import (
	"fmt"
	"net/http"
)

// The summarizers reached over HTTP through the official Go SDKs:
// Anthropic's Messages API ("anthropic") and any OpenAI-compatible
// chat-completions server ("openai").

// newAPI makes the model of the API summarizer c names (c is Resolved),
// through the official SDKs.
func newAPI(c Config, getenv func(string) string) (Model, error) {
	return newModel(c, getenv, nil)
}

// APIClient is newAPI with the SDKs sending through hc, so tests can point
// every request at a loopback fake whatever the base URL says.
func APIClient(hc *http.Client) APIFunc {
	return func(c Config, getenv func(string) string) (Model, error) {
		return newModel(c, getenv, hc)
	}
}

// newModel is New with hc (nil for the SDKs' own client).
func newModel(c Config, getenv func(string) string, hc *http.Client) (Model, error) {
	switch c.Kind {
	case Anthropic:
		return newAnthropic(c, getenv, hc)
	case OpenAI:
		return newOpenAI(c, getenv, hc)
	}
	return nil, fmt.Errorf("the %s summarizer is not an API", c.Kind)
}
