// Package claudehooks connects memcompact to Claude Code's hooks: it merges
// memcompact's hook entries into a settings.json (and takes exactly them
// out again), and finds and tries the ones installed (Inspect, for
// doctor). The JSON a hook reads and prints is package hookjson's.
//
// The hooks are:
//
//	SessionStart                        memcompact hook session-start
//	PreToolUse  (Write|Edit)              memcompact hook pre-write
//	PostToolUse (Read)                  memcompact hook post-read
//
// post-read counts reads of memory entries, locally, as the recall
// evidence a sweep plan weighs (an entry read often is not unused).
//
// A settings file belongs to its user, so an edit keeps every other key and
// its order, refuses a file that is not valid JSON instead of guessing, keeps
// the previous bytes in settings.json.memcompact-backup, and replaces the
// file atomically only if nobody changed it since it was read. Installing
// twice leaves one copy of each hook; uninstalling removes the hook entries
// whose command is memcompact's and nothing else.
package claudehooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/shellword"
	"github.com/memcompact/memcompact/internal/textfile"
)

// Hook is one hook entry memcompact installs.
type Hook struct {
	Event   string // "SessionStart", "PreToolUse" or "PostToolUse"
	Matcher string // tool-name pattern; empty matches everything
	Sub     string // the "memcompact hook" sub-verb it runs
	Timeout int    // seconds before Claude Code gives up on it
}

// Ours lists memcompact's hooks. The timeouts are short because the hooks
// run on the agent's critical path, and a slow guard should fail open (a
// timeout lets the tool call through) rather than stall the session.
var Ours = []Hook{
	{Event: "SessionStart", Sub: "session-start", Timeout: 10},
	// No MultiEdit: Claude Code 2.1.x has no such tool any more (checked
	// against 2.1.332's tool list); pre-write still judges a MultiEdit
	// payload from an older client that a hand-written matcher sends.
	{Event: "PreToolUse", Matcher: "Write|Edit", Sub: "pre-write", Timeout: 10},
	{Event: "PostToolUse", Matcher: "Read", Sub: "post-read", Timeout: 5},
}

// Marker ends every hook command memcompact writes: a shell comment, so
// it changes nothing when the command runs, by which install and
// uninstall know their own entries exactly. A user's own hook that only
// looks like memcompact's (memcompact-audit, npx memcompactor,
// memcompact.py, MEMCOMPACT_JOURNAL=off memcompact …, a wrapper script)
// never ends with it, so it is never rewritten or removed.
const Marker = "# memcompact hooks install"

// hostOS is the system the hooks are written for: runtime.GOOS, which a
// test replaces to read what a Windows install writes.
var hostOS = runtime.GOOS

// Command is the shell command for h when memcompact is the executable
// bin (an absolute path), on this system: see CommandFor.
func (h Hook) Command(bin string) string { return h.CommandFor(hostOS, bin) }

// CommandFor is the shell command for h on the system goos: bin quoted
// for the shell that runs it, so a path with a space or a quote runs as it
// is, then the sub-verb and Marker (a comment in both shells).
//
// On Windows Claude Code runs a shell-form hook with Git Bash when it
// finds one and with PowerShell when it does not, and no one quoting of a
// path with spaces runs in both; so there the hook names its shell,
// PowerShell (Shell), which every Windows has, and the command is
// PowerShell's: the call operator and bin in single quotes.
func (h Hook) CommandFor(goos, bin string) string {
	if goos == "windows" {
		return "& '" + strings.ReplaceAll(bin, "'", "''") + "' hook " + h.Sub + " " + Marker
	}
	return shellword.Quote(bin) + " hook " + h.Sub + " " + Marker
}

// Shell is the "shell" a hook entry names on the system goos: "powershell"
// on Windows (see CommandFor), else none (Claude Code's default, bash).
func Shell(goos string) string {
	if goos == "windows" {
		return "powershell"
	}
	return ""
}

// Label names h in reports: the event, and the matcher when there is one.
func (h Hook) Label() string {
	if h.Matcher == "" {
		return h.Event
	}
	return h.Event + " (" + h.Matcher + ")"
}

// BackupSuffix is appended to a settings file's name for the copy of its
// bytes as they were before memcompact's latest change to it.
const BackupSuffix = ".memcompact-backup"

// InvalidError reports a settings file memcompact refuses to edit.
type InvalidError struct {
	Path string
	Err  error
}

func (e *InvalidError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *InvalidError) Unwrap() error { return e.Err }

// Change is what Install or Uninstall did.
type Change struct {
	Settings string   `json:"settings"`
	Changed  bool     `json:"changed"`
	Created  bool     `json:"created"`
	Backup   string   `json:"backup,omitempty"`
	Added    []string `json:"added"`
	Present  []string `json:"already_present"`
	Removed  []string `json:"removed"`
}

// Install merges memcompact's hooks, running bin, into the settings file at
// path (created if missing). Hook entries of memcompact already there are
// replaced in place, so a second install changes nothing.
func Install(path, bin string) (*Change, error) {
	return edit(path, func(hooks *object, c *Change) error {
		for _, h := range Ours {
			if err := setHook(hooks, h, bin, true, c); err != nil {
				return err
			}
		}
		return nil
	})
}

// Uninstall removes memcompact's hook entries from the settings file at
// path. A missing file, or one without them, is left alone.
func Uninstall(path string) (*Change, error) {
	return edit(path, func(hooks *object, c *Change) error {
		for _, h := range Ours {
			if err := setHook(hooks, h, "", false, c); err != nil {
				return err
			}
		}
		return nil
	})
}

// edit reads path, lets change rewrite its "hooks" object, and writes the
// result back if it differs from what was there.
func edit(path string, change func(hooks *object, c *Change) error) (*Change, error) {
	c := &Change{Settings: path, Added: []string{}, Present: []string{}, Removed: []string{}}
	atomicfile.RemoveStale(filepath.Dir(path))
	f, exists, err := readSettled(path)
	if err != nil {
		return nil, err
	}
	if !utf8.Valid(f.Raw) {
		return nil, &InvalidError{path, errors.New("not valid UTF-8, so not valid JSON; refusing to edit it")}
	}
	doc := &object{}
	if strings.TrimSpace(f.Text) != "" {
		if doc, err = parseObject([]byte(f.Text)); err != nil {
			return nil, &InvalidError{path, fmt.Errorf("not valid JSON (%v); refusing to edit it", err)}
		}
	}
	before, err := render(doc, f)
	if err != nil {
		return nil, &InvalidError{path, err}
	}

	if doc.count("hooks") > 1 {
		return nil, &InvalidError{path, errors.New(`"hooks" appears more than once; refusing to edit it`)}
	}
	hooks := &object{}
	if v, ok := doc.get("hooks"); ok && !isNull(v) {
		if hooks, err = parseObject(v); err != nil {
			return nil, &InvalidError{path, errors.New(`"hooks" is not a JSON object; refusing to edit it`)}
		}
	}
	for _, h := range Ours {
		if hooks.count(h.Event) > 1 {
			return nil, &InvalidError{path, fmt.Errorf(`"hooks.%s" appears more than once; refusing to edit it`, h.Event)}
		}
	}
	if err := change(hooks, c); err != nil {
		return nil, &InvalidError{path, err}
	}
	if len(hooks.members) == 0 {
		// Only drop a "hooks" key we emptied; one the user left as {} stays.
		if v, ok := doc.get("hooks"); ok && len(c.Removed) > 0 && !isEmptyObject(v) {
			doc.del("hooks")
		}
	} else {
		doc.set("hooks", hooks.marshal())
	}
	after, err := render(doc, f)
	if err != nil {
		return nil, &InvalidError{path, err}
	}
	if bytes.Equal(before, after) && exists {
		return c, nil
	}
	if !exists && len(c.Added) == 0 {
		return c, nil // nothing to uninstall from a file that is not there
	}

	if exists {
		// The backup is exactly the bytes read and planned against. A blank
		// file has nothing worth keeping, and may be another writer's file
		// caught between truncation and write: it gets no backup.
		backup := path + BackupSuffix
		want := ""
		if old, err := textfile.Read(backup); err == nil {
			want = old.Digest
		}
		if len(bytes.TrimSpace(f.Raw)) > 0 {
			if err := atomicfile.Replace(backup, f.Raw, want); err != nil {
				return nil, fmt.Errorf("%s: writing the backup: %w", backup, err)
			}
			c.Backup = backup
		}
	} else {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		c.Created = true
	}
	want := ""
	if exists {
		want = f.Digest
	}
	if err := atomicfile.Replace(path, after, want); err != nil {
		return nil, err
	}
	c.Changed = true
	return c, nil
}

// render prints doc indented by two spaces (Claude Code's own layout),
// keeping the original file's byte-order mark and line ending.
func render(doc *object, f *textfile.File) ([]byte, error) {
	var b bytes.Buffer
	if err := json.Indent(&b, doc.marshal(), "", "  "); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	out := b.Bytes()
	if textfile.EOL(f.Text) == "\r\n" {
		out = bytes.ReplaceAll(out, []byte("\n"), []byte("\r\n"))
	}
	if f.HasBOM {
		out = append([]byte(textfile.BOM), out...)
	}
	return out, nil
}

func isEmptyObject(v json.RawMessage) bool {
	o, err := parseObject(v)
	return err == nil && len(o.members) == 0
}

// commandHook is the part of a hook handler memcompact reads.
type commandHook struct {
	Type    string `json:"type"`
	Command string `json:"command"`
}

// IsOurs reports whether command is memcompact's hook command for the
// sub-verb sub, whatever executable it runs: one this package wrote (it
// ends in "hook SUB" and Marker), or one an earlier memcompact wrote
// before it had a marker, which was exactly "BIN hook SUB" with BIN a
// memcompact or memcompact-hook executable (a bare name, a path without
// spaces, or a quoted path). Nothing else is ours, however much it looks like it.
func IsOurs(command, sub string) bool {
	if strings.HasSuffix(command, " hook "+sub+" "+Marker) {
		return true
	}
	bin, ok := strings.CutSuffix(command, " hook "+sub)
	if !ok {
		return false
	}
	if len(bin) >= 2 && (bin[0] == '"' || bin[0] == '\'') && bin[len(bin)-1] == bin[0] {
		bin = bin[1 : len(bin)-1]
	} else if strings.ContainsAny(bin, " \t'\"") {
		return false
	}
	name := bin
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.TrimSuffix(strings.TrimSuffix(name, ".exe"), ".EXE")
	return name == "memcompact" || name == "memcompact-hook"
}

// setHook removes every handler of h's sub-verb from h's event and, when
// install is true, puts back one group running it, where the first removed
// one was (or at the end).
func setHook(hooks *object, h Hook, bin string, install bool, c *Change) error {
	var groups []json.RawMessage
	if v, ok := hooks.get(h.Event); ok && !isNull(v) {
		if err := json.Unmarshal(v, &groups); err != nil {
			return fmt.Errorf(`"hooks.%s" is not a JSON array; refusing to edit it`, h.Event)
		}
	}
	at, removed := -1, 0
	var kept []json.RawMessage
	for _, g := range groups {
		ng, n, drop := withoutOurs(g, h.Sub)
		removed += n
		if !drop {
			kept = append(kept, ng)
		}
		// Ours goes back where the first one was: in place of a group it
		// had to itself, or just after a group it shared.
		if n > 0 && at < 0 {
			at = len(kept)
		}
	}
	if install {
		if at < 0 {
			at = len(kept)
		}
		kept = append(kept[:at], append([]json.RawMessage{ourGroup(h, bin)}, kept[at:]...)...)
		if removed == 0 {
			c.Added = append(c.Added, h.Label())
		} else {
			c.Present = append(c.Present, h.Label())
		}
	} else if removed > 0 {
		c.Removed = append(c.Removed, h.Label())
	}
	if len(kept) == 0 {
		if removed > 0 {
			hooks.del(h.Event)
		}
		return nil
	}
	if removed == 0 && !install {
		return nil
	}
	hooks.set(h.Event, joinArray(kept))
	return nil
}

// withoutOurs returns group g with memcompact's handlers for sub taken out,
// how many were taken out, and whether the group is now empty and should
// go. A group memcompact cannot read is somebody else's and kept as is.
func withoutOurs(g json.RawMessage, sub string) (json.RawMessage, int, bool) {
	o, err := parseObject(g)
	if err != nil {
		return g, 0, false
	}
	hv, ok := o.get("hooks")
	if !ok {
		return g, 0, false
	}
	var handlers []json.RawMessage
	if json.Unmarshal(hv, &handlers) != nil {
		return g, 0, false
	}
	var kept []json.RawMessage
	n := 0
	for _, raw := range handlers {
		var ch commandHook
		if json.Unmarshal(raw, &ch) == nil && IsOurs(ch.Command, sub) {
			n++
			continue
		}
		kept = append(kept, raw)
	}
	if n == 0 {
		return g, 0, false
	}
	if len(kept) == 0 {
		return nil, n, true
	}
	o.set("hooks", joinArray(kept))
	return o.marshal(), n, false
}

// ourGroup is the matcher group memcompact installs for h.
func ourGroup(h Hook, bin string) json.RawMessage {
	handler := marshalValue(struct {
		Type    string `json:"type"`
		Command string `json:"command"`
		Shell   string `json:"shell,omitempty"`
		Timeout int    `json:"timeout"`
	}{"command", h.Command(bin), Shell(hostOS), h.Timeout})
	g := &object{}
	if h.Matcher != "" {
		g.set("matcher", marshalValue(h.Matcher))
	}
	g.set("hooks", joinArray([]json.RawMessage{handler}))
	return g.marshal()
}

// joinArray renders raw values as a JSON array without re-escaping them
// (json.Marshal would HTML-escape the user's strings).
func joinArray(vs []json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, v := range vs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(v)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// The settling of a read: how long to wait between two reads, and how many
// reads to make before giving up; and how long an empty file must have
// stood unmodified before it is taken as empty, not as a file another
// program has just truncated and is about to write again.
var (
	settleWait  = 20 * time.Millisecond
	settleReads = 50
	settleQuiet = 250 * time.Millisecond
)

// snapshot is one read of the settings file.
type snapshot struct {
	f        *textfile.File
	exists   bool
	err      error
	modified time.Time // of a blank file: when it was last written
}

// fresh reports whether s is a blank file written too recently to be
// taken as empty: a program that rewrites the file in place truncates it
// first, and a read between the two sees nothing.
func (s snapshot) fresh() bool { return s.blank() && time.Since(s.modified) < settleQuiet }

func (s snapshot) blank() bool { return s.exists && len(bytes.TrimSpace(s.f.Raw)) == 0 }

func (s snapshot) same(o snapshot) bool {
	if s.err != nil || o.err != nil {
		return false
	}
	return s.exists == o.exists && (!s.exists || s.f.Digest == o.f.Digest)
}

func readOnce(path string) snapshot {
	f, err := textfile.Read(path)
	switch {
	case err == nil:
		s := snapshot{f: f, exists: true}
		if s.blank() {
			if fi, err := os.Stat(path); err == nil {
				s.modified = fi.ModTime()
			} else {
				s.modified = time.Now()
			}
		}
		return s
	case errors.Is(err, fs.ErrNotExist):
		return snapshot{f: textfile.FromBytes(path, nil)}
	}
	return snapshot{err: err}
}

// readSettled reads the settings file until two reads a moment apart
// agree, so an edit is never planned against a file another program is
// rewriting: a file caught between its truncation and its new bytes reads
// empty, and writing hooks over it would lose every other key. A file
// that reads empty while it was not empty before — in an earlier read of
// this run, or as the backup of memcompact's last change holds it — is
// read again until it is not; if it stays empty, the edit is refused,
// saying where the last bytes are. An empty file with no such past is
// taken as empty only once it has stood unwritten for settleQuiet: the
// first read may itself fall between the truncation and the write.
func readSettled(path string) (*textfile.File, bool, error) {
	prev := readOnce(path)
	hadBytes := prev.exists && !prev.blank()
	backup := path + BackupSuffix
	where := "it read so a moment ago"
	if b, err := textfile.Read(backup); err == nil && len(bytes.TrimSpace(b.Raw)) > 0 {
		hadBytes, where = true, "its last settings are kept in "+backup
	}
	for range settleReads {
		time.Sleep(settleWait)
		cur := readOnce(path)
		hadBytes = hadBytes || (cur.exists && !cur.blank())
		if cur.same(prev) && !(cur.blank() && hadBytes) && !cur.fresh() {
			return cur.f, cur.exists, nil
		}
		prev = cur
	}
	switch {
	case prev.err != nil:
		return nil, false, &InvalidError{path, prev.err}
	case prev.blank():
		return nil, false, &InvalidError{path, fmt.Errorf("it is empty, yet it held settings before (%s); another program may be rewriting it, so it is not written over. Run the command again in a moment; if you emptied it on purpose, delete it first", where)}
	}
	return nil, false, &InvalidError{path, errors.New("it kept changing while it was read; another program is rewriting it. Run the command again in a moment")}
}
