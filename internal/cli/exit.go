package cli

import (
	"errors"
	"fmt"

	"github.com/memcompact/memcompact/internal/outcome"
)

// exitError is an error that carries an exit code and optional hints. An
// exitError with a nil Err prints nothing: the verb has already rendered
// its result and only the code remains to be returned.
type exitError struct {
	Code  int
	Err   error
	Hints []string
}

func (e *exitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit %d", e.Code)
	}
	return e.Err.Error()
}

func (e *exitError) Unwrap() error { return e.Err }

// ExitCode returns the code.
func (e *exitError) ExitCode() int { return e.Code }

// exitCode returns a silent error carrying code, or nil for exitClean.
func exitCode(code int) error {
	if code == exitClean {
		return nil
	}
	return &exitError{Code: code}
}

// usagef is a usage error (exit 3).
func usagef(format string, a ...any) *exitError {
	return &exitError{Code: exitUsage, Err: fmt.Errorf(format, a...)}
}

// refusef is a refusal (exit 2).
func refusef(format string, a ...any) *exitError {
	return &exitError{Code: exitRefused, Err: fmt.Errorf(format, a...)}
}

// worst returns the higher of two exit codes: the worst outcome wins.
func worst(a, b int) int { return max(a, b) }

// engineError turns an engine's error into the CLI's: an *outcome.Error
// keeps its status and hints and prints its message (with its file, when
// it names one in the message); any other error is a refusal.
func engineError(err error) error {
	if err == nil {
		return nil
	}
	var e *outcome.Error
	if !errors.As(err, &e) {
		return &exitError{Code: exitRefused, Err: err}
	}
	return &exitError{Code: int(e.Status), Err: errors.New(e.Msg), Hints: e.Hints}
}

// hintsOf is an engine error's hints, or none.
func hintsOf(err error) []string {
	var e *outcome.Error
	if errors.As(err, &e) {
		return e.Hints
	}
	return nil
}

// rendered is the error of a verb that reached a verdict with code and
// then printed it: a failed print is a refusal, the worse code wins.
func rendered(code int, printErr error) error {
	if printErr != nil {
		return &exitError{Code: worst(code, exitRefused), Err: printErr}
	}
	return exitCode(code)
}
