package hookjson

import (
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

func TestReadInput(t *testing.T) {
	in, err := ReadInput(strings.NewReader(`{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"MultiEdit","tool_input":{"file_path":"/p/m.md","edits":[{"old_string":"a","new_string":"b","replace_all":true}]},"new_field":1}`))
	if err != nil {
		t.Fatal(err)
	}
	tool, err := in.Tool()
	if err != nil || tool.FilePath != "/p/m.md" || len(tool.Edits) != 1 || !tool.Edits[0].ReplaceAll {
		t.Fatalf("%+v %v", tool, err)
	}
	for _, bad := range []string{"", "  ", "null x", "[1]", `{"tool_input": 5}`} {
		in, err := ReadInput(strings.NewReader(bad))
		if err == nil {
			if _, err = in.Tool(); err == nil {
				t.Errorf("%q: no error", bad)
			}
		}
	}
}

// TestReadInputErrors: each input the hook cannot take gets the error that
// names why, and a whole call is taken without waiting for the end of the
// input.
func TestReadInputErrors(t *testing.T) {
	for _, c := range []struct{ in, err string }{
		{"", "the hook input is empty"},
		{" \n\t", "the hook input is empty"},
		{"not json", "is not Claude Code's hook JSON: it is not JSON (at byte 2)"},
		{`{"session_id":"s"`, "is not Claude Code's hook JSON: it ends before its JSON does"},
		{`{"session_id":5}`, "is not Claude Code's hook JSON: session_id is a number, not a string (at byte 15)"},
		{`[1]`, "is not Claude Code's hook JSON: it is an array, not a JSON object"},
		{`{"session_id":"s"} {"session_id":"t"}`, "more follows its JSON object"},
		{`{"session_id":"s"} x`, "more follows its JSON object"},
		{`{"session_id":"` + strings.Repeat("s", MaxInput) + `"}`, "larger than"},
	} {
		_, err := ReadInput(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%.40q: %v, want %q", c.in, err, c.err)
		}
	}
	if in, err := ReadInput(strings.NewReader("{\"session_id\":\"s\"}\n\n")); err != nil || in.SessionID != "s" {
		t.Errorf("a call and white space: %+v, %v", in, err)
	}
	pr, pw := io.Pipe()
	defer pw.Close()
	go func() { _, _ = io.WriteString(pw, `{"session_id":"open"}`) }()
	got := make(chan *Input, 1)
	go func() {
		in, _ := ReadInput(pr)
		got <- in
	}()
	select {
	case in := <-got:
		if in == nil || in.SessionID != "open" {
			t.Errorf("a call on an open pipe: %+v", in)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ReadInput waited for the end of an input that held a whole call")
	}
}

func TestOutputs(t *testing.T) {
	var d struct {
		HookSpecificOutput map[string]string `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(Deny("no <b>"), &d); err != nil || d.HookSpecificOutput["permissionDecision"] != "deny" ||
		d.HookSpecificOutput["hookEventName"] != "PreToolUse" || d.HookSpecificOutput["permissionDecisionReason"] != "no <b>" {
		t.Fatalf("%+v %v", d, err)
	}
	if err := json.Unmarshal(SessionContext("note"), &d); err != nil || d.HookSpecificOutput["additionalContext"] != "note" ||
		d.HookSpecificOutput["hookEventName"] != "SessionStart" {
		t.Fatalf("%+v %v", d, err)
	}
}

// FuzzReadInput: no hook input panics the decoder.
func FuzzReadInput(f *testing.F) {
	f.Add([]byte(`{"tool_name":"Edit","tool_input":{"file_path":"x","old_string":"a","new_string":"b"}}`))
	f.Add([]byte(`{"tool_input":{"edits":[{}]}}`))
	f.Add([]byte("\xff\xfe"))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := ReadInput(strings.NewReader(string(data)))
		if err != nil {
			return
		}
		_, _ = in.Tool()
	})
}
