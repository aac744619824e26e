package summarize

import (
	"fmt"
	"net/http"
	"os/exec"
)

// Env is what New reads from outside: the environment and PATH. Tests
// replace them; the zero Env is not usable, see DefaultEnv.
type Env struct {
	Getenv   func(string) string
	LookPath func(string) (string, error)
	HTTP     *http.Client // nil for the SDKs' own
}

// DefaultEnv is the process's environment.
func DefaultEnv(getenv func(string) string) Env {
	return Env{Getenv: getenv, LookPath: exec.LookPath}
}

// New makes the Model c names; c must be Resolved. The built-in summarizer
// is no Model (package distill runs it).
func New(c Config, env Env) (Model, error) {
	switch c.Kind {
	case Claude:
		return newClaude(c, env.LookPath)
	case Anthropic:
		return newAnthropic(c, env.Getenv, env.HTTP)
	case OpenAI:
		return newOpenAI(c, env.Getenv, env.HTTP)
	case Command:
		return &commandModel{command: c.Command, timeout: c.Timeout}, nil
	}
	return nil, fmt.Errorf("the %s summarizer is not a model", c.Kind)
}
