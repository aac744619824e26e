package store

import (
	"encoding/json"
	"os"
	"strings"
)

// DisableAutoMemoryVar is the environment variable that switches Claude
// Code's memory off (a true value: 1, true, yes, on) or forces it on (a
// false value: 0, false, no, off), whatever the settings say.
const DisableAutoMemoryVar = "CLAUDE_CODE_DISABLE_AUTO_MEMORY"

// RestrictedVar starts a restricted Claude Code session (as the
// --restricted flag does): no settings file is read and memory is off.
const RestrictedVar = "CLAUDE_CODE_RESTRICTED"

// MemoryOff says why a Claude Code session started in cwd loads no memory
// at all (no MEMORY.md, no memory instructions), or "" when memory is on.
// It follows the 2.1.x client (2.1.332's order): safe mode
// (CLAUDE_CODE_SAFE_MODE) and a restricted session (CLAUDE_CODE_RESTRICTED)
// switch memory off whatever else is set; then a true
// CLAUDE_CODE_DISABLE_AUTO_MEMORY switches it off and a false one forces
// it on; CLAUDE_CODE_SIMPLE
// (bare mode) switches it off, as does
// CLAUDE_CODE_REMOTE without a remote memory directory or a cowork
// override; otherwise the setting autoMemoryEnabled decides, read from
// the highest settings level that sets it to a boolean (policy, --settings,
// the project's local and shared settings, the user's), on by default.
func MemoryOff(getenv func(string) string, home, cwd string, o Options) string {
	v, _ := o.lookup(getenv, DisableAutoMemoryVar)
	switch {
	// Safe mode and a restricted session come first: the client checks
	// them before the variable, so a false one does not force memory on.
	case envTrue(getenv("CLAUDE_CODE_SAFE_MODE")):
		return "$CLAUDE_CODE_SAFE_MODE (safe mode)"
	case envTrue(getenv(RestrictedVar)):
		return "$" + RestrictedVar + " (a restricted session: no settings, no memory)"
	case envTrue(v):
		return "$" + DisableAutoMemoryVar + "=" + v
	case envFalse(v):
		return ""
	case envTrue(getenv("CLAUDE_CODE_SIMPLE")):
		return "$CLAUDE_CODE_SIMPLE (bare mode)"
	case getenv("CLAUDE_CODE_REMOTE") != "" && getenv("CLAUDE_CODE_REMOTE_MEMORY_DIR") == "" && getenv(RuleCoworkOverride) == "":
		return "$CLAUDE_CODE_REMOTE without $CLAUDE_CODE_REMOTE_MEMORY_DIR"
	}
	project, _ := projectOf(cwd)
	for _, lv := range settingsLevels(getenv, home, cwd, project, o) {
		if on, set := autoMemoryEnabled(lv); set {
			if on {
				return ""
			}
			return "autoMemoryEnabled: false in " + lv.file + " (" + lv.level + ")"
		}
	}
	return ""
}

// autoMemoryEnabled reads the setting from one level; a missing or
// invalid file, or a value that is not a boolean, sets nothing.
func autoMemoryEnabled(lv level) (on, set bool) {
	b := lv.inline
	if b == nil {
		var err error
		if b, err = os.ReadFile(lv.file); err != nil {
			return false, false
		}
	}
	var s struct {
		AutoMemoryEnabled *bool `json:"autoMemoryEnabled"`
	}
	if json.Unmarshal(b, &s) != nil || s.AutoMemoryEnabled == nil {
		return false, false
	}
	return *s.AutoMemoryEnabled, true
}

// envTrue and envFalse read a flag variable as Claude Code does.
func envTrue(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

func envFalse(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "0", "false", "no", "off":
		return true
	}
	return false
}
