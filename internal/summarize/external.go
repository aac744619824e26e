package summarize

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/memcompact/memcompact/internal/distill"
	"github.com/memcompact/memcompact/internal/extcmd"
)

// External is the external summarizer protocol: it runs command through
// the shell (sh -c; cmd /C on Windows) with tier on its standard input, and
// returns the bullets it prints. A non-zero exit, a run longer than timeout
// (DefaultTimeout when 0; the summarizer's whole process group is then
// killed), an output past 16 MiB (the summarizer is killed there), or an
// output with no bullets is an error, and then nothing of the output is
// used. It lives beside the model summarizers because it is one: the tier
// goes out, bullets come back, and compact verifies them all alike.
func External(ctx context.Context, command, tier string, timeout time.Duration) ([]string, error) {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	res, err := extcmd.Run(ctx, extcmd.Spec{Command: command, Stdin: tier, Timeout: timeout, MaxOutput: maxOutput})
	if err != nil {
		return nil, fmt.Errorf("summarizer %w", err)
	}
	bullets := distill.ParseBullets(string(res.Stdout))
	if len(bullets) == 0 {
		return nil, errors.New("summarizer " + fmt.Sprintf("%q", command) + " printed no bullets")
	}
	return bullets, nil
}
