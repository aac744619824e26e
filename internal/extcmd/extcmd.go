// Package extcmd runs an external command (a summarizer, a model CLI) with
// hard bounds: its standard output is capped for real — the command is
// killed the moment it passes the cap, so a runaway printer costs at most
// the cap in memory — and a run past its timeout has its whole process
// group killed, children included, not only the shell that started them.
package extcmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"time"
)

// ErrTimeout and ErrTooMuchOutput say why a run was killed.
var (
	ErrTimeout       = errors.New("timed out")
	ErrTooMuchOutput = errors.New("printed more than its output limit")
)

// Spec is one run.
type Spec struct {
	Command   string        // run through sh -c (cmd /C on Windows)
	Args      []string      // instead of Command: a program and its arguments, run without a shell
	Env       []string      // extra KEY=value pairs added to the environment
	Stdin     string        // given on standard input
	Timeout   time.Duration // the whole run, children included; must be > 0
	MaxOutput int           // bytes of standard output; the command is killed past it
	MaxStderr int           // bytes of standard error kept for messages (0: 64 KiB)
}

// Result is what a run printed.
type Result struct {
	Stdout []byte
	Stderr string // at most MaxStderr bytes
}

// Run runs s.Command and waits for it. A non-zero exit is an *exec.ExitError
// (wrapped, with the end of standard error); a run killed for its timeout
// or its output wraps ErrTimeout or ErrTooMuchOutput. In every error case the
// output must not be used.
func Run(ctx context.Context, s Spec) (*Result, error) {
	if s.MaxStderr <= 0 {
		s.MaxStderr = 64 << 10
	}
	ctx, cancel := context.WithTimeout(ctx, s.Timeout)
	defer cancel()
	var cmd *exec.Cmd
	switch {
	case len(s.Args) > 0:
		cmd = exec.Command(s.Args[0], s.Args[1:]...)
		if s.Command == "" {
			s.Command = s.Args[0] // for messages
		}
	case runtime.GOOS == "windows":
		cmd = exec.Command("cmd", "/C", s.Command)
	default:
		cmd = exec.Command("sh", "-c", s.Command)
	}
	if len(s.Env) > 0 {
		cmd.Env = append(os.Environ(), s.Env...)
	}
	ownGroup(cmd)
	cmd.Stdin = strings.NewReader(s.Stdin)
	var (
		once   sync.Once
		killed error
	)
	kill := func(why error) {
		once.Do(func() {
			killed = why
			killGroup(cmd)
		})
	}
	out := &capped{limit: s.MaxOutput, over: func() { kill(ErrTooMuchOutput) }}
	errb := &capped{limit: s.MaxStderr}
	cmd.Stdout, cmd.Stderr = out, errb
	// A child that keeps the pipes open after the shell exits must not
	// hold us: Wait gives up on the pipes this long after the exit.
	cmd.WaitDelay = 2 * time.Second
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	stop := context.AfterFunc(ctx, func() { kill(ErrTimeout) })
	err := cmd.Wait()
	stop()
	if errors.Is(err, exec.ErrWaitDelay) {
		// The shell is gone but something it started still holds the
		// pipes: end the group rather than leave it running.
		killGroup(cmd)
	}
	res := &Result{Stdout: out.Bytes(), Stderr: errb.String()}
	once.Do(func() {}) // no kill after this point
	switch {
	case killed == ErrTimeout:
		return res, fmt.Errorf("%q %w after %s", s.Command, ErrTimeout, s.Timeout)
	case killed != nil:
		return res, fmt.Errorf("%q %w (%d bytes); it was stopped", s.Command, killed, s.MaxOutput)
	case err != nil:
		msg := strings.TrimSpace(res.Stderr)
		if i := strings.LastIndexByte(msg, '\n'); i >= 0 && len(msg) > 400 {
			msg = msg[i+1:]
		}
		if msg != "" {
			return res, fmt.Errorf("%q failed: %w: %s", s.Command, err, msg)
		}
		return res, fmt.Errorf("%q failed: %w", s.Command, err)
	}
	return res, nil
}

// capped keeps at most limit bytes; past it, it calls over (once) and
// fails the write, which ends the copy from the pipe.
type capped struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	limit int
	over  func()
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := c.limit - c.buf.Len(); len(p) > room {
		if room > 0 {
			c.buf.Write(p[:room])
		}
		if c.over != nil {
			c.over()
			return 0, ErrTooMuchOutput
		}
		return len(p), nil // stderr: keep the start, drop the rest
	}
	return c.buf.Write(p)
}

func (c *capped) Bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.Bytes()
}

func (c *capped) String() string { return string(c.Bytes()) }
