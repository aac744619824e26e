// Package jsonout writes memcompact's JSON output. Every verb's --json
// object is encoded here, so the bytes of the protocol (two-space indent,
// "<", ">" and "&" left as written, one newline after the object) are
// decided in one place rather than once per verb.
package jsonout

import (
	"encoding/json"
	"io"

	"github.com/memcompact/memcompact/internal/outcome"
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

// ErrorOf is the error object for a failure of status st (its exit code).
// A clean status is not a failure: it is reported as a refusal.
func ErrorOf(st outcome.Status, msg string, hints []string) Error {
	if st == outcome.Clean {
		st = outcome.Refused
	}
	return Error{SchemaVersion: 1, Result: st.String(), ExitCode: int(st), Error: msg, Hints: NonNil(hints)}
}

// RootError is the error object of the memory-root verbs (budgets,
// compact, restore, …), pinned before Error existed: declared here once,
// for the command line's --json and the MCP server's tools alike.
type RootError struct {
	SchemaVersion int    `json:"schema_version"`
	Status        string `json:"status"` // "defects", "refused" or "usage"
	Code          int    `json:"code"`
	Error         string `json:"error"`
}

// RootErrorOf is the memory-root error object for a failure of status st.
func RootErrorOf(st outcome.Status, msg string) RootError {
	status := map[outcome.Status]string{outcome.Defects: "defects", outcome.Usage: "usage"}[st]
	if status == "" {
		st, status = outcome.Refused, "refused"
	}
	return RootError{SchemaVersion: 1, Status: status, Code: int(st), Error: msg}
}
