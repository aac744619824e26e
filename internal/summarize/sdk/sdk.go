// Package sdk holds the summarizers reached over HTTP through the official
// Go SDKs: Anthropic's Messages API ("anthropic") and any OpenAI-compatible
// chat-completions server ("openai").
//
// It is a package of its own because the SDKs' initialisation and size
// cost every run of an executable that links them several milliseconds.
// Importing it links them into package summarize (its init calls
// summarize.LinkAPI); only memcompact-full does, and memcompact hands it
// the command lines that name these summarizers.
package sdk

import (
	"fmt"
	"net/http"

	"github.com/memcompact/memcompact/internal/summarize"
)

func init() { summarize.LinkAPI(New) }

// New makes the model of the API summarizer c names (c is Resolved).
func New(c summarize.Config, getenv func(string) string) (summarize.Model, error) {
	return newModel(c, getenv, nil)
}

// Client is New with the SDKs sending through hc, so tests can point
// every request at a loopback fake whatever the base URL says.
func Client(hc *http.Client) summarize.APIFunc {
	return func(c summarize.Config, getenv func(string) string) (summarize.Model, error) {
		return newModel(c, getenv, hc)
	}
}

// newModel is New with hc (nil for the SDKs' own client).
func newModel(c summarize.Config, getenv func(string) string, hc *http.Client) (summarize.Model, error) {
	switch c.Kind {
	case summarize.Anthropic:
		return newAnthropic(c, getenv, hc)
	case summarize.OpenAI:
		return newOpenAI(c, getenv, hc)
	}
	return nil, fmt.Errorf("the %s summarizer is not an API", c.Kind)
}
