// Package outcome holds the typed verdict every engine returns, so the faces
// (the CLI and the MCP server) choose exit codes, hints and error objects
// from a status and a reason code rather than from an error's message text.
//
// An engine's Run returns (*Result, error). A nil error with a Result means
// the engine reached a verdict (clean or defects); an *Error means it did
// not (refused or usage), and names why with a Reason the faces can switch
// on. Other errors are treated as refusals by the faces.
package outcome

import (
	"errors"
	"fmt"
	"io"
)

// Status is the kind of outcome. Its numeric value is the exit code the CLI
// uses, shared with the reference scripts: 0 clean, 1 defects, 2 refused,
// 3 usage error.
type Status int

// The four outcomes, worst last.
const (
	Clean   Status = 0 // nothing wrong, or nothing to do
	Defects Status = 1 // findings reported
	Refused Status = 2 // input not fully recognized, or a write was not safe
	Usage   Status = 3 // the request (flags, paths) is wrong
)

// String is the name the JSON objects use for a status.
func (s Status) String() string {
	switch s {
	case Clean:
		return "clean"
	case Defects:
		return "defects"
	case Refused:
		return "refused"
	case Usage:
		return "usage-error"
	}
	return fmt.Sprintf("status(%d)", int(s))
}

// Worst returns the worse of two statuses: the worst outcome wins.
func Worst(a, b Status) Status { return max(a, b) }

// Reason is a stable, machine-readable code for why an engine refused or
// rejected a request ("not-in-policy", "changed-underneath", …). Faces pick
// hints by Reason; the wording of Error.Msg may change freely.
type Reason string

// Error is an engine's refusal or usage error: the status, a typed reason,
// a message for people, and optionally the file and line it concerns.
type Error struct {
	Status Status
	Reason Reason
	Msg    string
	File   string // optional: the file the refusal concerns
	Line   int    // optional: 1-based line in File, 0 when none
	Hints  []string
	Err    error // optional: the underlying cause
}

func (e *Error) Error() string {
	msg := e.Msg
	if e.File != "" {
		loc := e.File
		if e.Line > 0 {
			loc = fmt.Sprintf("%s:%d", e.File, e.Line)
		}
		msg = loc + ": " + msg
	}
	if e.Err != nil && e.Msg == "" {
		return e.Err.Error()
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// Refuse returns a refusal with a reason and a formatted message.
func Refuse(reason Reason, format string, a ...any) *Error {
	return &Error{Status: Refused, Reason: reason, Msg: fmt.Sprintf(format, a...)}
}

// Usagef returns a usage error with a reason and a formatted message.
func Usagef(reason Reason, format string, a ...any) *Error {
	return &Error{Status: Usage, Reason: reason, Msg: fmt.Sprintf(format, a...)}
}

// StatusOf is the status an error stands for: an *Error's own, Refused for
// any other non-nil error, Clean for nil.
func StatusOf(err error) Status {
	if err == nil {
		return Clean
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Status
	}
	return Refused
}

// ReasonOf is an error's Reason, or "" when it carries none.
func ReasonOf(err error) Reason {
	var e *Error
	if errors.As(err, &e) {
		return e.Reason
	}
	return ""
}

// MessageOf is the message of an error for a face to print: an *Error's
// Msg (its file, when it has one, is named elsewhere), else err.Error().
func MessageOf(err error) string {
	var e *Error
	if errors.As(err, &e) && e.Msg != "" {
		return e.Msg
	}
	return err.Error()
}

// The kinds of line memcompact says on standard error.
const (
	KindError   = "error"
	KindHint    = "hint"
	KindWarning = "warning"
)

// Line is one line of memcompact's voice on standard error:
// "memcompact: KIND: text", without its newline. The faces say every
// error, hint and warning through it (Say, or Line where the lines are
// collected, as the MCP server's text content does); engines never print.
func Line(kind, text string) string { return "memcompact: " + kind + ": " + text }

// Say writes Line(kind, text) and a newline to w.
func Say(w io.Writer, kind, text string) { io.WriteString(w, Line(kind, text)+"\n") }
