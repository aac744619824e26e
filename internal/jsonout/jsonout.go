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
