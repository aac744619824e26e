package hookrun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/doctor"
	"github.com/memcompact/memcompact/internal/filecache"
	"github.com/memcompact/memcompact/internal/hookjson"
	"github.com/memcompact/memcompact/internal/hookstate"
	"github.com/memcompact/memcompact/internal/journal"
	"github.com/memcompact/memcompact/internal/secrets"
	"github.com/memcompact/memcompact/internal/store"
	"github.com/memcompact/memcompact/internal/sweepact"
	"github.com/memcompact/memcompact/internal/textfile"
	"github.com/memcompact/memcompact/internal/writeguard"
)

// preWrite judges a Write, Edit or MultiEdit call with the write guard,
// then journals the store's before-state (which may deny an index write
// based on a stale copy).
func preWrite(ctx context.Context, req Request, in *hookjson.Input, res *Result) {
	switch in.ToolName {
	case "Write", "Edit", "MultiEdit":
	default:
		res.note("tool %q is not Write, Edit or MultiEdit; allowing", in.ToolName)
		return
	}
	t, err := in.Tool()
	if err != nil {
		res.note("%v; allowing", err)
		return
	}
	cwd := in.Cwd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	call := &writeguard.Call{
		Tool: in.ToolName, Input: t, Cwd: cwd,
		Getenv: req.Getenv, LookupEnv: req.LookupEnv, Home: req.Home, Today: req.Today,
	}
	if req.Getenv(writeguard.GuardSetting) == "off" {
		guardOff(ctx, req, in, t, call, res)
		return
	}
	var before *beforeState
	if dir, ok := call.Store(); ok {
		// The guard's first check scans for secrets: its rules are built
		// while the guard reads the file and applies the call. Should the
		// build panic, the guard's own call panics again and denies.
		go func() {
			defer func() { _ = recover() }()
			secrets.Prepare()
		}()
		before = startBeforeState(ctx, req, in, t, dir, call.Path())
	}
	v := writeguard.JudgeWithin(call, budget(req.Getenv))
	for _, s := range v.Skipped {
		res.note("%s", s)
	}
	reason := ""
	if v.Deny() {
		reason = v.Reason()
		for _, p := range v.Problems {
			if p.Code == writeguard.CodeUnjudged {
				res.fail("%s; denied", p.Message)
			}
		}
	}
	res.Deny = before.finish(ctx, reason, res)
}

// guardOff is pre-write with the guard switched off by the user
// (MEMCOMPACT_GUARD=off): the call is allowed unjudged, the journal still
// records the store's before-state, and the session's first such write is
// recorded for the next session-start note and doctor.
func guardOff(ctx context.Context, req Request, in *hookjson.Input, t *hookjson.ToolInput, call *writeguard.Call, res *Result) {
	res.note("the write guard is off (%s=off); allowing unjudged", writeguard.GuardSetting)
	if dir, err := journal.DataDir(req.Getenv, req.Home); err == nil {
		events, _ := hookstate.Read(dir)
		if !hookstate.GuardOffRecorded(events, in.SessionID) {
			now := time.Now
			if req.Now != nil {
				now = req.Now
			}
			if err := hookstate.Record(dir, hookstate.Event{At: now(), Hook: EventPreWrite, Session: in.SessionID, GuardOff: true}); err != nil {
				res.note("cannot record that the guard is off: %v", err)
			}
		}
	}
	v := writeguard.CannotJudge(call, "the guard is off", "")
	if v.Store != "" {
		journalBeforeWrite(ctx, req, in, t, v, "", res)
	}
	res.Deny = ""
}

// journalBeforeWrite records the store's before-state in the journal and,
// for the index, denies a write based on a stale copy; it returns the
// reason to deny ("" to allow). The journal never blocks a write by
// failing: its errors become notes.
func journalBeforeWrite(ctx context.Context, req Request, in *hookjson.Input, t *hookjson.ToolInput, v *writeguard.Verdict, reason string, res *Result) string {
	return startBeforeState(ctx, req, in, t, v.Store, v.Path).finish(ctx, reason, res)
}

// beforeState is the journal's share of a pre-write: the store's
// before-state recorded and, for the index, the stale-copy check. It runs
// in a goroutine of its own beside the guard's judgement, as the
// session-start hook journals beside its diagnosis: the two read the
// store and neither needs the other, so on a second processor the hook
// takes the longer of the two, not their sum. The verdict waits for both.
type beforeState struct {
	jreq      journal.HookRequest
	done      chan struct{}
	w         *journal.IndexWrite
	clobbered []string
	err       error
}

// startBeforeState starts the journal's share of a pre-write of path, in
// storeDir; nil when the journal is off.
func startBeforeState(ctx context.Context, req Request, in *hookjson.Input, t *hookjson.ToolInput, storeDir, path string) *beforeState {
	jreq, ok := hookJournal(req, storeDir, in.SessionID)
	if !ok {
		return nil
	}
	b := &beforeState{jreq: jreq, done: make(chan struct{})}
	go func() {
		defer close(b.done)
		// A panic here would end the process (Run's recover guards only
		// its own goroutine), so it becomes the journal's error.
		defer func() {
			if r := recover(); r != nil {
				b.err = fmt.Errorf("internal error (%v) — this is a bug, please report it", r)
			}
		}()
		ctx, cancel := context.WithTimeout(ctx, journalBudget)
		defer cancel()
		b.w = indexWrite(path, in.ToolName, t)
		b.clobbered, b.err = journal.BeforeWrite(ctx, jreq, b.w)
	}()
	return b
}

// finish waits for the journal's share and returns the reason to deny
// ("" to allow), given the guard's: a write based on a stale copy of the
// index is denied; an allowed write of the index becomes the session's
// view of it.
func (b *beforeState) finish(ctx context.Context, reason string, res *Result) string {
	if b == nil {
		return reason
	}
	<-b.done
	if b.err != nil {
		res.fail("journal: %v (the write is judged without it)", b.err)
	}
	if len(b.clobbered) > 0 {
		// The re-read advice leads: an agent that acts on the first
		// sentence must merge, not record an exit for lines it never
		// meant to remove.
		return strings.TrimSpace(journal.ClobberReason(b.clobbered) + "\n" + reason)
	}
	if reason == "" {
		ctx, cancel := context.WithTimeout(ctx, journalBudget)
		defer cancel()
		if err := journal.AfterAllow(ctx, b.jreq, b.w); err != nil {
			res.fail("journal: %v", err)
		}
	}
	return reason
}

// indexWrite is the index's bytes before the call and as the call would
// leave them, for the journal's stale-copy check: nil for any other file,
// or when the call cannot be applied.
func indexWrite(path, tool string, t *hookjson.ToolInput) *journal.IndexWrite {
	if filepath.Base(path) != journal.IndexName {
		return nil
	}
	f, err := textfile.ReadUndigested(path)
	exists := err == nil
	if !exists && !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	var raw string
	if exists {
		raw = f.Text // the bytes themselves, when they are the text
		if f.HasBOM || raw != string(f.Raw) {
			raw = string(f.Raw)
		}
	}
	after, err := writeguard.Apply(tool, raw, exists, t)
	if err != nil {
		return nil
	}
	return &journal.IndexWrite{Current: raw, Proposed: after}
}

// journalBudget bounds the journal's share of a hook: well inside the 10 s
// Claude Code gives the hook, so a huge store is journaled over a few
// sessions instead of stalling one.
const journalBudget = 3 * time.Second

// hookJournal is the journal request of a hook, or false when the journal
// is off (MEMCOMPACT_JOURNAL=off) or has no data directory.
func hookJournal(req Request, storeDir, session string) (journal.HookRequest, bool) {
	if req.Getenv("MEMCOMPACT_JOURNAL") == "off" {
		return journal.HookRequest{}, false
	}
	data, err := journal.DataDir(req.Getenv, req.Home)
	if err != nil {
		return journal.HookRequest{}, false
	}
	return journal.HookRequest{Store: storeDir, DataDir: data, Session: session, Secret: secretBytes, Now: req.Now, Background: true}, true
}

// secretBytes is the journal's secret test: gitleaks' rules and ours.
func secretBytes(b []byte) bool { return secrets.Contains(string(b)) }

// sessionStart journals the store of the session's working directory and,
// when something is wrong with it, gives the agent a short note. A healthy
// store gets none.
func sessionStart(ctx context.Context, req Request, in *hookjson.Input, res *Result) {
	cwd := in.Cwd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	// A session whose memory is switched off loads no memory, so the
	// agent gets no note about one; the user is told on stderr.
	if why := store.MemoryOff(req.Getenv, req.Home, cwd, store.Options{LookupEnv: req.LookupEnv}); why != "" {
		res.note("memory is off (%s): Claude Code loads no memory in this session, so memcompact gives the agent no note", why)
		return
	}
	// A session that mounts memory stores loads no MEMORY.md from disk:
	// a note on this store's index would speak of text the agent never
	// sees. The guard still judges writes into the stores' folders.
	if loc := store.Locate(req.Getenv, req.Home, cwd, store.Options{LookupEnv: req.LookupEnv}); loc.IndexSkipped != "" {
		res.note("%s; Claude Code loads no MEMORY.md in this session, so memcompact gives the agent no note", loc.StoresNote())
		return
	}
	_, indexPath, _, err := store.FindIndexWith(req.Getenv, req.Home, cwd, store.Options{LookupEnv: req.LookupEnv})
	if err != nil {
		res.note("%v; nothing to report", err)
		return
	}
	// The journal and the diagnosis run side by side: the journal mostly
	// waits on the disk (a first snapshot writes and syncs every file),
	// the diagnosis mostly computes, and neither reads what the other
	// writes (the journal writes only under the data directory, the
	// diagnosis only its caches). The note is composed once both are done,
	// in the order the two ran in before.
	var (
		journaled []string // the journal's lines, most urgent first
		jerr      error
	)
	// One stat of each store file for the whole run, shared by the
	// journal's walk and the diagnosis's entry reads, secrets scan and
	// sweep figure.
	stats := newStats()
	// One secrets scan of each file, shared by the journal (which stores
	// no file holding a secret) and the diagnosis (which reports them).
	memo := secrets.NewMemo()
	// One read of each store file, shared likewise.
	reads := newReads().Before(func(p string) { stats.Stat(p) })
	done := make(chan struct{})
	if jreq, ok := hookJournal(req, filepath.Dir(indexPath), in.SessionID); ok {
		jreq.Stats, jreq.Reads = stats, reads
		jreq.Secret = func(b []byte) bool { return memo.Contains(string(b)) }
		go func() {
			defer close(done)
			// A panic here would end the process (Run's recover guards
			// only its own goroutine), so it becomes the journal's error.
			defer func() {
				if r := recover(); r != nil {
					jerr = fmt.Errorf("internal error (%v) — this is a bug, please report it", r)
				}
			}()
			ctx, cancel := context.WithTimeout(ctx, journalBudget)
			defer cancel()
			journaled, jerr = journal.SessionStart(ctx, jreq)
		}()
	} else {
		close(done)
	}
	// Should the diagnosis panic (Run allows the session, saying so), the
	// journal is still waited for: the hook's process must not exit with
	// a snapshot half written.
	defer func() { <-done }()
	r := doctor.Diagnose(doctor.Options{Index: indexPath, Today: req.Today, Quick: true, NoCache: req.Getenv("MEMCOMPACT_NO_CACHE") != "", Stats: stats, Secrets: memo, Reads: reads})
	<-done
	if jerr != nil {
		res.fail("journal: %v", jerr)
	}
	if r.Result == "unreadable" {
		res.note("cannot read %s: %s; nothing to report", indexPath, r.Reason)
		r = nil
	}
	// The journal's lines come first: a deletion since the last session
	// is what the agent must not read past a long load-cut bullet.
	res.Context = doctor.SessionNoteWith(r, filepath.Dir(indexPath), journaled)
}

// newStats and newReads are the run's stat and read tables; tests count
// their stats and reads.
var (
	newStats = filecache.NewStats
	newReads = textfile.NewReads
)

// postRead counts a Read of a memory entry as recall evidence for the
// sweep. It never blocks and never gives the agent anything: a read
// already happened, and counting it must not cost the session anything.
func postRead(req Request, in *hookjson.Input, res *Result) {
	if in.ToolName != "Read" {
		return
	}
	t, err := in.Tool()
	if err != nil || t.FilePath == "" {
		return
	}
	path := t.FilePath
	if !filepath.IsAbs(path) && in.Cwd != "" {
		path = filepath.Join(in.Cwd, path)
	}
	if _, err := sweepact.RunRecordRead(sweepact.RecordReadRequest{File: path, Today: req.Today}); err != nil {
		res.note("%v; not counted", err)
	}
	if filepath.Base(path) == journal.IndexName && !t.Partial() {
		sawIndex(req, in, path, res)
	}
}

// maxWholeRead is what Claude Code's Read shows of a file without an
// offset or a limit (its first 2,000 lines); an index longer than that
// was not seen whole, so its read does not update the session's view.
const maxWholeRead = 2000

// sawIndex records, for the clobber guard, that the session read the
// index of a store whole: its next write is judged against what it read.
func sawIndex(req Request, in *hookjson.Input, path string, res *Result) {
	storeDir, ok := store.StoreOfInWith(path, req.Getenv, req.Home, in.Cwd, store.Options{LookupEnv: req.LookupEnv})
	if !ok || filepath.Dir(path) != storeDir {
		return
	}
	jreq, ok := hookJournal(req, storeDir, in.SessionID)
	if !ok {
		return
	}
	f, err := textfile.Read(path)
	if err != nil || bytes.Count(f.Raw, []byte("\n")) > maxWholeRead {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), journalBudget)
	defer cancel()
	if err := journal.SawIndex(ctx, jreq, f.Raw); err != nil {
		res.note("journal: %v", err)
	}
}

// maxReported is how many recorded failures a session-start note quotes.
const maxReported = 3

// reportHooks adds to the session-start note what the hooks' record says
// since the last note that reported it: the failures of any hook, and a
// guard switched off; and, while this hook's own environment switches the
// guard off, that it is off. What it reports is marked reported, so the
// next note does not repeat it (doctor still lists it).
func reportHooks(req Request, res *Result) {
	var items []string
	if req.Getenv(writeguard.GuardSetting) == "off" {
		items = append(items, "the write guard is OFF ("+writeguard.GuardSetting+"=off in the hooks' environment): writes to memory files are not checked for secrets, the load cut, budgets or lost pointers. Tell the user; removing the setting turns it back on")
	}
	dir, err := journal.DataDir(req.Getenv, req.Home)
	if err != nil {
		appendNote(res, items)
		return
	}
	events, err := hookstate.Read(dir)
	if err != nil {
		res.note("cannot read the hooks' record: %v", err)
	}
	fails, off := hookstate.Unreported(events)
	if off && len(items) == 0 {
		items = append(items, "the write guard ran switched OFF ("+writeguard.GuardSetting+"=off) since the last session: memory writes went through unchecked. Tell the user")
	}
	if len(fails) > 0 {
		var quoted []string
		for _, f := range fails[max(0, len(fails)-maxReported):] {
			quoted = append(quoted, fmt.Sprintf("%s %s: %s", f.At.Local().Format("2006-01-02 15:04"), f.Hook, f.Failure))
		}
		items = append(items, fmt.Sprintf("memcompact's hooks failed %d time(s) since the last session (latest: %s). Tell the user; 'memcompact doctor' lists them",
			len(fails), strings.Join(quoted, "; ")))
	}
	if len(fails) > 0 || off {
		now := time.Now
		if req.Now != nil {
			now = req.Now
		}
		if err := hookstate.Record(dir, hookstate.Event{At: now(), Hook: EventSessionStart, Session: res.session, Reported: true}); err != nil {
			res.note("cannot mark the hooks' record reported: %v", err)
		}
	}
	appendNote(res, items)
}

// appendNote adds items to the session-start note.
func appendNote(res *Result, items []string) {
	if len(items) == 0 {
		return
	}
	if res.Context == "" {
		res.Context = "memcompact: " + strings.Join(items, "\n- ")
		if len(items) > 1 {
			res.Context = "memcompact:\n- " + strings.Join(items, "\n- ")
		}
		return
	}
	res.Context += "\n- " + strings.Join(items, "\n- ")
}
