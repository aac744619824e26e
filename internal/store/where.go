package store

import (
	"errors"
	"os"

	"github.com/memcompact/memcompact/internal/outcome"
)

// Where is what finding the current project's store consults: the
// environment (CLAUDE_CONFIG_DIR and the settings it names), the home
// directory and the working directory. Engines take it in their Request so
// that the CLI and the MCP server resolve a missing INDEX the same way.
type Where struct {
	Getenv func(string) string
	// LookupEnv, when set, tells a variable set to "" from one not set
	// (see Options.LookupEnv); nil counts an empty value as unset.
	LookupEnv func(string) (string, bool)
	Home      string
	Cwd       string // "" when the working directory is unknown
	// Settings is the value of claude's --settings flag the session is
	// started with, which may set autoMemoryDirectory; usually "".
	Settings string
}

// Here is the Where of this process: getenv and home as given, and the
// working directory, or "" when it cannot be found (a missing INDEX is then
// looked for as if from nowhere and reported missing, never guessed).
func Here(getenv func(string) string, home string) Where {
	cwd, err := os.Getwd()
	if err != nil {
		cwd = ""
	}
	return Where{Getenv: getenv, Home: home, Cwd: cwd}
}

// Options is what a session started as w is started with.
func (w Where) Options() Options {
	return Options{FlagSettings: w.Settings, LookupEnv: w.LookupEnv}
}

// ReasonNoIndex is the outcome reason of a verb given no index when the
// current project has none.
const ReasonNoIndex outcome.Reason = "no-index"

// DefaultIndex returns the current project's index for verb. When there is
// none it returns the path it expected (possibly "") and a usage error
// whose hints say where it looked and how to name an index.
func (w Where) DefaultIndex(verb string) (string, error) {
	_, p, err := w.LocateIndex(verb)
	return p, err
}

// LocateIndex is DefaultIndex returning also the store's Location (which
// rule chose it); the Location is nil only when the working directory is
// unknown.
func (w Where) LocateIndex(verb string) (*Location, string, error) {
	if w.Cwd == "" {
		return nil, "", &outcome.Error{Status: outcome.Usage, Reason: ReasonNoIndex,
			Msg:   "no index given, and the working directory is unknown",
			Hints: []string{"name the index: memcompact " + verb + " path/to/MEMORY.md"}}
	}
	getenv := w.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	loc, found, _, err := FindIndexWith(getenv, w.Home, w.Cwd, w.Options())
	if err != nil {
		e := &outcome.Error{Status: outcome.Usage, Reason: ReasonNoIndex, Msg: err.Error(), Err: err}
		var nie *NoIndexError
		if errors.As(err, &nie) {
			e.Hints = nie.HintsFor(verb)
		}
		return &loc, found, e
	}
	return &loc, found, nil
}
