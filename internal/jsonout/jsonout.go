// Package jsonout writes memcompact's JSON output. Every verb's --json
// object is encoded here, so the bytes of the protocol (two-space indent,
// "<", ">" and "&" left as written, one newline after the object) are
// decided in one place rather than once per verb.
package jsonout

import (
	"encoding/json"
	"io"
)

// Write writes v to w as indented JSON followed by a newline. HTML
// characters are not escaped: the output is read by people and programs,
// never embedded in a page. Nothing is written when v cannot be encoded,
// since the encoder builds the whole object before its one write.
func Write(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// NonNil returns s, or an empty slice when s is nil, so that a list with
// nothing in it is encoded as [] rather than null: the protocol's arrays are
// never null.
func NonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// Error is the one error object of memcompact's own verbs: what a --json
// reader gets when a verb fails without a verdict to print. The verbs
// whose JSON follows a reference script keep that script's shapes instead
// (see ARCHITECTURE.md, "JSON shapes").
type Error struct {
	SchemaVersion int      `json:"schema_version"`
	Result        string   `json:"result"` // "defects", "refused" or "usage-error"
	ExitCode      int      `json:"exit_code"`
	Error         string   `json:"error"`
	Hints         []string `json:"hints"`
}

// ErrorOf is the error object for a failure with exit code code.
func ErrorOf(code int, msg string, hints []string) Error {
	result := "refused"
	switch code {
	case 1:
		result = "defects"
	case 3:
		result = "usage-error"
	}
	return Error{SchemaVersion: 1, Result: result, ExitCode: code, Error: msg, Hints: NonNil(hints)}
}
