// Package hookrun is the engine of the three Claude Code hooks memcompact
// runs in the user's loop ("memcompact hook pre-write|session-start|
// post-read"): it reads the hook's JSON, composes the write guard, the
// journal, doctor and the sweep's read counter, and returns the decision
// as data for the face to print.
//
// A hook must never lock a user out of their own files, so everything it
// cannot judge — input that is not hook JSON, a tool it does not handle, a
// path outside any store, an unreadable store, its own bugs — is allowed,
// with a note saying why. The one exception is time: pre-write denies a
// memory-file write it could not judge within its budget rather than let it
// through unjudged.
package hookrun

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/memcompact/memcompact/internal/claudehooks"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/writeguard"
)

// The events, as the face names them on the command line.
const (
	EventPreWrite     = "pre-write"
	EventSessionStart = "session-start"
	EventPostRead     = "post-read"
)

// ReasonUnknownEvent: the request names no event, or one this engine does
// not run.
const ReasonUnknownEvent outcome.Reason = "unknown-event"

// Request is one run of a hook.
type Request struct {
	Event  string    // EventPreWrite, EventSessionStart or EventPostRead
	Input  io.Reader // the hook's JSON, as Claude Code sends it on stdin
	Getenv func(string) string
	// LookupEnv tells a variable set to "" from one not set (see
	// store.Options.LookupEnv); nil counts "" as unset.
	LookupEnv func(string) (string, bool)
	Home      string
	Today     time.Time
	Now       func() time.Time
}

// Result is a hook's decision. A hook always exits 0 once its event is
// known: a denial or a note travels in the JSON it prints.
type Result struct {
	Event string
	// Deny, when not empty, is why a pre-write call is blocked; the agent
	// reads it, so it says what to do instead.
	Deny string
	// Context, when not empty, is the note a session-start gives the agent.
	Context string
	// Notes say, for stderr, why the hook allowed without judging or what
	// it could not do on the way (the journal, the read counter).
	Notes []string
}

// Run runs one hook event. Its only error is a usage error for an unknown
// event; everything else is an allow with a note, so a bug or an
// unreadable store never blocks the user.
func Run(ctx context.Context, req Request) (res *Result, err error) {
	if !IsEvent(req.Event) {
		return nil, outcome.Usagef(ReasonUnknownEvent, "hook needs one event: session-start, pre-write or post-read")
	}
	res = &Result{Event: req.Event}
	// A hook must fail open: a panic would exit 2, which Claude Code reads
	// as "block the call", so a bug is caught and allowed.
	defer func() {
		if r := recover(); r != nil {
			res.Deny, res.Context = "", ""
			res.note("internal error (%v); allowing — this is a bug, please report it", r)
			err = nil
		}
	}()
	in, rerr := claudehooks.ReadInput(req.Input)
	if rerr != nil {
		res.note("%v; allowing", rerr)
		return res, nil
	}
	switch req.Event {
	case EventPreWrite:
		preWrite(ctx, req, in, res)
	case EventPostRead:
		postRead(req, in, res)
	default:
		sessionStart(ctx, req, in, res)
	}
	return res, nil
}

func (r *Result) note(format string, a ...any) {
	r.Notes = append(r.Notes, fmt.Sprintf(format, a...))
}

// WriteJSON prints the hook's stdout: the PreToolUse decision object of a
// denial, or the SessionStart object carrying the note; nothing when the
// call is allowed or the store is healthy.
func (r *Result) WriteJSON(w io.Writer) error {
	var out []byte
	switch {
	case r.Deny != "":
		out = claudehooks.Deny(r.Deny)
	case r.Context != "":
		out = claudehooks.SessionContext(r.Context)
	default:
		return nil
	}
	_, err := w.Write(out)
	return err
}

// budget is the pre-write hook's time budget: writeguard.HookBudget, or
// MEMCOMPACT_HOOK_BUDGET (a Go duration) where a test or a slow machine
// sets it.
func budget(getenv func(string) string) time.Duration {
	if d, err := time.ParseDuration(getenv("MEMCOMPACT_HOOK_BUDGET")); err == nil && d > 0 {
		return d
	}
	return writeguard.HookBudget
}
