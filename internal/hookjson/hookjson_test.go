package hookjson

import (
	"encoding/json"
	"strings"
	"testing"
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
