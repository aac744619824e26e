package cli

import (
	"context"

	"github.com/memcompact/memcompact/internal/hookrun"
	"github.com/memcompact/memcompact/internal/outcome"
)

func init() {
	register(hookUsage, runHook)
}

const hookUsage = "hook session-start|pre-write|post-read < HOOK-JSON"

// hookHints are the hints of the hook verb's usage errors, by reason.
var hookHints = map[outcome.Reason]string{hookrun.ReasonUnknownEvent: "usage: memcompact " + hookUsage}

func runHook(env *Env, args []string) error {
	fs := newFlagSet("hook")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	req := hookrun.Request{Input: env.Stdin, Getenv: env.Getenv, LookupEnv: env.LookupEnv, Home: env.Home(), Today: env.Today(), Now: env.Now, Version: Version}
	if len(pos) == 1 {
		req.Event = pos[0]
	}
	res, err := hookrun.Run(context.Background(), req)
	if err != nil {
		return fail(err, hookHints)
	}
	res.WriteNotes(env.Stderr)
	return res.WriteJSON(env.Stdout)
}
