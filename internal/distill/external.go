package distill

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// DefaultTimeout bounds an external summarizer's run.
const DefaultTimeout = 2 * time.Minute

// maxOutput bounds what is read from a summarizer: a summary larger than a
// memory file may be is not a summary.
const maxOutput = 16 << 20

// External runs command through the shell (sh -c; cmd /C on Windows) with
// tier on its standard input, and returns the bullets it prints. A non-zero
// exit, a run longer than timeout, or an output with no bullets is an error,
// and then nothing of the output is used.
func External(ctx context.Context, command, tier string, timeout time.Duration) ([]string, error) {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var cmd *exec.Cmd
	if runtime.GOOS == "windows" {
		cmd = exec.CommandContext(ctx, "cmd", "/C", command)
	} else {
		cmd = exec.CommandContext(ctx, "sh", "-c", command)
	}
	cmd.Stdin = strings.NewReader(tier)
	var out, errb limitedBuffer
	out.limit, errb.limit = maxOutput, 64<<10
	cmd.Stdout, cmd.Stderr = &out, &errb
	// A summarizer that leaves a child holding the pipes open must not hang
	// us past the timeout.
	cmd.WaitDelay = 2 * time.Second
	err := cmd.Run()
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return nil, fmt.Errorf("summarizer %q timed out after %s", command, timeout)
	case err != nil:
		msg := strings.TrimSpace(errb.String())
		if i := strings.LastIndexByte(msg, '\n'); i >= 0 && len(msg) > 400 {
			msg = msg[i+1:]
		}
		if msg != "" {
			return nil, fmt.Errorf("summarizer %q failed: %v: %s", command, err, msg)
		}
		return nil, fmt.Errorf("summarizer %q failed: %v", command, err)
	case out.over:
		return nil, fmt.Errorf("summarizer %q printed more than %d bytes", command, maxOutput)
	}
	bullets := ParseBullets(out.String())
	if len(bullets) == 0 {
		return nil, errors.New("summarizer " + fmt.Sprintf("%q", command) + " printed no bullets")
	}
	return bullets, nil
}

// limitedBuffer keeps at most limit bytes and notes whether more came.
type limitedBuffer struct {
	bytes.Buffer
	limit int
	over  bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.limit - b.Len(); len(p) > room {
		b.over = true
		if room > 0 {
			b.Buffer.Write(p[:room])
		}
		return len(p), nil
	}
	return b.Buffer.Write(p)
}

var _ io.Writer = (*limitedBuffer)(nil)
