package claudehooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/textfile"
)

func TestIsOurs(t *testing.T) {
	tests := []struct {
		cmd, sub string
		want     bool
	}{
		{"memcompact hook pre-write", "pre-write", true},
		{"/opt/bin/memcompact hook pre-write", "pre-write", true},
		{`"/Program Files/memcompact.exe" hook session-start`, "session-start", true},
		{"memcompact hook pre-write", "session-start", false},
		{"other-tool hook pre-write", "pre-write", false},
		{"memcompact hook", "pre-write", false},
		{"echo memcompact hook pre-write extra", "pre-write", false},
		// What install writes now: the quoted path and the marker.
		{Ours[1].Command("/opt/my tools/it's/memcompact"), "pre-write", true},
		{Ours[1].Command("/opt/my tools/it's/memcompact"), "session-start", false},
		// A user's look-alikes are never ours.
		{"memcompact-audit hook pre-write", "pre-write", false},
		{"npx memcompactor hook pre-write", "pre-write", false},
		{"python3 memcompact.py hook pre-write", "pre-write", false},
		{"MEMCOMPACT_JOURNAL=off memcompact hook pre-write", "pre-write", false},
		{"/home/u/bin/wrap.sh hook pre-write", "pre-write", false},
		{"memcompact hook pre-write; curl example.com", "pre-write", false},
	}
	for _, tt := range tests {
		if got := IsOurs(tt.cmd, tt.sub); got != tt.want {
			t.Errorf("IsOurs(%q, %q) = %v", tt.cmd, tt.sub, got)
		}
	}
}

func TestInstallKeepsOtherHooksAndIsIdempotent(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	orig := "\uFEFF{\r\n  \"hooks\": {\"SessionStart\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"echo hi <b>\"}, {\"type\": \"command\", \"command\": \"memcompact hook session-start\"}]}]},\r\n  \"z\": 1.50\r\n}\r\n"
	if err := os.WriteFile(path, []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Install(path, "memcompact")
	if err != nil || !c.Changed {
		t.Fatalf("install: %+v %v", c, err)
	}
	b, _ := os.ReadFile(path)
	s := string(b)
	if !strings.HasPrefix(s, "\uFEFF{\r\n") || !strings.Contains(s, `"echo hi <b>"`) || !strings.Contains(s, `"z": 1.50`) {
		t.Fatalf("BOM, CRLF, HTML characters or number spelling lost:\n%s", s)
	}
	if n := strings.Count(s, "hook session-start"); n != 1 {
		t.Fatalf("%d session-start hooks:\n%s", n, s)
	}
	// The user's echo hook shared a group with ours; it stays, first.
	var doc struct {
		Hooks map[string][]struct {
			Matcher string
			Hooks   []commandHook
		}
	}
	if err := json.Unmarshal(bytes.TrimPrefix(b, []byte("\uFEFF")), &doc); err != nil {
		t.Fatal(err)
	}
	if ss := doc.Hooks["SessionStart"]; len(ss) != 2 || ss[0].Hooks[0].Command != "echo hi <b>" {
		t.Fatalf("SessionStart groups: %+v", ss)
	}
	again, err := Install(path, "memcompact")
	if err != nil || again.Changed {
		t.Fatalf("second install changed the file: %+v %v", again, err)
	}
	if bak, _ := os.ReadFile(path + BackupSuffix); string(bak) != orig {
		t.Fatalf("backup is not the original bytes")
	}
	u, err := Uninstall(path)
	if err != nil || !u.Changed || len(u.Removed) != len(Ours) {
		t.Fatalf("uninstall: %+v %v", u, err)
	}
	b, _ = os.ReadFile(path)
	if strings.Contains(string(b), "memcompact") || !strings.Contains(string(b), "echo hi <b>") {
		t.Fatalf("after uninstall:\n%s", b)
	}
}

func TestInvalidSettingsRefused(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"comment.json":   "{\n  // a comment\n  \"a\": 1\n}\n",
		"array.json":     "[]",
		"hooksarr.json":  `{"hooks": {"PreToolUse": {}}}`,
		"badutf8.json":   "{\"a\": \"\xff\"}",
		"truncated.json": `{"a": `,
		"duphooks.json":  `{"hooks": {}, "hooks": {}}`,
		"dupevent.json":  `{"hooks": {"PreToolUse": [], "PreToolUse": []}}`,
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Install(path, "memcompact")
		var inv *InvalidError
		if !errors.As(err, &inv) {
			t.Errorf("%s: err %v, want InvalidError", name, err)
		}
		if b, _ := os.ReadFile(path); string(b) != body {
			t.Errorf("%s: changed", name)
		}
	}
}

// FuzzInstall: no input panics Install or Uninstall; a file either is
// refused untouched or ends up with exactly one copy of each hook, and a
// second install changes nothing.
func FuzzInstall(f *testing.F) {
	for _, s := range []string{"", "{}", `{"hooks":{}}`, `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"x"}]}]}}`,
		`{"hooks":{"SessionStart":[{"hooks":[{"command":"memcompact hook session-start"},{"command":"memcompact hook session-start"}]}]}}`,
		`{"a":[1,2,{"b":null}],"hooks":null}`, "{\"k\\u0000\": \"\\ud800\"}", `{"hooks":{"PreToolUse":[1,"x",null,{"hooks":5}]}}`, `{"hooks":{},"hooks":{"PreToolUse":[]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "settings.json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Install(path, "memcompact")
		if err != nil {
			if b, _ := os.ReadFile(path); !bytes.Equal(b, data) {
				t.Fatalf("refused (%v) but changed the file", err)
			}
			return
		}
		b, _ := os.ReadFile(path)
		for _, h := range Ours {
			if n := countOurs(t, b, h); n != 1 {
				t.Fatalf("%d copies of %s:\n%s", n, h.Sub, b)
			}
		}
		if c, err := Install(path, "memcompact"); err != nil || c.Changed {
			t.Fatalf("second install: %+v %v", c, err)
		}
		if _, err := Uninstall(path); err != nil {
			t.Fatalf("uninstall: %v", err)
		}
		b, _ = os.ReadFile(path)
		for _, h := range Ours {
			if n := countOurs(t, b, h); n != 0 {
				t.Fatalf("uninstall left %d copies of %s:\n%s", n, h.Sub, b)
			}
		}
	})
}

// countOurs counts memcompact's handlers for h in h's event of a settings
// file, reading it the way Claude Code does.
func countOurs(t *testing.T, b []byte, h Hook) int {
	var doc struct {
		Hooks map[string][]json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(bytes.TrimPrefix(b, []byte("\uFEFF")), &doc); err != nil {
		t.Fatalf("settings no longer parse: %v\n%s", err, b)
	}
	n := 0
	for _, g := range doc.Hooks[h.Event] {
		var group struct {
			Hooks []commandHook `json:"hooks"`
		}
		if json.Unmarshal(g, &group) != nil {
			continue
		}
		for _, c := range group.Hooks {
			if IsOurs(c.Command, h.Sub) {
				n++
			}
		}
	}
	return n
}

// TestInstallKeepsMostLinesEnding: a settings file is rewritten in the
// line ending most of its lines use (textfile.EOL, memcompact's one rule),
// so a stray CRLF in an LF file does not turn the whole file CRLF.
func TestInstallKeepsMostLinesEnding(t *testing.T) {
	for _, c := range []struct {
		name, text string
		crlf       bool
	}{
		{"LF with one CRLF", "{\n  \"a\": 1,\r\n  \"b\": 2,\n  \"c\": 3\n}\n", false},
		{"CRLF with one LF", "{\r\n  \"a\": 1,\r\n  \"b\": 2,\n  \"c\": 3\r\n}\r\n", true},
	} {
		path := filepath.Join(t.TempDir(), "settings.json")
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Install(path, "memcompact"); err != nil {
			t.Fatal(err)
		}
		out, _ := os.ReadFile(path)
		crlf, lf := bytes.Count(out, []byte("\r\n")), bytes.Count(out, []byte("\n"))
		if c.crlf && crlf != lf || !c.crlf && crlf != 0 {
			t.Errorf("%s: %d of %d line endings are CRLF", c.name, crlf, lf)
		}
	}
}

// lookAlikes are a user's own hooks that only look like memcompact's.
var lookAlikes = []string{
	"memcompact-audit hook pre-write",
	"npx memcompactor hook pre-write",
	"python3 ~/tools/memcompact.py hook pre-write",
	"MEMCOMPACT_JOURNAL=off memcompact hook pre-write",
	"$HOME/bin/memcompact-wrapper.sh",
}

// TestLookAlikesSurvive: install and uninstall leave a user's look-alike
// hooks exactly as they were, and a second install finds its own entries
// by their marker alone.
func TestLookAlikesSurvive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	var handlers []string
	for _, c := range lookAlikes {
		handlers = append(handlers, `{"type": "command", "command": `+string(quote(c))+`}`)
	}
	orig := `{"hooks": {"PreToolUse": [{"matcher": "Write|Edit", "hooks": [` + strings.Join(handlers, ", ") + `]}]}}`
	if err := os.WriteFile(path, []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	commands := func() []string {
		b, _ := os.ReadFile(path)
		var doc settingsDoc
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, g := range doc.Hooks["PreToolUse"] {
			for _, h := range g.Hooks {
				out = append(out, h.Command)
			}
		}
		return out
	}
	if _, err := Install(path, "/opt/my tools/memcompact"); err != nil {
		t.Fatal(err)
	}
	got := commands()
	if len(got) != len(lookAlikes)+1 || !slices.Equal(got[:len(lookAlikes)], lookAlikes) || got[len(lookAlikes)] != Ours[1].Command("/opt/my tools/memcompact") {
		t.Fatalf("after install: %q", got)
	}
	if c, err := Install(path, "/opt/my tools/memcompact"); err != nil || c.Changed || len(c.Present) != len(Ours) {
		t.Fatalf("a second install: %+v, %v", c, err)
	}
	if c, err := Uninstall(path); err != nil || len(c.Removed) != len(Ours) {
		t.Fatalf("uninstall: %+v, %v", c, err)
	}
	if got := commands(); !slices.Equal(got, lookAlikes) {
		t.Fatalf("after uninstall: %q, want the user's %q", got, lookAlikes)
	}
}

// TestReadSettledWaitsOutAFreshEmptyFile: a settings file read just after
// another program truncated it, with nothing before to say it held
// settings, is read again until it has stood still; its new bytes are what
// the edit is planned against. An empty file that has stood unwritten is
// taken as empty at once.
func TestReadSettledWaitsOutAFreshEmptyFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	const theirs = "{\"model\": \"opus\"}\n"
	f, err := os.Create(path) // truncated now; written again in a moment
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		time.Sleep(settleQuiet / 3)
		_, err := f.WriteString(theirs)
		done <- errors.Join(err, f.Close())
	}()
	got, exists, err := readSettled(path)
	if werr := <-done; werr != nil {
		t.Fatal(werr)
	}
	if err != nil || !exists || string(got.Raw) != theirs {
		t.Fatalf("readSettled = %q, %v, %v; want the rewritten settings", rawOf(got), exists, err)
	}

	old := filepath.Join(dir, "empty.json")
	if err := os.WriteFile(old, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	past := time.Now().Add(-time.Hour)
	if err := os.Chtimes(old, past, past); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	got, exists, err = readSettled(old)
	if err != nil || !exists || len(got.Raw) != 0 {
		t.Fatalf("readSettled of an old empty file = %q, %v, %v", rawOf(got), exists, err)
	}
	if d := time.Since(start); d >= settleQuiet {
		t.Errorf("an empty file unwritten for an hour took %s to settle", d)
	}
}

func rawOf(f *textfile.File) []byte {
	if f == nil {
		return nil
	}
	return f.Raw
}
