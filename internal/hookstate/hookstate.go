// Package hookstate is what the Claude Code hooks could not do, kept in
// memcompact's data directory so the next session-start note and doctor
// can say so: a hook that fails is otherwise seen only in Claude Code's
// debug log. It also records that the write guard ran switched off
// (MEMCOMPACT_GUARD=off), the one way to turn it off.
//
// The file is JSON lines, one Event each, appended (atomicfile.Append) and
// cut to its last MaxEvents when it grows past them. A line it cannot read
// is skipped: the record is a report, never a reason to fail a hook.
package hookstate

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/textfile"
)

// FileName is the record's name in the data directory.
const FileName = "hook-events.jsonl"

// MaxEvents is how many events the record keeps.
const MaxEvents = 200

// Event is one line of the record.
type Event struct {
	At      time.Time `json:"at"`
	Hook    string    `json:"hook,omitempty"`    // pre-write, session-start, post-read
	Session string    `json:"session,omitempty"` // Claude Code's session id
	// Failure says what the hook could not do, and what it did instead.
	Failure string `json:"failure,omitempty"`
	// GuardOff: the pre-write hook ran with the guard switched off.
	GuardOff bool `json:"guard_off,omitempty"`
	// Reported: a session-start note reported every event before this one.
	Reported bool `json:"reported,omitempty"`
}

// Path is the record's path in the data directory dir.
func Path(dir string) string { return filepath.Join(dir, FileName) }

// Record appends e to the record in dir, creating dir when needed.
func Record(dir string, e Event) error {
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	path := Path(dir)
	if err := atomicfile.Append(path, append(line, '\n')); err != nil {
		return err
	}
	return trim(path)
}

// trim cuts the record to its last MaxEvents lines once it holds more.
func trim(path string) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	lines := bytes.SplitAfter(raw, []byte("\n"))
	if len(lines) <= MaxEvents+1 {
		return nil
	}
	kept := bytes.Join(lines[len(lines)-MaxEvents-1:], nil)
	err = atomicfile.Replace(path, kept, textfile.Digest(raw))
	if errors.Is(err, atomicfile.ErrChanged) {
		return nil // another hook appended meanwhile; the next record trims
	}
	return err
}

// Read returns the events recorded in dir, oldest first; none when there
// is no record yet.
func Read(dir string) ([]Event, error) {
	raw, err := os.ReadFile(Path(dir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Event
	for line := range bytes.Lines(raw) {
		var e Event
		if json.Unmarshal(line, &e) == nil && !e.At.IsZero() {
			out = append(out, e)
		}
	}
	return out, nil
}

// Unreported returns the failures recorded after the last event a
// session-start note reported, and whether the guard ran switched off
// since then.
func Unreported(events []Event) (failures []Event, guardOff bool) {
	for _, e := range events {
		switch {
		case e.Reported:
			failures, guardOff = nil, false
		case e.GuardOff:
			guardOff = true
		case e.Failure != "":
			failures = append(failures, e)
		}
	}
	return failures, guardOff
}

// Since returns the failures recorded at or after t, and whether the
// guard ran switched off since then.
func Since(events []Event, t time.Time) (failures []Event, guardOff bool) {
	for _, e := range events {
		if e.At.Before(t) {
			continue
		}
		switch {
		case e.GuardOff:
			guardOff = true
		case e.Failure != "":
			failures = append(failures, e)
		}
	}
	return failures, guardOff
}

// GuardOffRecorded reports whether events already record the guard off in
// session (so a session records it once, not on every write).
func GuardOffRecorded(events []Event, session string) bool {
	for i := len(events) - 1; i >= 0; i-- {
		if e := events[i]; e.GuardOff && e.Session == session {
			return true
		}
	}
	return false
}
