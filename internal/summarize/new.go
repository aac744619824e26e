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
	// SDKs' as the executable links them (LinkAPI). Tests give a fake.
	API APIFunc
}

// DefaultEnv is the process's environment.
func DefaultEnv(getenv func(string) string) Env {
	return Env{Getenv: getenv, LookPath: exec.LookPath}
}

// APIFunc makes the model of an API summarizer (anthropic or openai) from
// its Resolved Config.
type APIFunc func(c Config, getenv func(string) string) (Model, error)

// linkedAPI is the official SDKs' APIFunc, set by the executable's main.
var linkedAPI APIFunc

// LinkAPI gives New the models of the official SDKs. The executable calls
// it before anything runs; the models are its own, so that only what must
// link the SDKs does (see cmd/memcompact/apimodel.go).
func LinkAPI(f APIFunc) { linkedAPI = f }

// New makes the Model c names; c must be Resolved. The built-in summarizer
// is no Model (package distill runs it).
func New(c Config, env Env) (Model, error) {
	switch c.Kind {
	case Claude:
		return newClaude(c, env.LookPath)
	case Anthropic, OpenAI:
		api := env.API
		if api == nil {
			api = linkedAPI
		}
		if api == nil {
			return nil, fmt.Errorf("the %s summarizer is not built into this program", c.Kind)
		}
		return api(c, env.Getenv)
	case Command:
		return &commandModel{command: c.Command, timeout: c.Timeout}, nil
	}
	return nil, fmt.Errorf("the %s summarizer is not a model", c.Kind)
}
