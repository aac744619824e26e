package writeguard

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/memcompact/memcompact/internal/store"
)

// HookBudget is how long the pre-write hook may spend judging one call. It
// sits well inside the 10-second timeout hooks install gives the hook,
// leaving room to start the process and print the verdict: a hook that
// overruns its timeout is skipped by Claude Code, which lets the write
// through unjudged.
const HookBudget = 6 * time.Second

// JudgeWithin is Judge bounded by budget. When the judgement does not
// finish in time, a write to a memory file is denied — a guard that cannot
// judge must not wave the write through — and the verdict says why; a
// write outside every memory store is allowed as Judge would.
func JudgeWithin(call *Call, budget time.Duration) *Verdict {
	done := make(chan *Verdict, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				// The hook fails open on its own bugs, as the caller does.
				note := fmt.Sprintf("internal error (%v); allowing — this is a bug, please report it", r)
				done <- &Verdict{Problems: []Problem{}, Skipped: []string{note}}
			}
		}()
		done <- Judge(call)
	}()
	start := time.Now()
	timer := time.NewTimer(budget)
	defer timer.Stop()
	select {
	case v := <-done:
		// A verdict that arrives with the timer is late all the same: the
		// select would pick between the two at random.
		if time.Since(start) < budget {
			return v
		}
	case <-timer.C:
	}
	path := call.Input.FilePath
	if !filepath.IsAbs(path) && call.Cwd != "" {
		path = filepath.Join(call.Cwd, path)
	}
	v := &Verdict{Path: path, Problems: []Problem{}}
	storeDir, ok := store.StoreOfInWith(path, call.Getenv, call.Home, call.Cwd, store.Options{LookupEnv: call.LookupEnv})
	if !ok {
		v.Skipped = append(v.Skipped, fmt.Sprintf("could not finish judging within %s, and %s is not inside a memory store; allowing", budget, path))
		return v
	}
	v.Store = storeDir
	v.Index = filepath.Base(path) == store.IndexName && filepath.Dir(path) == storeDir
	v.Problems = append(v.Problems, Problem{
		Code:    "timeout",
		Message: fmt.Sprintf("memcompact could not finish judging this %s of %d bytes to a memory file within %s, so it is denied rather than let through unjudged", call.Tool, callSize(call), budget),
		Fix:     "Write it in smaller pieces, or check the text with 'memcompact secrets' first",
	})
	return v
}

// callSize is the number of bytes a call writes or edits in.
func callSize(call *Call) int {
	in := call.Input
	n := 0
	for _, p := range []*string{in.Content, in.NewString} {
		if p != nil {
			n += len(*p)
		}
	}
	for _, e := range in.Edits {
		n += len(e.NewString)
	}
	return n
}
