package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestDecodeArgsIntegers: an integer is whole however JSON spells it (5,
// 5.0, 1e2), and a number that is not one is named in plain words, never
// in Go's reflection's.
func TestDecodeArgsIntegers(t *testing.T) {
	s := inputSchema[LoadInput]()
	tests := []struct {
		raw       string
		lines     int
		wantError string // "" for none
	}{
		{`{"lines": 5}`, 5, ""},
		{`{"lines": 5.0}`, 5, ""},
		{`{"lines": 1e2}`, 100, ""},
		{`{"lines": -3.0}`, -3, ""},
		{`{"lines": 9223372036854775807}`, 9223372036854775807, ""},
		{`{"lines": 5.5}`, 0, "lines is a number; want an integer"},
		{`{"lines": 1e30}`, 0, "lines is 1e30, too large for an integer here"},
		{`{"lines": 9223372036854775808}`, 0, "too large for an integer here"},
		{`{"lines": "5"}`, 0, "lines is a string; want an integer"},
		{`{"lines": null}`, 0, ""},
	}
	for _, tt := range tests {
		var in LoadInput
		err := decodeArgs(s, json.RawMessage(tt.raw), &in)
		switch {
		case tt.wantError == "" && err != nil:
			t.Errorf("%s: %v", tt.raw, err)
		case tt.wantError != "" && (err == nil || !strings.Contains(err.Error(), tt.wantError)):
			t.Errorf("%s: error %v, want %q", tt.raw, err, tt.wantError)
		case err == nil && tt.lines != 0 && (in.Lines == nil || *in.Lines != tt.lines):
			t.Errorf("%s: lines %v, want %d", tt.raw, in.Lines, tt.lines)
		}
		if err != nil && strings.Contains(err.Error(), "Go struct") {
			t.Errorf("%s: Go's wording leaked: %v", tt.raw, err)
		}
	}
}

// FuzzDecodeArgs: whatever the arguments, decodeArgs never panics, and an
// error is in plain words (never Go's reflection's).
func FuzzDecodeArgs(f *testing.F) {
	for _, seed := range []string{`{}`, `null`, `{"index":"a","lines":5.0}`, `{"lines":1e400}`, `{"units":-0.0}`,
		`{"decisions":[{"identity":"a@unknown","decision":"accepted"}],"confirm":true}`, `{"decisions":[null]}`, `[1]`, `{"x":1}`} {
		f.Add(seed)
	}
	load, apply := inputSchema[LoadInput](), inputSchema[SweepApplyInput]()
	f.Fuzz(func(t *testing.T, raw string) {
		var li LoadInput
		if err := decodeArgs(load, json.RawMessage(raw), &li); err != nil && strings.Contains(err.Error(), "Go struct") {
			t.Errorf("%q: %v", raw, err)
		}
		var ai SweepApplyInput
		if err := decodeArgs(apply, json.RawMessage(raw), &ai); err != nil && strings.Contains(err.Error(), "Go struct") {
			t.Errorf("%q: %v", raw, err)
		}
	})
}
