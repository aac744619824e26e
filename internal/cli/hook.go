package cli

import (
	"context"
	"fmt"

	"github.com/memcompact/memcompact/internal/hookrun"
	"github.com/memcompact/memcompact/internal/outcome"
)

func init() {
	register(&command{
		name:  "hook",
		usage: hookUsage,
		short: "run as a Claude Code hook (reads the hook's JSON on stdin)",
		long: `pre-write is a PreToolUse hook for Write, Edit and MultiEdit. For a file
inside a memory store it computes the file as the call would leave it and
denies the call, with a reason the agent can act on, when the call would
edit a stale copy of the file, write a secret, or (for MEMORY.md) cut a
subject past the load cut, grow an index over its budget, leave a subject
without a recall hook, add an unattributed shared note, or drop a pointer
with no exit recorded in LEDGER.md. It judges only what the call changes.

session-start is a SessionStart hook: it finds the store of the session's
working directory and, when something is wrong with it, gives the agent a
short note (entries past the load cut, over budget, subjects without hooks,
secrets). A healthy store gets no output.

Both always exit 0 and allow what they cannot judge (input that is not
hook JSON, a tool they do not handle, a path outside any store, a store
they cannot read), saying why on stderr: a guard must never lock a user
out of their own files. The one exception is time: pre-write judges within
6 seconds (MEMCOMPACT_HOOK_BUDGET changes it), inside the timeout hooks
install sets, and denies a memory-file write it could not judge in time
rather than let it through unjudged. Install them with 'memcompact hooks
install'.

Exit codes: 0 always once the event is known (allowed or denied, the
decision is in the JSON on stdout); 3 for a missing or unknown event.`,
		run: runHook,
	})
}

const hookUsage = "hook session-start|pre-write < HOOK-JSON"

// hookHints are the hints of the hook verb's usage errors, by reason.
var hookHints = map[outcome.Reason]string{hookrun.ReasonUnknownEvent: "usage: memcompact " + hookUsage}

func runHook(env *Env, args []string) error {
	fs := newFlagSet("hook")
	pos, err := parseFlags(env, fs, hookUsage, args)
	if err != nil {
		return err
	}
	req := hookrun.Request{Input: env.Stdin, Getenv: env.Getenv, LookupEnv: env.LookupEnv, Home: env.Home(), Today: env.Today(), Now: env.Now}
	if len(pos) == 1 {
		req.Event = pos[0]
	}
	res, err := hookrun.Run(context.Background(), req)
	if err != nil {
		return fail(err, hookHints)
	}
	for _, n := range res.Notes {
		fmt.Fprintf(env.Stderr, "memcompact hook %s: %s\n", res.Event, n)
	}
	return res.WriteJSON(env.Stdout)
}
