package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/claudehooks"
	"github.com/memcompact/memcompact/internal/doctor"
	"github.com/memcompact/memcompact/internal/journal"
	"github.com/memcompact/memcompact/internal/store"
	"github.com/memcompact/memcompact/internal/sweepact"
	"github.com/memcompact/memcompact/internal/textfile"
	"github.com/memcompact/memcompact/internal/writeguard"
)

func init() {
	register(&command{
		name:  "hook",
		usage: "hook session-start|pre-write < HOOK-JSON",
		short: "run as a Claude Code hook (reads the hook's JSON on stdin)",
		long: `pre-write is a PreToolUse hook for Write, Edit and MultiEdit. For a file
inside a memory store it computes the file as the call would leave it and
denies the call, with a reason the agent can act on, when the call would
edit a stale copy of the file, write a secret, or (for MEMORY.md) cut a
subject past the load cut, grow an index over its budget, leave a subject
without a recall hook, add an unattributed shared note, or drop a pointer
with no exit recorded in LEDGER.md. It judges only what the call changes.

session-start is a SessionStart hook: it finds the store of the session's
working directory and, when something is wrong with it, gives the agent a
short note (entries past the load cut, over budget, subjects without hooks,
secrets). A healthy store gets no output.

Both always exit 0 and allow what they cannot judge (input that is not
hook JSON, a tool they do not handle, a path outside any store, a store
they cannot read), saying why on stderr: a guard must never lock a user
out of their own files. The one exception is time: pre-write judges within
6 seconds (MEMCOMPACT_HOOK_BUDGET changes it), inside the timeout hooks
install sets, and denies a memory-file write it could not judge in time
rather than let it through unjudged. Install them with 'memcompact hooks
install'.

Exit codes: 0 always once the event is known (allowed or denied, the
decision is in the JSON on stdout); 3 for a missing or unknown event.`,
		run: runHook,
	})
}

func runHook(env *Env, args []string) (err error) {
	const usage = "hook session-start|pre-write < HOOK-JSON"
	fs := newFlagSet("hook")
	pos, perr := parseFlags(env, fs, usage, args)
	if perr != nil {
		return perr
	}
	if len(pos) != 1 || (pos[0] != "session-start" && pos[0] != "pre-write" && pos[0] != "post-read") {
		return &ExitError{Code: ExitUsage, Err: fmt.Errorf("hook needs one event: session-start, pre-write or post-read"), Hints: []string{"usage: memcompact " + usage}}
	}
	// A hook must fail open. Run's own recovery would exit 2, which Claude
	// Code reads as "block the call", so a bug here is caught and allowed.
	defer func() {
		if r := recover(); r != nil {
			hookNote(env, pos[0], "internal error (%v); allowing — this is a bug, please report it", r)
			err = nil
		}
	}()
	in, rerr := claudehooks.ReadInput(env.Stdin)
	if rerr != nil {
		hookNote(env, pos[0], "%v; allowing", rerr)
		return nil
	}
	switch pos[0] {
	case "pre-write":
		return hookPreWrite(env, in)
	case "post-read":
		return hookPostRead(env, in)
	}
	return hookSessionStart(env, in)
}

// hookNote explains on stderr why the hook allowed without judging.
func hookNote(env *Env, event, format string, a ...any) {
	fmt.Fprintf(env.Stderr, "memcompact hook %s: %s\n", event, fmt.Sprintf(format, a...))
}

func hookPreWrite(env *Env, in *claudehooks.Input) error {
	switch in.ToolName {
	case "Write", "Edit", "MultiEdit":
	default:
		hookNote(env, "pre-write", "tool %q is not Write, Edit or MultiEdit; allowing", in.ToolName)
		return nil
	}
	t, err := in.Tool()
	if err != nil {
		hookNote(env, "pre-write", "%v; allowing", err)
		return nil
	}
	cwd := in.Cwd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	v := writeguard.JudgeWithin(&writeguard.Call{
		Tool: in.ToolName, Input: t, Cwd: cwd,
		Getenv: env.Getenv, Home: env.Home(), Today: env.Today(),
	}, hookBudget(env))
	for _, s := range v.Skipped {
		hookNote(env, "pre-write", "%s", s)
	}
	reason := ""
	if v.Deny() {
		reason = v.Reason()
	}
	if v.Store != "" {
		reason = journalBeforeWrite(env, in, t, v.Store, v.Path, reason)
	}
	if reason != "" {
		_, err := env.Stdout.Write(claudehooks.Deny(reason))
		return err
	}
	return nil
}

// journalBeforeWrite records the store's before-state in the journal and,
// for the index, denies a write based on a stale copy; it returns the
// reason to deny ("" to allow). The journal never blocks a write by
// failing: its errors are noted on stderr.
func journalBeforeWrite(env *Env, in *claudehooks.Input, t *claudehooks.ToolInput, storeDir, path, reason string) string {
	req, ok := hookJournal(env, storeDir, in.SessionID)
	if !ok {
		return reason
	}
	var current, proposed []byte
	if filepath.Base(path) == journal.IndexName {
		var raw []byte
		f, err := textfile.Read(path)
		exists := err == nil
		if exists {
			raw = f.Raw
		}
		if exists || errors.Is(err, fs.ErrNotExist) {
			if after, aerr := writeguard.Apply(in.ToolName, string(raw), exists, t); aerr == nil {
				current, proposed = raw, []byte(after)
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), journalBudget)
	defer cancel()
	clobbered, err := journal.BeforeWrite(ctx, req, path, current, proposed)
	if err != nil {
		hookNote(env, "pre-write", "journal: %v (the write is judged without it)", err)
	}
	if len(clobbered) > 0 {
		return strings.TrimSpace(reason + "\n" + journal.ClobberReason(clobbered))
	}
	if reason == "" {
		if err := journal.AfterAllow(req, path, proposed); err != nil {
			hookNote(env, "pre-write", "journal: %v", err)
		}
	}
	return reason
}

// journalBudget bounds the journal's share of a hook: well inside the 10 s
// Claude Code gives the hook, so a huge store is journaled over a few
// sessions instead of stalling one.
const journalBudget = 3 * time.Second

// hookJournal is the journal request of a hook, or false when the journal
// is off (MEMCOMPACT_JOURNAL=off) or has no data directory.
func hookJournal(env *Env, storeDir, session string) (journal.HookRequest, bool) {
	if env.Getenv("MEMCOMPACT_JOURNAL") == "off" {
		return journal.HookRequest{}, false
	}
	data, err := journal.DataDir(env.Getenv, env.Home())
	if err != nil {
		return journal.HookRequest{}, false
	}
	return journal.HookRequest{Store: storeDir, DataDir: data, Session: session, Secret: secretBytes, Now: env.Now}, true
}

func hookSessionStart(env *Env, in *claudehooks.Input) error {
	cwd := in.Cwd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	indexPath, _, err := store.FindIndex(env.Getenv, env.Home(), cwd)
	if err != nil {
		hookNote(env, "session-start", "%v; nothing to report", err)
		return nil
	}
	deleted := ""
	if req, ok := hookJournal(env, filepath.Dir(indexPath), in.SessionID); ok {
		var err error
		ctx, cancel := context.WithTimeout(context.Background(), journalBudget)
		defer cancel()
		if deleted, err = journal.SessionStart(ctx, req); err != nil {
			hookNote(env, "session-start", "journal: %v", err)
		}
	}
	r := doctor.Diagnose(doctor.Options{Index: indexPath, Today: env.Today(), Quick: true, NoCache: env.Getenv("MEMCOMPACT_NO_CACHE") != ""})
	if r.Result == "unreadable" {
		hookNote(env, "session-start", "cannot read %s: %s; nothing to report", indexPath, r.Reason)
		r = nil
	}
	note := ""
	if r != nil {
		note = doctor.SessionNote(r)
	}
	switch {
	case deleted != "" && note != "":
		note += "\n- " + deleted
	case deleted != "":
		note = "memcompact: this project's memory store (" + filepath.Dir(indexPath) + "): " + deleted
	}
	if note != "" {
		_, err := env.Stdout.Write(claudehooks.SessionContext(note))
		return err
	}
	return nil
}

// hookBudget is the pre-write hook's time budget: writeguard.HookBudget,
// or MEMCOMPACT_HOOK_BUDGET (a Go duration) where a test or a slow machine
// sets it.
func hookBudget(env *Env) time.Duration {
	if d, err := time.ParseDuration(env.Getenv("MEMCOMPACT_HOOK_BUDGET")); err == nil && d > 0 {
		return d
	}
	return writeguard.HookBudget
}

// hookPostRead counts a Read of a memory entry as recall evidence for the
// sweep. It never blocks and never prints on stdout: a read already
// happened, and counting it must not cost the session anything.
func hookPostRead(env *Env, in *claudehooks.Input) error {
	if in.ToolName != "Read" {
		return nil
	}
	t, err := in.Tool()
	if err != nil || t.FilePath == "" {
		return nil
	}
	path := t.FilePath
	if !filepath.IsAbs(path) && in.Cwd != "" {
		path = filepath.Join(in.Cwd, path)
	}
	if _, err := sweepact.RunRecordRead(sweepact.RecordReadRequest{File: path, Today: env.Today()}); err != nil {
		hookNote(env, "post-read", "%v; not counted", err)
	}
	return nil
}
