package distill

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/memcompact/memcompact/internal/extcmd"
)

// DefaultTimeout bounds an external summarizer's run.
const DefaultTimeout = 2 * time.Minute

// maxOutput bounds what is read from a summarizer: a summary larger than a
// memory file may be is not a summary. The summarizer is killed when it
// passes it.
const maxOutput = 16 << 20

// External runs command through the shell (sh -c; cmd /C on Windows) with
// tier on its standard input, and returns the bullets it prints. A non-zero
// exit, a run longer than timeout (the summarizer's whole process group is
// then killed), an output past 16 MiB (the summarizer is killed there), or
// an output with no bullets is an error, and then nothing of the output is
// used.
func External(ctx context.Context, command, tier string, timeout time.Duration) ([]string, error) {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	res, err := extcmd.Run(ctx, extcmd.Spec{Command: command, Stdin: tier, Timeout: timeout, MaxOutput: maxOutput})
	if err != nil {
		return nil, fmt.Errorf("summarizer %w", err)
	}
	bullets := ParseBullets(string(res.Stdout))
	if len(bullets) == 0 {
		return nil, errors.New("summarizer " + fmt.Sprintf("%q", command) + " printed no bullets")
	}
	return bullets, nil
}
