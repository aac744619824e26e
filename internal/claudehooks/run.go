package claudehooks

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/store"
)

// The actions of the hooks verb.
const (
	ActionInstall   = "install"
	ActionUninstall = "uninstall"
)

// The reasons Run refuses or rejects a request.
const (
	ReasonNoAction        outcome.Reason = "no-action"        // neither install nor uninstall
	ReasonConflict        outcome.Reason = "conflict"         // more than one of user, project, settings
	ReasonEmptyBin        outcome.Reason = "empty-bin"        // the bin command is blank
	ReasonForeignBin      outcome.Reason = "foreign-bin"      // the bin command does not name memcompact
	ReasonNoConfigDir     outcome.Reason = "no-config-dir"    // neither CLAUDE_CONFIG_DIR nor HOME
	ReasonNoCwd           outcome.Reason = "no-cwd"           // the working directory cannot be found
	ReasonInvalidSettings outcome.Reason = "invalid-settings" // the settings file cannot be edited safely
	ReasonWriteFailed     outcome.Reason = "write-failed"     // writing the file or its backup failed
)

// Request is one run of "hooks install" or "hooks uninstall". User is the
// default; at most one of User, Project and Settings is set.
type Request struct {
	Action   string // ActionInstall or ActionUninstall
	User     bool   // the user's settings.json in the Claude config dir
	Project  bool   // .claude/settings.json at the project root
	Settings string // this settings file
	Bin      string // the command the hooks run memcompact as
	Getenv   func(string) string
	Home     string
}

// Result is what Install or Uninstall did; its JSON is the verb's --json.
type Result struct {
	Change
	Action string `json:"-"`
}

// Run checks the request, finds the settings file, and installs or
// uninstalls memcompact's hooks in it.
func Run(_ context.Context, req Request) (*Result, error) {
	if req.Action != ActionInstall && req.Action != ActionUninstall {
		return nil, outcome.Usagef(ReasonNoAction, "hooks needs one action: install or uninstall")
	}
	n := 0
	for _, b := range []bool{req.User, req.Project, req.Settings != ""} {
		if b {
			n++
		}
	}
	if n > 1 {
		return nil, outcome.Usagef(ReasonConflict, "--user, --project and --settings choose the same thing; give one")
	}
	if strings.TrimSpace(req.Bin) == "" {
		return nil, outcome.Usagef(ReasonEmptyBin, "--bin is empty")
	}
	if req.Action == ActionInstall && !IsOurs(Ours[0].Command(req.Bin), Ours[0].Sub) {
		// A hook memcompact cannot recognize as its own would be added again
		// by every install and never found by uninstall.
		return nil, outcome.Usagef(ReasonForeignBin, "--bin %q does not name memcompact, so a later install or uninstall could not recognize the hooks it adds", req.Bin)
	}
	path, err := settingsPath(req)
	if err != nil {
		return nil, err
	}
	var c *Change
	if req.Action == ActionInstall {
		c, err = Install(path, req.Bin)
	} else {
		c, err = Uninstall(path)
	}
	if err != nil {
		reason := ReasonWriteFailed
		if _, ok := errors.AsType[*InvalidError](err); ok {
			reason = ReasonInvalidSettings
		}
		return nil, &outcome.Error{Status: outcome.Refused, Reason: reason, Msg: err.Error(), Err: err}
	}
	return &Result{Change: *c, Action: req.Action}, nil
}

// settingsPath is the settings file the request edits.
func settingsPath(req Request) (string, error) {
	switch {
	case req.Settings != "":
		return req.Settings, nil
	case req.Project:
		cwd, err := os.Getwd()
		if err != nil {
			return "", outcome.Refuse(ReasonNoCwd, "cannot find the current directory: %v", err)
		}
		return filepath.Join(store.ProjectRoot(cwd), ".claude", "settings.json"), nil
	}
	if req.Home == "" && req.Getenv("CLAUDE_CONFIG_DIR") == "" {
		return "", outcome.Usagef(ReasonNoConfigDir, "cannot find the Claude config dir: neither CLAUDE_CONFIG_DIR nor HOME is set")
	}
	return filepath.Join(store.ConfigDir(req.Getenv, req.Home), "settings.json"), nil
}
