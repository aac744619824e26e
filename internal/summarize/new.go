package summarize

import (
	"fmt"
	"os/exec"
)

// Env is what New reads from outside: the environment and PATH. Tests
// replace them; the zero Env is not usable, see DefaultEnv.
type Env struct {
	Getenv   func(string) string
	LookPath func(string) (string, error)
	// API makes the anthropic and openai models; nil for the official
	// SDKs' (tests point it at a loopback fake).
	API APIFunc
}

// DefaultEnv is the process's environment.
func DefaultEnv(getenv func(string) string) Env {
	return Env{Getenv: getenv, LookPath: exec.LookPath}
}

// APIFunc makes the model of an API summarizer (anthropic or openai) from
// its Resolved Config.
type APIFunc func(c Config, getenv func(string) string) (Model, error)

// New makes the Model c names; c must be Resolved. The built-in summarizer
// is no Model (package distill runs it).
func New(c Config, env Env) (Model, error) {
	switch c.Kind {
	case Claude:
		return newClaude(c, env.LookPath)
	case Anthropic, OpenAI:
		api := env.API
		if api == nil {
			api = newAPI
		}
		return api(c, env.Getenv)
	case Command:
		return &commandModel{command: c.Command, timeout: c.Timeout}, nil
	}
	return nil, fmt.Errorf("the %s summarizer is not a model", c.Kind)
}
