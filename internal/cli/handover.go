package cli

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/memcompact/memcompact/internal/companion"
	"github.com/memcompact/memcompact/internal/outcome"
)

// memcompact links neither the MCP server, the model SDKs nor goldmark
// (package companion says why); memcompact-full does. A verb that needs
// one of them returns an outcome.ErrNotLinked before it has changed
// anything, and runVerb hands the whole command line over (handOver).

// call runs c. The load cut and the entry reader raise a parser this
// executable could not reach (memcompact asks memcompact-full's goldmark
// and yaml.v3) as a panic of companion.ErrUnavailable; that is an install
// to mend, reported as the refusal it is, not as a bug.
func call(c *command, env *Env, args []string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			msg, ok := companion.Unavailable(r)
			if !ok {
				panic(r)
			}
			err = &exitError{Code: exitRefused, Err: errors.New(msg), Hints: []string{companion.InstallHint}}
		}
	}()
	return c.run(env, args)
}

// handOverIf hands the verb's command line to memcompact-full when err
// says this executable does not link what it needs, and returns what to
// report: a silent exit code when memcompact-full ran it, the refusal when
// it could not run there, else err as it was.
func handOverIf(env *Env, err error) error {
	if !errors.Is(err, outcome.ErrNotLinked) || env.argv == nil {
		return err
	}
	code, herr := handOver(env, env.argv, err)
	if herr != nil {
		return herr
	}
	return exitCode(code)
}

// replayStdin is the error of a verb that read its standard input (data)
// before it found it needs memcompact-full: the hand-over gives it the same
// bytes.
type replayStdin struct {
	err  error
	data []byte
}

func (r *replayStdin) Error() string { return r.err.Error() }
func (r *replayStdin) Unwrap() error { return r.err }

// handOver runs the command line args in memcompact-full, which links what
// this run needed and this executable does not (why), and returns its exit
// code. With this process's own streams, and nothing read from them yet,
// the process becomes memcompact-full (companion.Replace): an MCP client
// talks to it directly. An error is a refusal naming why nothing ran.
func handOver(env *Env, args []string, why error) (int, error) {
	bin, err := companion.Find(companion.Full)
	if err == nil && companion.Loop(companion.Full) {
		err = fmt.Errorf("%s handed this command back, so it is not memcompact-full", bin)
	}
	stdin := env.Stdin
	var replay *replayStdin
	if errors.As(why, &replay) {
		stdin = bytes.NewReader(replay.data)
	}
	if err == nil {
		if env.Process && replay == nil {
			err = companion.Replace(bin, companion.Full, args)
		} else {
			var code int
			if code, err = companion.Run(bin, companion.Full, args, stdin, env.Stdout, env.Stderr); err == nil {
				return code, nil
			}
		}
	}
	return 0, &exitError{Code: exitRefused, Err: fmt.Errorf("%v, and %v", why, err), Hints: []string{companion.InstallHint}}
}
