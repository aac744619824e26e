package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMemoryOff: the environment and the settings levels switch a
// session's memory off as Claude Code 2.1.x reads them.
func TestMemoryOff(t *testing.T) {
	cases := []struct {
		name     string
		env      map[string]string
		settings map[string]string // user, project, local -> JSON
		flag     string
		want     string // a substring of why; "" for on
	}{
		{"default on", nil, nil, "", ""},
		{"env 1", map[string]string{DisableAutoMemoryVar: "1"}, nil, "", DisableAutoMemoryVar},
		{"env TRUE", map[string]string{DisableAutoMemoryVar: " TRUE "}, nil, "", DisableAutoMemoryVar},
		{"env 0 forces on over the setting", map[string]string{DisableAutoMemoryVar: "0"}, map[string]string{"user": `{"autoMemoryEnabled":false}`}, "", ""},
		{"env junk is unset", map[string]string{DisableAutoMemoryVar: "maybe"}, nil, "", ""},
		{"bare mode", map[string]string{"CLAUDE_CODE_SIMPLE": "1"}, nil, "", "CLAUDE_CODE_SIMPLE"},
		{"restricted session", map[string]string{RestrictedVar: "1"}, nil, "", RestrictedVar},
		{"restricted beats env 0", map[string]string{RestrictedVar: "yes", DisableAutoMemoryVar: "0"}, nil, "", RestrictedVar},
		{"safe mode beats env 0", map[string]string{"CLAUDE_CODE_SAFE_MODE": "1", DisableAutoMemoryVar: "0"}, nil, "", "CLAUDE_CODE_SAFE_MODE"},
		{"env 0 beats bare mode", map[string]string{"CLAUDE_CODE_SIMPLE": "1", DisableAutoMemoryVar: "0"}, nil, "", ""},
		{"remote without a memory dir", map[string]string{"CLAUDE_CODE_REMOTE": "1"}, nil, "", "CLAUDE_CODE_REMOTE"},
		{"remote with a memory dir", map[string]string{"CLAUDE_CODE_REMOTE": "1", "CLAUDE_CODE_REMOTE_MEMORY_DIR": "/m"}, nil, "", ""},
		{"user setting", nil, map[string]string{"user": `{"autoMemoryEnabled":false}`}, "", "userSettings"},
		{"project setting", nil, map[string]string{"project": `{"autoMemoryEnabled":false}`}, "", "projectSettings"},
		{"local setting", nil, map[string]string{"local": `{"autoMemoryEnabled":false}`}, "", "localSettings"},
		{"local true beats user false", nil, map[string]string{"local": `{"autoMemoryEnabled":true}`, "user": `{"autoMemoryEnabled":false}`}, "", ""},
		{"project false beats user true", nil, map[string]string{"project": `{"autoMemoryEnabled":false}`, "user": `{"autoMemoryEnabled":true}`}, "", "projectSettings"},
		{"a string is not a boolean", nil, map[string]string{"user": `{"autoMemoryEnabled":"false"}`}, "", ""},
		{"invalid JSON is skipped", nil, map[string]string{"local": `{autoMemoryEnabled:false`}, "", ""},
		{"--settings", nil, nil, `{"autoMemoryEnabled":false}`, "flagSettings"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			home, cwd := filepath.Join(root, "home"), filepath.Join(root, "proj")
			files := map[string]string{
				"user":    filepath.Join(home, ".claude", "settings.json"),
				"project": filepath.Join(cwd, ".claude", "settings.json"),
				"local":   filepath.Join(cwd, ".claude", "settings.local.json"),
			}
			os.MkdirAll(filepath.Join(cwd, ".claude"), 0o755)
			os.MkdirAll(filepath.Join(home, ".claude"), 0o755)
			for k, body := range c.settings {
				if err := os.WriteFile(files[k], []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			getenv := func(k string) string { return c.env[k] }
			got := MemoryOff(getenv, home, cwd, Options{FlagSettings: c.flag})
			if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
				t.Errorf("MemoryOff = %q; want %q", got, c.want)
			}
		})
	}
}
