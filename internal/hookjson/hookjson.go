// Package hookjson is Claude Code's hook JSON as memcompact's hooks meet
// it: the payload a command hook reads on stdin (Input, ToolInput) and the
// objects it prints on stdout (Deny, SessionContext). It only parses and
// prints; package hookrun decides, package claudehooks installs.
package hookjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// MaxInput bounds what a hook reads from stdin. A Write of a memory file is
// a few kilobytes; the bound only keeps a runaway payload from exhausting
// memory (textfile.MaxSize is the ceiling for any file memcompact reads).
const MaxInput = 64 << 20

// Input is the JSON Claude Code sends a command hook on stdin. Only the
// fields memcompact reads are declared; unknown fields are ignored, so a
// newer Claude Code that adds fields still works.
type Input struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	Source         string          `json:"source"` // SessionStart: startup, resume, clear, compact
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
}

// ToolInput is tool_input of the Write, Edit and MultiEdit tools.
type ToolInput struct {
	FilePath   string  `json:"file_path"`
	Content    *string `json:"content"`     // Write
	OldString  *string `json:"old_string"`  // Edit
	NewString  *string `json:"new_string"`  // Edit
	ReplaceAll bool    `json:"replace_all"` // Edit
	Edits      []Edit  `json:"edits"`       // MultiEdit
	// Offset and Limit are a Read of part of a file (any JSON value: only
	// whether they were given matters).
	Offset json.RawMessage `json:"offset"`
	Limit  json.RawMessage `json:"limit"`
}

// Partial reports whether a Read asked for part of the file only.
func (t *ToolInput) Partial() bool {
	given := func(r json.RawMessage) bool { return len(r) > 0 && !isNull(r) }
	return given(t.Offset) || given(t.Limit)
}

// Edit is one replacement of an Edit or MultiEdit call.
type Edit struct {
	OldString  string `json:"old_string"`
	NewString  string `json:"new_string"`
	ReplaceAll bool   `json:"replace_all"`
}

// ReadInput decodes a hook's stdin. It returns once one whole JSON value
// has arrived, without waiting for the end of the input: a client that
// sends its call and keeps the pipe open must not hold the hook until it
// is killed (Claude Code lets a call through when its hook times out).
// What arrived with the value past it must be white space.
func ReadInput(r io.Reader) (*Input, error) {
	lr := &io.LimitedReader{R: r, N: MaxInput + 1}
	dec := json.NewDecoder(lr)
	var in Input
	err := dec.Decode(&in)
	switch {
	case lr.N <= 0:
		return nil, fmt.Errorf("the hook input is larger than %d bytes", MaxInput)
	case errors.Is(err, io.EOF):
		return nil, errors.New("the hook input is empty (expected Claude Code's hook JSON on stdin)")
	case err != nil && !isSyntax(err):
		return nil, fmt.Errorf("reading the hook input: %w", err)
	case err != nil:
		return nil, fmt.Errorf("the hook input is not Claude Code's hook JSON: %s", plain(err))
	}
	rest, _ := io.ReadAll(dec.Buffered())
	if len(bytes.TrimSpace(rest)) > 0 {
		return nil, errors.New("the hook input is not Claude Code's hook JSON: more follows its JSON object")
	}
	return &in, nil
}

// isSyntax reports whether err is the decoder's judgement of the input
// (not a failure to read it).
func isSyntax(err error) bool {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	return errors.As(err, &syn) || errors.As(err, &typ) || errors.Is(err, io.ErrUnexpectedEOF)
}

// plain is the decoder's judgement of the input in plain words, with where
// it went wrong, rather than as Go's reflection words it.
func plain(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("it is not JSON (at byte %d)", syn.Offset)
	case errors.As(err, &typ) && typ.Field != "":
		return fmt.Sprintf("%s is %s, not %s (at byte %d)", typ.Field, jsonKind(typ.Value), wants(typ.Type), typ.Offset)
	case errors.As(err, &typ):
		return fmt.Sprintf("it is %s, not a JSON object", jsonKind(typ.Value))
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "it ends before its JSON does"
	}
	return err.Error()
}

// jsonKind is the JSON type the decoder names in an UnmarshalTypeError's
// Value ("number", "string", "array", …), with its article.
func jsonKind(v string) string {
	switch {
	case v == "":
		return "a value"
	case v == "array" || v == "object":
		return "an " + v
	case strings.HasPrefix(v, "number"):
		return "a number"
	}
	return "a " + v
}

// wants is the JSON a Go type is decoded from, with its article.
func wants(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct, reflect.Pointer:
		return "an object"
	}
	return "a number"
}

// Tool decodes tool_input of a Write, Edit or MultiEdit call.
func (in *Input) Tool() (*ToolInput, error) {
	if len(in.ToolInput) == 0 || isNull(in.ToolInput) {
		return nil, errors.New("the hook input has no tool_input")
	}
	var t ToolInput
	if err := json.Unmarshal(in.ToolInput, &t); err != nil {
		return nil, fmt.Errorf("tool_input is not a %s call's input: %s", in.ToolName, plain(err))
	}
	if t.FilePath == "" {
		return nil, errors.New("tool_input has no file_path")
	}
	return &t, nil
}

// preToolUseOutput is the documented decision object of a PreToolUse hook.
type preToolUseOutput struct {
	HookSpecificOutput struct {
		HookEventName            string `json:"hookEventName"`
		PermissionDecision       string `json:"permissionDecision"`
		PermissionDecisionReason string `json:"permissionDecisionReason"`
	} `json:"hookSpecificOutput"`
}

// Deny is the stdout of a PreToolUse hook that blocks the call; reason is
// shown to the agent, so it says what to do instead. (The hook exits 0:
// the decision travels in the JSON, not in the exit status.)
func Deny(reason string) []byte {
	var o preToolUseOutput
	o.HookSpecificOutput.HookEventName = "PreToolUse"
	o.HookSpecificOutput.PermissionDecision = "deny"
	o.HookSpecificOutput.PermissionDecisionReason = reason
	return append(marshalValue(o), '\n')
}

// sessionStartOutput adds context for the agent at session start.
type sessionStartOutput struct {
	HookSpecificOutput struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// SessionContext is the stdout of a SessionStart hook that gives the agent
// a note to read before it starts.
func SessionContext(note string) []byte {
	var o sessionStartOutput
	o.HookSpecificOutput.HookEventName = "SessionStart"
	o.HookSpecificOutput.AdditionalContext = note
	return append(marshalValue(o), '\n')
}

// isNull reports whether v is the JSON literal null.
func isNull(v json.RawMessage) bool {
	return string(bytes.TrimSpace(v)) == "null"
}

// DrySession is the session id of a dry run: "hooks install" and doctor
// send a hook a payload with it to see that the command they wrote runs,
// and the hook answers at once, changing nothing.
const DrySession = "memcompact-dry-run"

// DryInput is the payload of a dry run of a hook for event (a Claude Code
// hook event name).
func DryInput(event string) string {
	return `{"session_id":"` + DrySession + `","hook_event_name":"` + event + `","tool_name":"Read","tool_input":{}}`
}

// marshalValue encodes one of this package's output objects without HTML
// escaping (the agent reads the reason as written). A struct of strings
// always encodes.
func marshalValue(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return bytes.TrimRight(b.Bytes(), "\n")
}
