// Package hookrun is the engine of the three Claude Code hooks memcompact
// runs in the user's loop ("memcompact hook pre-write|session-start|
// post-read"): it reads the hook's JSON, composes the write guard, the
// journal, doctor and the sweep's read counter, and returns the decision
// as data for the face to print.
//
// The pre-write hook is a guard, and a guard that cannot judge denies: a
// write to a memory file it could not judge (input it cannot read, a file
// or policy it cannot read, its own bug, its time budget) is denied with a
// reason that names the cause and the fix. The one way off is the user's
// own setting, MEMCOMPACT_GUARD=off in the hooks' environment, which every
// session-start note then reports. A call that writes no file or a file
// outside every memory store is allowed, with a note saying why. The
// session-start and post-read hooks guard nothing: what they cannot do is
// a note. Every failure of a hook is recorded (package hookstate) and
// reported by the next session-start note and by doctor.
package hookrun

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/memcompact/memcompact/internal/hookjson"
	"github.com/memcompact/memcompact/internal/hookstate"
	"github.com/memcompact/memcompact/internal/journal"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/writeguard"
)

// The events, as the face names them on the command line.
const (
	EventPreWrite     = "pre-write"
	EventSessionStart = "session-start"
	EventPostRead     = "post-read"
)

// ReasonUnknownEvent is the reason of a request that names no event, or one
// this engine does not run.
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
	// Version is memcompact's, which a dry run reports.
	Version string
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
	// Failures are the notes that say what the hook could not do: recorded
	// for the next session-start note and doctor (package hookstate).
	Failures []string

	session string // Claude Code's session id, for the record
}

// Run runs one hook event. Its only error is a usage error for an unknown
// event; every other outcome is a decision (see the package comment).
func Run(ctx context.Context, req Request) (res *Result, err error) {
	if !IsEvent(req.Event) {
		return nil, outcome.Usagef(ReasonUnknownEvent, "hook needs one event: session-start, pre-write or post-read")
	}
	res = &Result{Event: req.Event}
	defer res.record(req)
	// A bug of memcompact's own must not crash the hook (a stack trace on
	// stderr, read by nobody): pre-write denies, as for any call it could
	// not judge; the other hooks allow. Either way it is recorded.
	defer func() {
		if r := recover(); r != nil {
			res.Deny, res.Context = "", ""
			msg := fmt.Sprintf("internal error (%v) — this is a bug, please report it", r)
			if req.Event == EventPreWrite {
				res.fail("%s; denied", msg)
				res.Deny = cannotJudgeCall(fmt.Sprintf("memcompact hit an internal error judging this call (%v), a bug to report", r))
			} else {
				res.fail("%s; allowing", msg)
			}
			err = nil
		}
	}()
	in, rerr := readInput(req.Input, inputBudget(req.Getenv))
	if rerr != nil {
		if req.Event == EventPreWrite {
			res.fail("%v; denied", rerr)
			res.Deny = cannotJudgeCall("memcompact could not read the call Claude Code sent its pre-write hook (" + rerr.Error() + ")")
			return res, nil
		}
		res.fail("%v; allowing", rerr)
		return res, nil
	}
	if in.SessionID == hookjson.DrySession {
		// "hooks install" or doctor trying the command it wrote: answer
		// at once, changing and recording nothing.
		res.note("dry run: memcompact %s runs this hook", req.Version)
		return res, nil
	}
	res.session = in.SessionID
	switch req.Event {
	case EventPreWrite:
		preWrite(ctx, req, in, res)
	case EventPostRead:
		postRead(req, in, res)
	default:
		sessionStart(ctx, req, in, res)
		reportHooks(req, res)
	}
	return res, nil
}

func (r *Result) note(format string, a ...any) {
	r.Notes = append(r.Notes, fmt.Sprintf(format, a...))
}

// fail is note for what the hook could not do: it is recorded too.
func (r *Result) fail(format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	r.Notes = append(r.Notes, msg)
	r.Failures = append(r.Failures, msg)
}

// cannotJudgeCall is the denial of a pre-write call the hook could not
// judge before it knew which file the call writes (why): it cannot let it
// through as one outside every memory store.
func cannotJudgeCall(why string) string {
	return "memcompact blocked this write: " + why +
		", so it cannot judge it and denies it rather than let it through unjudged.\n- Try the write again; if it is denied again, tell the user: " +
		"'memcompact doctor' shows the hook's failures. Only the user can switch the guard off, on purpose, with " +
		writeguard.GuardSetting + "=off in the hooks' environment"
}

// record writes the run's failures to the hook record in memcompact's data
// directory (package hookstate). It never fails the hook: a record that
// cannot be written is a note.
func (r *Result) record(req Request) {
	if len(r.Failures) == 0 {
		return
	}
	dir, err := journal.DataDir(req.Getenv, req.Home)
	if err != nil {
		r.note("cannot record this hook's failure: %v", err)
		return
	}
	now := time.Now
	if req.Now != nil {
		now = req.Now
	}
	for _, f := range r.Failures {
		if err := hookstate.Record(dir, hookstate.Event{At: now(), Hook: r.Event, Session: r.session, Failure: f}); err != nil {
			r.note("cannot record this hook's failure: %v", err)
			return
		}
	}
}

// WriteJSON prints the hook's stdout: the PreToolUse decision object of a
// denial, or the SessionStart object carrying the note; nothing when the
// call is allowed or the store is healthy.
func (r *Result) WriteJSON(w io.Writer) error {
	var out []byte
	switch {
	case r.Deny != "":
		out = hookjson.Deny(r.Deny)
	case r.Context != "":
		out = hookjson.SessionContext(r.Context)
	default:
		return nil
	}
	_, err := w.Write(out)
	return err
}

// InputBudget is how long a hook waits for its JSON on stdin. Claude Code
// writes it as it starts the hook; a client that never sends it whole
// must not hold the hook past its timeout (Claude Code lets a call through
// when its hook times out), so the pre-write hook denies instead. With
// writeguard.HookBudget it stays inside the 10 seconds hooks install
// gives the hook.
const InputBudget = 3 * time.Second

// inputBudget is InputBudget, or MEMCOMPACT_HOOK_INPUT_BUDGET (a Go
// duration) where a test sets it.
func inputBudget(getenv func(string) string) time.Duration {
	if d, err := time.ParseDuration(getenv("MEMCOMPACT_HOOK_INPUT_BUDGET")); err == nil && d > 0 {
		return d
	}
	return InputBudget
}

// readInput is hookjson.ReadInput bounded by budget. A read cut off goes
// on in its goroutine until the process exits, right after the hook; a
// panic in it panics again here, where Run turns it into a decision.
func readInput(r io.Reader, budget time.Duration) (*hookjson.Input, error) {
	type read struct {
		in       *hookjson.Input
		err      error
		panicked any
	}
	done := make(chan read, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- read{panicked: p}
			}
		}()
		in, err := hookjson.ReadInput(r)
		done <- read{in: in, err: err}
	}()
	timer := time.NewTimer(budget)
	defer timer.Stop()
	select {
	case got := <-done:
		if got.panicked != nil {
			panic(got.panicked)
		}
		return got.in, got.err
	case <-timer.C:
		return nil, fmt.Errorf("the hook input did not arrive whole within %s (expected Claude Code's hook JSON on stdin)", budget)
	}
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
