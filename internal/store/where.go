package store

import (
	"errors"

	"github.com/memcompact/memcompact/internal/outcome"
)

// Where is what finding the current project's store consults: the
// environment (CLAUDE_CONFIG_DIR and the settings it names), the home
// directory and the working directory. Engines take it in their Request so
// that the CLI and the MCP server resolve a missing INDEX the same way.
type Where struct {
	Getenv func(string) string
	Home   string
	Cwd    string // "" when the working directory is unknown
}

// ReasonNoIndex is the outcome reason of a verb given no index when the
// current project has none.
const ReasonNoIndex outcome.Reason = "no-index"

// DefaultIndex returns the current project's index for verb. When there is
// none it returns the path it expected (possibly "") and a usage error
// whose hints say where it looked and how to name an index.
func (w Where) DefaultIndex(verb string) (string, error) {
	if w.Cwd == "" {
		return "", &outcome.Error{Status: outcome.Usage, Reason: ReasonNoIndex,
			Msg:   "no index given, and the working directory is unknown",
			Hints: []string{"name the index: memcompact " + verb + " path/to/MEMORY.md"}}
	}
	getenv := w.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	found, _, err := FindIndex(getenv, w.Home, w.Cwd)
	if err != nil {
		e := &outcome.Error{Status: outcome.Usage, Reason: ReasonNoIndex, Msg: err.Error(), Err: err}
		var nie *NoIndexError
		if errors.As(err, &nie) {
			e.Hints = nie.HintsFor(verb)
		}
		return found, e
	}
	return found, nil
}
