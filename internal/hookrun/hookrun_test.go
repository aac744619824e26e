package hookrun

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/filecache"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/store"
	"github.com/memcompact/memcompact/internal/textfile"
)

const index = `# Memory

## Feedback
- [Run tests with race](feedback_race.md) — always pass -race; CI flakes otherwise
- [Deploy order](project_deploy.md) — staging first, then prod after the smoke test
`

// fixture is a project directory whose Claude Code store holds index and
// two entries, and a journal data directory, all under one temp dir.
type fixture struct {
	proj, store, data string
	env               map[string]string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	root := t.TempDir()
	f := &fixture{proj: filepath.Join(root, "proj"), data: filepath.Join(root, "data"),
		env: map[string]string{"CLAUDE_CONFIG_DIR": filepath.Join(root, "cfg")}}
	f.env["MEMCOMPACT_DATA_DIR"] = f.data
	if err := os.MkdirAll(f.proj, 0o755); err != nil {
		t.Fatal(err)
	}
	f.store, _ = store.MemoryDir(f.getenv, "", f.proj)
	for name, body := range map[string]string{
		"MEMORY.md":         index,
		"feedback_race.md":  "---\nname: race\n---\nAlways run go test -race.\n",
		"project_deploy.md": "---\nname: deploy\n---\nStaging first.\n",
	} {
		if err := os.MkdirAll(f.store, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(f.store, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func (f *fixture) getenv(k string) string { return f.env[k] }

// call is the hook JSON of a tool call.
func (f *fixture) call(session, tool string, input map[string]any) string {
	b, err := json.Marshal(map[string]any{"session_id": session, "cwd": f.proj, "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input})
	if err != nil {
		panic(err)
	}
	return string(b)
}

func (f *fixture) run(t *testing.T, event, input string) *Result {
	t.Helper()
	res, err := Run(context.Background(), Request{Event: event, Input: strings.NewReader(input), Getenv: f.getenv,
		Today: time.Date(2026, 12, 2, 0, 0, 0, 0, time.Local), Now: time.Now})
	if err != nil {
		t.Fatalf("%s: %v", event, err)
	}
	return res
}

func TestRun(t *testing.T) {
	tests := []struct {
		name      string
		event     string
		env       map[string]string
		input     func(f *fixture) string
		deny      string // a substring of Result.Deny; "" for an allow
		context   string // a substring of Result.Context; "" for none
		note      string // a substring of a note; "" for no notes
		noJournal bool   // the journal's data directory is never made
	}{
		// Input it cannot read: the guard cannot tell which file the call
		// writes, so it denies (fails closed) and records the failure in
		// the data directory.
		{name: "not JSON", event: EventPreWrite, input: func(*fixture) string { return "this is not json" },
			deny: "could not read the call Claude Code sent", note: "not Claude Code's hook JSON"},
		{name: "no input", event: EventPreWrite, input: func(*fixture) string { return "" },
			deny: "could not read the call Claude Code sent", note: "the hook input is empty"},
		{name: "a tool it does not handle", event: EventPreWrite,
			input: func(f *fixture) string { return f.call("s1", "Bash", map[string]any{"command": "rm MEMORY.md"}) },
			note:  `tool "Bash" is not Write, Edit or MultiEdit; allowing`, noJournal: true},
		{name: "no file_path", event: EventPreWrite,
			input: func(f *fixture) string { return f.call("s1", "Write", map[string]any{"content": "x"}) },
			note:  "no file_path; allowing", noJournal: true},
		{name: "outside every store", event: EventPreWrite,
			input: func(f *fixture) string {
				return f.call("s1", "Write", map[string]any{"file_path": "main.go", "content": "package main\n"})
			},
			note: "not inside a memory store", noJournal: true},
		{name: "a hooked pointer: allowed and journaled", event: EventPreWrite,
			input: func(f *fixture) string {
				return f.addPointer("s1", "- [Prefer table tests](feedback_tables.md) — one loop per function")
			}},
		{name: "a bare pointer: denied", event: EventPreWrite,
			input: func(f *fixture) string { return f.addPointer("s1", "- [Tables](feedback_tables.md)") },
			deny:  "without a recall hook (R1)"},
		{name: "a secret in an entry: denied", event: EventPreWrite,
			input: func(f *fixture) string {
				return f.call("s1", "Write", map[string]any{"file_path": filepath.Join(f.store, "reference_github.md"),
					"content": "---\nname: github\n---\nThe bot token is ghp_Zx9Qw3Er7Ty1Ui5Op2As8Df4Gh6Jk0Lz3Xc7V for releases.\n"})
			},
			deny: "it would write a secret into memory"},
		{name: "cannot judge in time: a memory file is denied", event: EventPreWrite, env: map[string]string{"MEMCOMPACT_HOOK_BUDGET": "1ns"},
			input: func(f *fixture) string {
				// A megabyte to judge takes milliseconds, so the 1 ns
				// budget runs out first however the goroutines are run.
				return f.addPointer("s1", "- [Prefer table tests](feedback_tables.md) — one loop per function\n"+strings.Repeat("Retry the flaky step once, then stop.\n", 28000))
			},
			deny: "could not finish judging this Edit of", note: "could not finish judging this Edit of"},
		{name: "cannot judge in time: outside a store is allowed", event: EventPreWrite, env: map[string]string{"MEMCOMPACT_HOOK_BUDGET": "1ns"},
			input: func(f *fixture) string {
				return f.call("s1", "Write", map[string]any{"file_path": "main.go", "content": "package main\n"})
			},
			// Judge may finish before a 1 ns budget runs out or not; either
			// way the write outside every store is allowed.
			note: "not inside a memory store", noJournal: true},
		{name: "a budget that is not a duration is the default", event: EventPreWrite, env: map[string]string{"MEMCOMPACT_HOOK_BUDGET": "soon"},
			input: func(f *fixture) string { return f.addPointer("s1", "- [Tables](feedback_tables.md)") },
			deny:  "without a recall hook (R1)"},
		{name: "journal off", event: EventPreWrite, env: map[string]string{"MEMCOMPACT_JOURNAL": "off"},
			input: func(f *fixture) string {
				return f.addPointer("s1", "- [Prefer table tests](feedback_tables.md) — one loop per function")
			},
			noJournal: true},
		{name: "a journal that cannot be written never blocks", event: EventPreWrite, env: map[string]string{"MEMCOMPACT_DATA_DIR": "/dev/null/x"},
			input: func(f *fixture) string {
				return f.addPointer("s1", "- [Prefer table tests](feedback_tables.md) — one loop per function")
			},
			note: "journal: ", noJournal: true},
		{name: "session start, healthy store: nothing to say", event: EventSessionStart,
			input: func(f *fixture) string { return f.start("s1") }},
		{name: "session start, no store", event: EventSessionStart,
			input: func(f *fixture) string {
				return `{"session_id":"s1","cwd":"` + filepath.Join(f.proj, "..") + `","hook_event_name":"SessionStart"}`
			},
			note: "nothing to report", noJournal: true},
		{name: "post-read of an entry: counted silently", event: EventPostRead,
			input: func(f *fixture) string {
				return f.call("s1", "Read", map[string]any{"file_path": filepath.Join(f.store, "feedback_race.md")})
			},
			noJournal: true},
		{name: "post-read of another tool: nothing", event: EventPostRead,
			input:     func(f *fixture) string { return f.call("s1", "Write", map[string]any{"file_path": "x.md"}) },
			noJournal: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			for k, v := range tt.env {
				f.env[k] = v
			}
			res := f.run(t, tt.event, tt.input(f))
			checkResult(t, res, tt.event, tt.deny, tt.context, tt.note)
			if _, err := os.Stat(f.data); (err == nil) == tt.noJournal {
				t.Errorf("journal data dir exists: %v; want %v", err == nil, !tt.noJournal)
			}
		})
	}
}

func checkResult(t *testing.T, res *Result, event, deny, context, note string) {
	t.Helper()
	if res.Event != event {
		t.Errorf("Event %q, want %q", res.Event, event)
	}
	if deny == "" && res.Deny != "" || !strings.Contains(res.Deny, deny) {
		t.Errorf("Deny %q, want %q", res.Deny, deny)
	}
	if context == "" && res.Context != "" || !strings.Contains(res.Context, context) {
		t.Errorf("Context %q, want %q", res.Context, context)
	}
	notes := strings.Join(res.Notes, "\n")
	if note == "" && notes != "" || !strings.Contains(notes, note) {
		t.Errorf("Notes %q, want %q", notes, note)
	}
}

// addPointer is an Edit of the index adding line under the heading.
func (f *fixture) addPointer(session, line string) string {
	return f.call(session, "Edit", map[string]any{"file_path": filepath.Join(f.store, "MEMORY.md"),
		"old_string": "## Feedback\n", "new_string": "## Feedback\n" + line + "\n"})
}

func (f *fixture) start(session string) string {
	return `{"session_id":"` + session + `","cwd":"` + f.proj + `","hook_event_name":"SessionStart","source":"startup"}`
}

// TestRunSessionNoteAndStaleIndex: a store with a subject the agent cannot
// recall gets a session note; a Write of the index from a copy older than
// another writer's change is denied, naming the line it would remove,
// until the session has read the index whole again.
func TestRunSessionNoteAndStaleIndex(t *testing.T) {
	f := newFixture(t)
	res := f.run(t, EventSessionStart, f.start("a"))
	checkResult(t, res, EventSessionStart, "", "", "")
	other := index + "- [Deploy keys](reference_deploy.md) — rotate them every quarter\n"
	if err := os.WriteFile(filepath.Join(f.store, "MEMORY.md"), []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	stale := f.call("a", "Write", map[string]any{"file_path": filepath.Join(f.store, "MEMORY.md"), "content": index + "- [Tables](feedback_tables.md) — one loop per function\n"})
	res = f.run(t, EventPreWrite, stale)
	checkResult(t, res, EventPreWrite, "MEMORY.md changed since this session last read it", "", "")
	if !strings.Contains(res.Deny, "reference_deploy.md") {
		t.Errorf("the denial does not name the clobbered line: %q", res.Deny)
	}
	// Told to re-read, the session reads part of the index: still stale.
	part := f.call("a", "Read", map[string]any{"file_path": filepath.Join(f.store, "MEMORY.md"), "offset": 1, "limit": 3})
	f.run(t, EventPostRead, part)
	res = f.run(t, EventPreWrite, stale)
	checkResult(t, res, EventPreWrite, "MEMORY.md changed since this session last read it", "", "")
	// It reads it whole: the same write now removes a line it has seen,
	// a choice it made, not a stale copy.
	f.run(t, EventPostRead, f.call("a", "Read", map[string]any{"file_path": filepath.Join(f.store, "MEMORY.md")}))
	res = f.run(t, EventPreWrite, stale)
	checkResult(t, res, EventPreWrite, "", "", "")

	bare := "# Memory\n\n## Feedback\n- [Race](feedback_race.md)\n"
	if err := os.WriteFile(filepath.Join(f.store, "MEMORY.md"), []byte(bare), 0o644); err != nil {
		t.Fatal(err)
	}
	res = f.run(t, EventSessionStart, f.start("b"))
	if !strings.Contains(res.Context, "memcompact") || res.Deny != "" {
		t.Errorf("a store with a hookless subject: Context %q, Deny %q", res.Context, res.Deny)
	}
}

func TestRunUnknownEvent(t *testing.T) {
	for _, event := range []string{"", "post-write", "PreToolUse"} {
		res, err := Run(context.Background(), Request{Event: event, Input: strings.NewReader("{}")})
		if res != nil || outcome.StatusOf(err) != outcome.Usage || outcome.ReasonOf(err) != ReasonUnknownEvent {
			t.Errorf("%q: %v, %v; want a usage error %s", event, res, err, ReasonUnknownEvent)
		}
	}
}

type panicReader struct{}

func (panicReader) Read([]byte) (int, error) { panic("boom") }

type failReader struct{}

func (failReader) Read([]byte) (int, error) { return 0, errors.New("broken pipe") }

// TestRunFailsClosed: a bug or an unreadable stdin is never an error
// (which would exit non-zero): pre-write denies, naming the cause and the
// way off, and the session-start hook allows with a note; both record the
// failure, which the next session-start note reports once.
func TestRunFailsClosed(t *testing.T) {
	for _, in := range []struct {
		r          interface{ Read([]byte) (int, error) }
		deny, note string
	}{
		{panicReader{}, "hit an internal error judging this call (boom)", "internal error (boom) — this is a bug, please report it; denied"},
		{failReader{}, "could not read the call Claude Code sent its pre-write hook (reading the hook input: broken pipe)", "reading the hook input: broken pipe; denied"},
	} {
		f := newFixture(t)
		res, err := Run(context.Background(), Request{Event: EventPreWrite, Input: in.r, Getenv: f.getenv})
		if err != nil {
			t.Fatal(err)
		}
		checkResult(t, res, EventPreWrite, in.deny, "", in.note)
		if !strings.Contains(res.Deny, "MEMCOMPACT_GUARD=off") {
			t.Errorf("the denial does not name the way off: %s", res.Deny)
		}
		res, err = Run(context.Background(), Request{Event: EventSessionStart, Input: panicReader{}, Getenv: f.getenv})
		if err != nil || res.Deny != "" || !strings.Contains(strings.Join(res.Notes, "\n"), "internal error (boom) — this is a bug, please report it; allowing") {
			t.Fatalf("session start on a bug: %+v, %v", res, err)
		}
		// The next session's note reports both failures, once.
		res = f.run(t, EventSessionStart, f.start("s2"))
		if !strings.Contains(res.Context, "hooks failed 2 time(s) since the last session") || !strings.Contains(res.Context, in.note) {
			t.Errorf("the next session's note: %q", res.Context)
		}
		if res = f.run(t, EventSessionStart, f.start("s3")); res.Context != "" {
			t.Errorf("the failures were reported again: %q", res.Context)
		}
	}
}

// TestGuardOff: MEMCOMPACT_GUARD=off, the user's own setting, lets a
// write through unjudged; every session-start note says the guard is off
// while it is, and the first one after says it ran off.
func TestGuardOff(t *testing.T) {
	f := newFixture(t)
	f.env["MEMCOMPACT_GUARD"] = "off"
	res := f.run(t, EventPreWrite, f.addPointer("s1", "- [Tables](feedback_tables.md)"))
	checkResult(t, res, EventPreWrite, "", "", "the write guard is off (MEMCOMPACT_GUARD=off); allowing unjudged")
	res = f.run(t, EventSessionStart, f.start("s2"))
	if !strings.Contains(res.Context, "the write guard is OFF (MEMCOMPACT_GUARD=off in the hooks' environment)") {
		t.Errorf("session start with the guard off: %q", res.Context)
	}
	delete(f.env, "MEMCOMPACT_GUARD")
	f.run(t, EventPreWrite, f.addPointer("s3", "- [Tables](feedback_tables.md)"))
	f.env["MEMCOMPACT_GUARD"] = "off"
	f.run(t, EventPreWrite, f.addPointer("s3", "- [Tables](feedback_tables.md)"))
	delete(f.env, "MEMCOMPACT_GUARD")
	if res = f.run(t, EventSessionStart, f.start("s4")); !strings.Contains(res.Context, "the write guard ran switched OFF") {
		t.Errorf("the session after the guard ran off: %q", res.Context)
	}
}

func TestWriteJSON(t *testing.T) {
	for _, tt := range []struct {
		res  Result
		want string
	}{
		{Result{}, ""},
		{Result{Deny: "no"}, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}` + "\n"},
		{Result{Context: "look"}, `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"look"}}` + "\n"},
	} {
		var b bytes.Buffer
		if err := tt.res.WriteJSON(&b); err != nil || b.String() != tt.want {
			t.Errorf("%+v: %q, %v; want %q", tt.res, b.String(), err, tt.want)
		}
	}
}

// TestSessionStartStatsEachFileOnce: a session start on a store past its
// load cut (so the sweep figure runs too) asks for every entry file's stat
// from the journal's walk, the entry reads, the secrets scan and the sweep
// figure, and the file system is asked once per file — on the first run
// (nothing cached) and on an unchanged store; and each file those parts
// read is read once.
func TestSessionStartStatsEachFileOnce(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	f := newFixture(t)
	var ix strings.Builder
	ix.WriteString("# Memory\n\n## Feedback\n")
	var entries []string
	for i := range 250 {
		name := fmt.Sprintf("feedback_l%d.md", i)
		fmt.Fprintf(&ix, "- [Lesson %d](%s) — what lesson %d teaches about retries\n", i, name, i)
		if i%5 == 0 {
			continue // a dangling pointer
		}
		entries = append(entries, filepath.Join(f.store, name))
		if err := os.WriteFile(filepath.Join(f.store, name), []byte("---\nname: l\ndescription: retries\n---\nRetry three times.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(f.store, "MEMORY.md"), []byte(ix.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, run := range []string{"first", "unchanged"} {
		var mu sync.Mutex
		statted := map[string]int{}
		var table *filecache.Stats
		newStats = func() *filecache.Stats {
			table = filecache.NewStatsWith(func(p string) (fs.FileInfo, error) {
				mu.Lock()
				statted[p]++
				mu.Unlock()
				return os.Stat(p)
			})
			return table
		}
		read := map[string]int{}
		var readFirst []string // read before the run's stat of it
		newReads = func() *textfile.Reads {
			return textfile.NewReadsWith(func(p string) (*textfile.File, error) {
				mu.Lock()
				read[p]++
				if statted[p] == 0 {
					readFirst = append(readFirst, p)
				}
				mu.Unlock()
				return textfile.Read(p)
			})
		}
		res := f.run(t, EventSessionStart, f.start("s-"+run))
		newStats, newReads = filecache.NewStats, textfile.NewReads
		if len(readFirst) > 0 {
			t.Errorf("%s run: read before stat'ed (a new stamp could pair with old bytes): %q", run, readFirst)
		}
		if !strings.Contains(res.Context, "a sweep") {
			t.Fatalf("%s run: the note has no sweep figure: %q", run, res.Context)
		}
		for _, p := range entries {
			if statted[p] != 1 || table.Asked(p) < 4 {
				t.Errorf("%s run: %s stat'ed %d time(s) for %d ask(s), want once for at least 4 (journal, entries, secrets, sweep)", run, filepath.Base(p), statted[p], table.Asked(p))
				break
			}
			// The first run reads each file once for all its parts;
			// the second finds them unchanged, but the files were
			// written moments ago (within the caches' racy window), so
			// the caches check their digests: read once too.
			if read[p] != 1 {
				t.Errorf("%s run: %s read %d time(s), want once", run, filepath.Base(p), read[p])
				break
			}
		}
	}
}

// TestSessionStartWithMemoryStores: a session that mounts memory stores
// loads no MEMORY.md, so the store whose index would get a note (a
// hookless subject) gets none; the user is told why, naming the stores.
// Without the variable the same store gets its note.
func TestSessionStartWithMemoryStores(t *testing.T) {
	f := newFixture(t)
	bare := "# Memory\n\n## Feedback\n- [Race](feedback_race.md)\n"
	if err := os.WriteFile(filepath.Join(f.store, "MEMORY.md"), []byte(bare), 0o644); err != nil {
		t.Fatal(err)
	}
	f.env[store.MemoryStoresVar] = `[{"path":"/stores/team-a"}]`
	res := f.run(t, EventSessionStart, f.start("a"))
	if res.Context != "" || !strings.Contains(strings.Join(res.Notes, "\n"), "memory stores mounted: team-a") {
		t.Errorf("with memory stores mounted: context %q, notes %q", res.Context, res.Notes)
	}
	delete(f.env, store.MemoryStoresVar)
	if res := f.run(t, EventSessionStart, f.start("b")); !strings.Contains(res.Context, "memcompact") {
		t.Errorf("without memory stores the hookless subject gets no note: %q", res.Context)
	}
}

// TestRunInputBudget: a client that sends its call and keeps stdin open
// is answered at once; one that never sends it whole is denied within the
// input budget (pre-write) or allowed with a note (session start), and
// the failure is recorded, never waited out until the hook is killed.
func TestRunInputBudget(t *testing.T) {
	f := newFixture(t)
	f.env["MEMCOMPACT_HOOK_INPUT_BUDGET"] = "200ms"
	secret := "- Release token: ghp_Zx9Qw3Er7Ty1Ui5Op2As8Df4Gh6Jk0Lz3Xc7V\n"
	pr, pw := io.Pipe()
	defer pw.Close()
	go func() {
		_, _ = io.WriteString(pw, f.call("s", "Write", map[string]any{"file_path": filepath.Join(f.store, "MEMORY.md"), "content": index + secret}))
	}()
	res, err := Run(context.Background(), Request{Event: EventPreWrite, Input: pr, Getenv: f.getenv})
	if err != nil || !strings.Contains(res.Deny, "it would write a secret into memory") || len(res.Failures) > 0 {
		t.Fatalf("a whole call on an open stdin: %+v, %v", res, err)
	}
	for _, sent := range []string{"", `{"session_id":"s","tool_name":"Wri`} {
		pr, pw := io.Pipe()
		go func() { _, _ = io.WriteString(pw, sent) }()
		start := time.Now()
		res, err := Run(context.Background(), Request{Event: EventPreWrite, Input: pr, Getenv: f.getenv})
		took := time.Since(start)
		pw.Close()
		if err != nil || !strings.Contains(res.Deny, "the hook input did not arrive whole within 200ms") || !strings.Contains(res.Deny, "MEMCOMPACT_GUARD=off") {
			t.Fatalf("%q and an open stdin: %+v, %v", sent, res, err)
		}
		if took > 3*time.Second {
			t.Errorf("%q: the hook waited %s", sent, took)
		}
	}
	pr, pw = io.Pipe()
	defer pw.Close()
	res, err = Run(context.Background(), Request{Event: EventSessionStart, Input: pr, Getenv: f.getenv})
	if err != nil || res.Deny != "" || !strings.Contains(strings.Join(res.Notes, "\n"), "did not arrive whole within 200ms (expected Claude Code's hook JSON on stdin); allowing") {
		t.Fatalf("session start on an open, empty stdin: %+v, %v", res, err)
	}
	if res = f.run(t, EventSessionStart, f.start("s2")); !strings.Contains(res.Context, "hooks failed 3 time(s) since the last session") {
		t.Errorf("the next session's note: %q", res.Context)
	}
}
