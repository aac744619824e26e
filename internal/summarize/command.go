package summarize

import (
	"context"
	"fmt"
	"time"

	"github.com/memcompact/memcompact/internal/extcmd"
)

// commandModel runs the user's own command through the shell (sh -c; cmd /C
// on Windows). Its standard input is Instructions, a blank line, then the
// conversation; MEMCOMPACT_ROUND says which round it is (1, or 2 for the
// repair round).
type commandModel struct {
	command string
	timeout time.Duration
}

func (m *commandModel) Name() string { return fmt.Sprintf("summarizer %q", m.command) }

func (m *commandModel) Complete(ctx context.Context, turns []Turn) (string, error) {
	round := 1
	if len(turns) > 1 {
		round = 2
	}
	return run(ctx, m.Name(), extcmd.Spec{
		Command: m.command,
		Env:     []string{fmt.Sprintf("MEMCOMPACT_ROUND=%d", round)},
		Stdin:   Instructions + "\n\n" + flatten(turns),
		Timeout: runTimeout(m.timeout),
	})
}
