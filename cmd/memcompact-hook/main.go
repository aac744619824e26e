// Command memcompact-hook runs memcompact's Claude Code hooks with the
// start-up of a small program. Claude Code starts a hook process before
// every session and every Write or Edit; memcompact itself links the
// Anthropic, OpenAI and MCP SDKs, whose initialisation and size cost every
// one of its runs about 5 ms before main begins. This executable links
// only what the hooks use, and is otherwise the same command:
//
//	memcompact-hook hook session-start|pre-write|post-read < HOOK-JSON
//
// prints, writes and exits exactly as "memcompact hook …" does (the same
// engine, hookrun, the same faces' text). Any other command line is handed
// to the memcompact executable beside it (or on PATH), so the two never
// disagree. "memcompact hooks install" makes the hooks run it when it is
// installed next to memcompact.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"time"

	"github.com/memcompact/memcompact/internal/hookrun"
	"github.com/memcompact/memcompact/internal/mdblocks"
	"github.com/memcompact/memcompact/internal/userenv"
)

// handedEnv marks the environment of a command memcompact-hook handed to
// memcompact: should "memcompact" be memcompact-hook itself (a copy or a
// link under that name), it refuses instead of handing the command on
// again, and again.
const handedEnv = "MEMCOMPACT_HOOK_HANDED"

func main() {
	args := os.Args[1:]
	if !isHookRun(args) {
		if os.Getenv(handedEnv) != "" {
			fmt.Fprintf(os.Stderr, "memcompact: error: the memcompact that memcompact-hook handed %q to is memcompact-hook itself\n", args)
			fmt.Fprintf(os.Stderr, "memcompact: hint: install both: go install github.com/memcompact/memcompact/cmd/...@latest\n")
			os.Exit(3)
		}
		os.Exit(delegate(args))
	}
	hookrun.CollectLate(os.Getenv)
	mdblocks.Use(askMemcompact)
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
// and returns its exit code.
func delegate(args []string) int {
	bin, err := fullBinary()
	if err != nil {
		fmt.Fprintf(os.Stderr, "memcompact: error: memcompact-hook runs only \"hook session-start|pre-write|post-read\", and %v\n", err)
		fmt.Fprintf(os.Stderr, "memcompact: hint: install both: go install github.com/memcompact/memcompact/cmd/...@latest\n")
		return 3
	}
	return passOn(bin, args, append(os.Environ(), handedEnv+"=1"))
}

// passOn runs bin with args and env on this process's standard streams
// and returns its exit code (2 when it could not run at all).
func passOn(bin string, args, env []string) int {
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		return ee.ExitCode()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "memcompact: error: %v\n", err)
		return 2
	}
	return 0
}

// askMemcompact finds an index's HTML blocks with the goldmark parser
// memcompact links and this executable does not (see package mdblocks):
// only an index that holds "<!--" costs the extra process.
func askMemcompact(src []byte) ([]mdblocks.Block, error) {
	bin, err := fullBinary()
	if err == nil {
		os.Setenv(handedEnv, "1") // the child's environment (see handedEnv)
		var blocks []mdblocks.Block
		if blocks, err = mdblocks.Exec(bin)(src); err == nil {
			return blocks, nil
		}
	}
	return nil, fmt.Errorf("%w: memcompact-hook reads an index holding an HTML comment with memcompact's parser, and %v (reinstall both: go install github.com/memcompact/memcompact/cmd/...@latest)", mdblocks.ErrUnavailable, err)
}

// fullBinary finds memcompact: beside this executable (the same install),
// else on PATH.
func fullBinary() (string, error) {
	name := "memcompact"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	p, err := exec.LookPath("memcompact")
	if err != nil {
		return "", errors.New("no memcompact executable was found beside it or on PATH")
	}
	return p, nil
}
