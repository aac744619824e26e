package claudehooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// object is a JSON object that keeps its members in file order. Values are
// kept as raw JSON, so the parts of settings.json memcompact does not touch
// come out exactly as they went in (modulo indentation): a settings file is
// the user's, and reordering or re-escaping it would make every diff noisy.
type object struct {
	members []member
}

type member struct {
	key   string
	value json.RawMessage
}

// parseObject decodes raw, which must be exactly one JSON object.
func parseObject(raw []byte) (*object, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, jsonErr(raw, dec, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	o := &object{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, jsonErr(raw, dec, err)
		}
		key, ok := tok.(string)
		if !ok {
			return nil, errors.New("object key is not a string")
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, jsonErr(raw, dec, err)
		}
		o.members = append(o.members, member{key, v})
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, jsonErr(raw, dec, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("offset %d: unexpected data after the top-level object", dec.InputOffset())
	}
	return o, nil
}

// jsonErr adds a line number to a decoding error.
func jsonErr(raw []byte, dec *json.Decoder, err error) error {
	off := dec.InputOffset()
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = se.Offset
	}
	if off > int64(len(raw)) {
		off = int64(len(raw))
	}
	line := 1 + bytes.Count(raw[:off], []byte("\n"))
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("line %d: %v", line, err)
}

// get returns the value of the first member named key.
func (o *object) get(key string) (json.RawMessage, bool) {
	for _, m := range o.members {
		if m.key == key {
			return m.value, true
		}
	}
	return nil, false
}

// count returns how many members are named key. JSON.parse (Claude Code)
// keeps the last of duplicate keys; editing the first would change nothing
// it reads, so duplicates of a key memcompact edits are refused.
func (o *object) count(key string) int {
	n := 0
	for _, m := range o.members {
		if m.key == key {
			n++
		}
	}
	return n
}

// set replaces the first member named key in place, or appends one.
func (o *object) set(key string, v json.RawMessage) {
	for i := range o.members {
		if o.members[i].key == key {
			o.members[i].value = v
			return
		}
	}
	o.members = append(o.members, member{key, v})
}

// del removes every member named key.
func (o *object) del(key string) {
	out := o.members[:0]
	for _, m := range o.members {
		if m.key != key {
			out = append(out, m)
		}
	}
	o.members = out
}

// marshal renders o compactly; the caller indents the whole document once.
func (o *object) marshal() json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o.members {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(quote(m.key))
		b.WriteByte(':')
		b.Write(m.value)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// quote encodes s as a JSON string without HTML escaping, so "<" in a key
// stays "<" as the user wrote it.
func quote(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return bytes.TrimRight(b.Bytes(), "\n")
}

// marshalValue encodes v without HTML escaping.
func marshalValue(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("claudehooks: unencodable value: " + err.Error()) // only our own literals reach here
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

// isNull reports whether v is the JSON literal null.
func isNull(v json.RawMessage) bool {
	return string(bytes.TrimSpace(v)) == "null"
}
