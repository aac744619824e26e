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
// finish in time, or fails with a bug of memcompact's own, a write to a
// memory file is denied — a guard that cannot judge must not wave the
// write through — and the verdict says why; a write outside every memory
// store is allowed as Judge would. A judgement cut off by the budget goes
// on in its goroutine until the process exits; the hook exits right after.
func JudgeWithin(call *Call, budget time.Duration) *Verdict {
	done := make(chan *Verdict, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- CannotJudge(call, fmt.Sprintf("memcompact hit an internal error (%v) judging this %s", r, call.Tool),
					"This is a bug in memcompact: tell the user, who can report it with the file")
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
	return CannotJudge(call, fmt.Sprintf("memcompact could not finish judging this %s of %d bytes within %s", call.Tool, callSize(call), budget),
		"Write it in smaller pieces, or check the text with 'memcompact secrets' first")
}

// GuardSetting is the environment variable that switches the guard off
// when set to "off": the one way to let memory writes through unjudged,
// made on purpose by the user in the hooks' environment (never by the
// agent). The next session's note says the guard is off.
const GuardSetting = "MEMCOMPACT_GUARD"

// CodeUnjudged is the problem code of a write the guard could not judge.
const CodeUnjudged = "unjudged"

// CannotJudge is the verdict on a call the guard could not judge (why):
// denied when it writes a file inside a memory store, with fix and the
// way off; allowed, saying why, when it writes outside every store.
func CannotJudge(call *Call, why, fix string) *Verdict {
	path := call.Path()
	v := &Verdict{Path: path, Problems: []Problem{}}
	storeDir, ok := call.Store()
	if !ok {
		v.Skipped = append(v.Skipped, fmt.Sprintf("%s, and %s is not inside a memory store; allowing", why, path))
		return v
	}
	v.Store = storeDir
	v.Index = filepath.Base(path) == store.IndexName && filepath.Dir(path) == storeDir
	v.Problems = append(v.Problems, unjudged(why, fix))
	return v
}

// unjudged is the problem of a memory-file write the guard could not
// judge (why): it is denied rather than let through unjudged.
func unjudged(why, fix string) Problem {
	return Problem{
		Code:    CodeUnjudged,
		Message: why + ", so the write is denied rather than let through unjudged",
		Fix:     fix + ". Only the user can switch the guard off, on purpose, with " + GuardSetting + "=off in the hooks' environment",
	}
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
