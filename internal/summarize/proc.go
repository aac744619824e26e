package summarize

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/extcmd"
)

// maxOutput bounds what is read from a summarizer process: an answer
// larger than a memory file may be is not a summary.
const maxOutput = 16 << 20

// run runs a summarizer process (a shell command, or args without a shell)
// through extcmd, which kills it and everything it started at the timeout
// or at the output cap. A failed run's standard output is still returned
// for a caller that reads an error report there (claude's JSON result);
// it is never used as an answer.
func run(ctx context.Context, name string, s extcmd.Spec) (string, error) {
	s.MaxOutput = maxOutput
	res, err := extcmd.Run(ctx, s)
	out := ""
	if res != nil {
		out = string(res.Stdout)
	}
	switch {
	case errors.Is(err, extcmd.ErrTimeout):
		return "", fmt.Errorf("%s timed out after %s", name, s.Timeout)
	case errors.Is(err, extcmd.ErrTooMuchOutput):
		return "", fmt.Errorf("%s printed more than %d bytes; it was stopped", name, maxOutput)
	case err != nil:
		// extcmd names the command by its text; ours is shorter.
		msg := err.Error()
		if i := strings.Index(msg, " failed: "); i >= 0 {
			msg = msg[i+len(" failed: "):]
		}
		return out, fmt.Errorf("%s failed: %s", name, msg)
	}
	return out, nil
}

// runTimeout is the default when a Config was not Resolved.
func runTimeout(d time.Duration) time.Duration {
	if d <= 0 {
		return DefaultTimeout
	}
	return d
}

// flatten renders a conversation as one text, for a summarizer that reads
// a single input (a process's standard input).
func flatten(turns []Turn) string {
	if len(turns) == 1 {
		return turns[0].Text
	}
	var b strings.Builder
	for i, t := range turns {
		if i > 0 {
			b.WriteString("\n\n")
		}
		if t.Role == "assistant" {
			b.WriteString("Your answer was:\n")
		}
		b.WriteString(strings.TrimRight(t.Text, "\n"))
	}
	b.WriteString("\n")
	return b.String()
}
