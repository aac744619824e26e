// Command memcompact-hook runs memcompact's Claude Code hooks with the
// start-up of the smallest program that can. Claude Code starts a hook
// process before every session and every Write or Edit; this executable
// links only what the hooks use (not even memcompact's command line), and
// is otherwise the same command:
//
//	memcompact-hook hook session-start|pre-write|post-read < HOOK-JSON
//
// prints, writes and exits exactly as "memcompact hook …" does (the same
// engine, hookrun, the same faces' text). Any other command line is handed
// to the memcompact executable beside it (or on PATH), so the two never
// disagree; an index holding an HTML comment is read with
// memcompact-full's parser (package companion says why there are three).
// "memcompact hooks install" makes the hooks run it when it is installed
// next to memcompact.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/memcompact/memcompact/internal/companion"
	"github.com/memcompact/memcompact/internal/entryfile"
	"github.com/memcompact/memcompact/internal/hookrun"
	"github.com/memcompact/memcompact/internal/mdblocks"
	"github.com/memcompact/memcompact/internal/userenv"
)

func main() {
	companion.Arrive()
	args := os.Args[1:]
	if !isHookRun(args) {
		os.Exit(delegate(args))
	}
	hookrun.CollectLate(os.Getenv)
	mdblocks.Use(mdblocks.Companion(companion.Full, companion.Main))
	entryfile.Use(entryfile.Companion(companion.Full, companion.Main))
	os.Exit(runHook(args[1], os.Stdin, os.Stdout, os.Stderr, os.Getenv, os.LookupEnv))
}

// isHookRun reports whether args are a command line this executable runs
// itself: "hook EVENT", nothing more (no flags, no help).
func isHookRun(args []string) bool {
	return len(args) == 2 && args[0] == "hook" && hookrun.IsEvent(args[1])
}

// runHook is "memcompact hook EVENT": the codes and the lines it prints
// are those of memcompact's face (internal/cli).
func runHook(event string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string, lookupEnv func(string) (string, bool)) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "memcompact: error: internal error: %v\n", r)
			fmt.Fprintf(stderr, "memcompact: hint: this is a bug; please report it with the input that caused it\n")
			code = 2
		}
	}()
	req := hookrun.Request{Event: event, Input: stdin, Getenv: getenv, LookupEnv: lookupEnv,
		Home: userenv.Home(getenv), Today: userenv.Today(getenv, time.Now), Now: time.Now}
	res, err := hookrun.Run(context.Background(), req)
	if err != nil {
		// Run refuses only an unknown event, which main never passes.
		fmt.Fprintf(stderr, "memcompact: error: %v\n", err)
		return 3
	}
	res.WriteNotes(stderr)
	if err := res.WriteJSON(stdout); err != nil {
		fmt.Fprintf(stderr, "memcompact: error: %v\n", err)
		return 2
	}
	return 0
}

// delegate runs memcompact with args, on this process's standard streams,
// and returns its exit code. Should "memcompact" be memcompact-hook
// itself (a copy or a link under that name), it refuses instead of handing
// the command on again, and again.
func delegate(args []string) int {
	bin, err := companion.Find(companion.Main)
	if err == nil && companion.Loop(companion.Main) {
		err = fmt.Errorf("the memcompact that memcompact-hook handed %q to is memcompact-hook itself", args)
	}
	if err == nil {
		err = companion.Replace(bin, companion.Main, args)
	}
	fmt.Fprintf(os.Stderr, "memcompact: error: memcompact-hook runs only \"hook session-start|pre-write|post-read\", and %v\n", err)
	fmt.Fprintf(os.Stderr, "memcompact: hint: %s\n", companion.InstallHint)
	return 3
}
