// Package writeguard decides whether a Write, Edit or MultiEdit call on a
// file inside a Claude Code memory store may go ahead. It is the engine of
// "memcompact hook pre-write".
//
// The guard computes the file as it would be after the call (Apply) and
// compares it with the file as it is, and it judges only what the call
// changes: a store that already has hookless pointers or already loses
// lines past the cut can still be edited, as long as the edit does not add
// to the damage. A call is denied when it would
//
//   - edit text that is no longer in the file (a stale old_string: another
//     session changed the file since the agent read it);
//   - write a secret that was not there before (any file of the store);
//
// and, for the store's index (MEMORY.md), when it would
//
//   - cut a linked subject that loaded before, or add one past the cut;
//   - grow the index while it is over its budget;
//   - leave a subject without a recall hook (R1) that had one, or add one
//     without a hook;
//   - add an unattributed shared note (R2);
//   - drop a pointer to an existing entry with no exit in force for it in
//     LEDGER.md.
//
// Everything else is allowed. In particular the guard allows whatever it
// cannot judge (a file it cannot read, an index it cannot parse, a call it
// does not understand): it protects memory from the agent, and must never
// lock the user out of their own files. Each problem comes with what to do
// instead, because the reason is read by the agent, which will try again.
package writeguard

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/hookjson"
	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/loadcut"
	"github.com/memcompact/memcompact/internal/recall"
	"github.com/memcompact/memcompact/internal/store"
	"github.com/memcompact/memcompact/internal/textfile"
)

// Call is one file-writing tool call, as the hook received it.
type Call struct {
	Tool  string              // Write, Edit or MultiEdit
	Input *hookjson.ToolInput // tool_input
	Cwd   string              // the session's working directory

	Getenv func(string) string
	// LookupEnv tells a variable set to "" from one not set, as Claude
	// Code does (an empty CLAUDE_CONFIG_DIR moves the store); nil counts
	// "" as unset.
	LookupEnv func(string) (string, bool)
	Home      string
	Today     time.Time
	// BusyWait is how long to wait for another run's lock on the store
	// before denying the write as busy; 0 for BusyWait. Tests shorten it.
	BusyWait time.Duration
}

// Path is the file the call writes, made absolute against the session's
// working directory.
func (c *Call) Path() string {
	path := c.Input.FilePath
	if !filepath.IsAbs(path) && c.Cwd != "" {
		path = filepath.Join(c.Cwd, path)
	}
	return path
}

// Store is the memory store holding the file the call writes, if any.
func (c *Call) Store() (dir string, ok bool) {
	return store.StoreOfInWith(c.Path(), c.Getenv, c.Home, c.Cwd, store.Options{LookupEnv: c.LookupEnv})
}

// Problem is one reason to deny a call.
type Problem struct {
	Code    string `json:"code"`    // stale, secret, load-cut, budget, hookless, shared-note, dropped-pointer
	Message string `json:"message"` // what the write would do
	Fix     string `json:"fix"`     // what to do instead
}

// Verdict is the guard's decision on one call.
type Verdict struct {
	Path     string    `json:"path"`
	Store    string    `json:"store,omitempty"` // the store directory, when the file is in one
	Index    bool      `json:"index"`           // the file is the store's MEMORY.md
	Problems []Problem `json:"problems"`
	// Guidance, on a denied write to an index near or past Claude Code's
	// read limit, is the way to shrink it that the guard allows (see
	// capacityGuidance); the agent reads it after the problems.
	Guidance string `json:"guidance,omitempty"`
	// Skipped says why the guard did not judge a call outside every
	// memory store; the hook prints it on stderr.
	Skipped []string `json:"skipped,omitempty"`
}

// Deny reports whether the call must be blocked.
func (v *Verdict) Deny() bool { return len(v.Problems) > 0 }

// Reason is the text the agent reads when the call is denied.
func (v *Verdict) Reason() string {
	var b strings.Builder
	name := filepath.Base(v.Path)
	fmt.Fprintf(&b, "memcompact blocked this write to %s (memory store %s):", name, v.Store)
	for _, p := range v.Problems {
		fmt.Fprintf(&b, "\n- %s. %s", p.Message, p.Fix)
	}
	if v.Guidance != "" {
		b.WriteString("\n" + v.Guidance)
	}
	return b.String()
}

// Judge decides on call. It never fails: a write to a memory file it
// cannot judge (an unreadable file, a call it cannot apply, a policy or
// ledger it cannot read) is denied as unjudged, saying why and what to
// do; a write outside every store is allowed, saying why in Skipped.
func Judge(call *Call) *Verdict {
	path := call.Path()
	v := &Verdict{Path: path, Problems: []Problem{}}
	storeDir, ok := call.Store()
	if !ok {
		v.Skipped = append(v.Skipped, path+" is not inside a memory store; nothing to guard")
		return v
	}
	v.Store = storeDir
	v.Index = filepath.Base(path) == store.IndexName && filepath.Dir(path) == storeDir
	if m, ok := readOnlyMount(call, path); ok {
		v.Problems = append(v.Problems, Problem{
			Code:    CodeReadOnlyStore,
			Message: fmt.Sprintf("%s is in the memory store %s, which $%s mounts read-only: Claude Code tells the agent not to write there, and memory sync would not keep the change", path, m.Mount, store.MemoryStoresVar),
			Fix:     "Save the memory in a store this session may write (the memory prompt names them), or ask the user to mount " + m.Mount + " read-write",
		})
		return v
	}
	wait := call.BusyWait
	if wait <= 0 {
		wait = BusyWait
	}
	if checkBusy(v, storeDir, wait) {
		return v
	}

	// The guard never compares the file by digest (the journal hashes
	// what it records): it reads it without one.
	cur, err := textfile.ReadUndigested(path)
	exists := err == nil
	switch {
	case errors.Is(err, fs.ErrNotExist):
		cur = textfile.FromBytes(path, nil)
	case err != nil:
		v.Problems = append(v.Problems, unjudged(fmt.Sprintf("memcompact cannot read %s (%v)", path, err),
			"Make the file readable (or tell the user it is not), then try again"))
		return v
	}
	after, err := Apply(call.Tool, cur.Text, exists, call.Input)
	var stale *StaleError
	switch {
	case errors.As(err, &stale):
		v.Problems = append(v.Problems, Problem{
			Code:    "stale",
			Message: stale.Error() + ": the file changed since you read it (another session or the user edited it), and this edit would clobber or miss that change",
			Fix:     "Read " + filepath.Base(path) + " again and redo the edit against its current text",
		})
		return v
	case err != nil:
		v.Problems = append(v.Problems, unjudged(fmt.Sprintf("memcompact cannot apply this %s call to %s (%v)", call.Tool, filepath.Base(path), err),
			"Read "+filepath.Base(path)+" again and send a complete "+call.Tool+" call"))
		return v
	}
	c := &change{call: call, verdict: v, storeDir: storeDir, file: cur, before: cur.Text, after: after}
	for _, check := range checks {
		check(c)
	}
	return v
}

// CodeReadOnlyStore denies a write into a store mounted read-only.
const CodeReadOnlyStore = "read-only-store"

// readOnlyMount is the read-only team store whose folder holds path, when
// the session mounts one (CLAUDE_MEMORY_STORES).
func readOnlyMount(call *Call, path string) (store.Mount, bool) {
	if call.Getenv == nil || strings.TrimSpace(call.Getenv(store.MemoryStoresVar)) == "" {
		return store.Mount{}, false
	}
	loc := store.Locate(call.Getenv, call.Home, call.Cwd, store.Options{LookupEnv: call.LookupEnv})
	m, ok := store.MountOf(loc.MemoryStores, path)
	return m, ok && m.Mode == "ro"
}

// change is a call being judged: the file's text before and after it.
type change struct {
	call     *Call
	verdict  *Verdict
	storeDir string
	file     *textfile.File // the file as read, without its digest (empty when it does not exist yet)
	before   string         // file.Text
	after    string

	// ixBefore and ixAfter are before and after parsed as an index, once
	// for all the index checks: the guard runs on every memory write.
	ixBefore, ixAfter *index.Index
	linesBefore       []string // the lines ixBefore was parsed from
	// axesBefore and axesAfter are the R1 and R2 axes of ixBefore and
	// ixAfter, judged once for checkHooks and checkSharedNotes.
	axesBefore, axesAfter *axes
	// loadBefore and loadAfter are Claude Code's load cut of before and
	// after, computed once for checkLoadCut and checkHidden: the load model
	// is the costliest part of judging an index write.
	loadBefore, loadAfter *loadcut.Result
}

// loadedBefore returns the load cut of the index before the call,
// computing it on first use.
func (c *change) loadedBefore() *loadcut.Result {
	if c.loadBefore == nil {
		ix, _ := c.indexes()
		r := loadcut.ComputeParsed(c.before, ix, loadcut.DefaultLines, loadcut.DefaultUnits, false)
		c.loadBefore = &r
	}
	return c.loadBefore
}

// loadedAfter returns the load cut of the index after the call, computing
// it on first use.
func (c *change) loadedAfter() *loadcut.Result {
	if c.loadAfter == nil {
		_, ix := c.indexes()
		r := loadcut.ComputeParsed(c.after, ix, loadcut.DefaultLines, loadcut.DefaultUnits, false)
		c.loadAfter = &r
	}
	return c.loadAfter
}

// axes is one index's subjects without a recall hook (R1) and unattributed
// shared notes (R2).
type axes struct {
	hookless []recall.WithoutHook
	notes    []recall.SharedNote
}

// judged returns the R1 and R2 axes of the index before and after the
// call, judging them on first use.
func (c *change) judged() (before, after *axes) {
	if c.axesBefore == nil {
		ixBefore, ixAfter := c.indexes()
		c.axesBefore, c.axesAfter = judgeAxes(ixBefore), judgeAxes(ixAfter)
	}
	return c.axesBefore, c.axesAfter
}

func judgeAxes(ix *index.Index) *axes {
	hookless, notes := recall.HooksAndNotes(ix)
	return &axes{hookless: hookless, notes: notes}
}

// indexes returns the index before and after the call, parsing them on
// first use.
func (c *change) indexes() (before, after *index.Index) {
	if c.ixBefore == nil {
		c.linesBefore = textfile.Lines(c.before)
		c.ixBefore = index.Parse(c.linesBefore)
		c.ixAfter = index.Parse(textfile.Lines(c.after))
	}
	return c.ixBefore, c.ixAfter
}

// added returns the items of after that before does not have, in after's
// order. Items are matched by key and counted, so an item present n times
// before excuses n copies of it after: the guard judges only what a call
// adds, and a problem the file already had is not the call's doing.
func added[T any](before, after []T, key func(T) string) []T {
	had := map[string]int{}
	for _, b := range before {
		had[key(b)]++
	}
	var out []T
	for _, a := range after {
		if k := key(a); had[k] > 0 {
			had[k]--
			continue
		}
		out = append(out, a)
	}
	return out
}

func (c *change) deny(code, message, fix string) {
	c.verdict.Problems = append(c.verdict.Problems, Problem{Code: code, Message: message, Fix: fix})
}

// cannotJudge denies the call: a check it needs could not run (why).
func (c *change) cannotJudge(why, fix string) {
	c.verdict.Problems = append(c.verdict.Problems, unjudged(why, fix))
}

// checks run in order on every call that reached a store file; index-only
// checks return early for other files.
var checks = []func(*change){
	checkSecrets,
	checkFileBudget,
	checkLoadCut,
	checkHidden,
	checkIndexBudget,
	checkHooks,
	checkSharedNotes,
	checkDroppedPointers,
	capacityGuidance, // last: it speaks only when another check denied
}
