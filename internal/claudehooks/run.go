package claudehooks

import (
	"context"
	"errors"
	"os"
	"os/exec"
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
	ReasonNoExecutable    outcome.Reason = "no-executable"    // the executable to run cannot be found
	ReasonNotRunnable     outcome.Reason = "not-runnable"     // a hook command failed its dry run
	ReasonPluginEnabled   outcome.Reason = "plugin-enabled"   // the memcompact plugin already runs the hooks
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
	// Bin is the memcompact executable the hooks run: a path, or a name
	// looked up on PATH now; "" for the executable running this install.
	// Either way the command written holds its absolute path, so the hooks
	// do not depend on the PATH Claude Code runs them with.
	Bin    string
	Getenv func(string) string
	Home   string
	Cwd    string // for --project and for the project's settings; "" for the process's
	// Executable is the path of the running executable (nil:
	// os.Executable, its symbolic links resolved).
	Executable func() (string, error)
	// DryRun runs a hook command once as Claude Code would and returns the
	// version it reports (nil: DryRun, through the shell).
	DryRun func(ctx context.Context, h Hook, command string) (string, error)
}

// Result is what Install or Uninstall did; its JSON is the verb's --json.
type Result struct {
	Change
	Action string `json:"-"`
	// Bin is the executable the installed hooks run, and Version the
	// version each command reported when it was tried (install only).
	Bin     string `json:"bin,omitempty"`
	Version string `json:"version,omitempty"`
}

// Run checks the request, finds the settings file, and installs or
// uninstalls memcompact's hooks in it.
func Run(ctx context.Context, req Request) (*Result, error) {
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
	path, err := settingsPath(req)
	if err != nil {
		return nil, err
	}
	if req.Action == ActionUninstall {
		c, err := Uninstall(path)
		if err != nil {
			return nil, editError(err)
		}
		return &Result{Change: *c, Action: req.Action}, nil
	}
	bin, err := executable(req)
	if err != nil {
		return nil, err
	}
	if err := refusePlugin(req, path); err != nil {
		return nil, err
	}
	version, err := tryHooks(ctx, req, bin)
	if err != nil {
		return nil, err
	}
	c, err := Install(path, bin)
	if err != nil {
		return nil, editError(err)
	}
	return &Result{Change: *c, Action: req.Action, Bin: bin, Version: version}, nil
}

// editError is the refusal of an edit of the settings file that failed.
func editError(err error) error {
	reason := ReasonWriteFailed
	if _, ok := errors.AsType[*InvalidError](err); ok {
		reason = ReasonInvalidSettings
	}
	return &outcome.Error{Status: outcome.Refused, Reason: reason, Msg: err.Error(), Err: err}
}

// executable is the absolute path of the memcompact the hooks will run:
// req.Bin (looked up on PATH when it is a bare name), or the executable
// running this install, its symbolic links resolved.
func executable(req Request) (string, error) {
	bin := req.Bin
	if bin == "" {
		p, err := selfPath(req.Executable)
		if err != nil {
			return "", outcome.Refuse(ReasonNoExecutable, "cannot find the memcompact executable running this install: %v", err)
		}
		bin = p
	} else if !strings.ContainsAny(bin, `/\`) {
		p, err := exec.LookPath(bin)
		if err != nil {
			return "", outcome.Refuse(ReasonNoExecutable, "--bin %q is not on PATH: %v", bin, err)
		}
		bin = p
	}
	abs, err := filepath.Abs(bin)
	if err != nil {
		return "", outcome.Refuse(ReasonNoExecutable, "cannot make %q absolute: %v", bin, err)
	}
	return abs, nil
}

// selfPath is the running executable's path: self's, or os.Executable's
// with its symbolic links resolved.
func selfPath(self func() (string, error)) (string, error) {
	if self != nil {
		return self()
	}
	p, err := os.Executable()
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(p)
}

// tryHooks runs each hook command install would write once, as Claude
// Code would (a dry run: the hook answers at once and changes nothing),
// and returns the version they report. A command that does not run is a
// refusal: the hooks would fail in every session, and a failing pre-write
// hook lets writes through.
func tryHooks(ctx context.Context, req Request, bin string) (string, error) {
	dry := req.DryRun
	if dry == nil {
		dry = DefaultDryRun
	}
	version := ""
	for _, h := range Ours {
		cmd := h.Command(bin)
		v, err := dry(ctx, h, cmd)
		if err != nil {
			return "", outcome.Refuse(ReasonNotRunnable, "the %s hook would not run: %v; nothing was changed", h.Label(), err)
		}
		version = v
	}
	return version, nil
}

// refusePlugin refuses an install while the memcompact plugin is enabled
// in the settings file being edited or the user's: its hooks would run
// twice.
func refusePlugin(req Request, path string) error {
	paths := []string{path}
	if req.Home != "" || req.Getenv("CLAUDE_CONFIG_DIR") != "" {
		paths = append(paths, filepath.Join(store.ConfigDir(req.Getenv, req.Home), "settings.json"))
	}
	if key, where := PluginEnabled(paths); key != "" {
		return outcome.Refuse(ReasonPluginEnabled, "the memcompact plugin (%s, enabled in %s) already runs memcompact's hooks; installing them in %s too would run each twice", key, where, path)
	}
	return nil
}

// settingsPath is the settings file the request edits.
func settingsPath(req Request) (string, error) {
	switch {
	case req.Settings != "":
		return req.Settings, nil
	case req.Project:
		cwd := req.Cwd
		if cwd == "" {
			var err error
			if cwd, err = os.Getwd(); err != nil {
				return "", outcome.Refuse(ReasonNoCwd, "cannot find the current directory: %v", err)
			}
		}
		return filepath.Join(store.ProjectRoot(cwd), ".claude", "settings.json"), nil
	}
	if req.Home == "" && req.Getenv("CLAUDE_CONFIG_DIR") == "" {
		return "", outcome.Usagef(ReasonNoConfigDir, "cannot find the Claude config dir: neither CLAUDE_CONFIG_DIR nor HOME is set")
	}
	return filepath.Join(store.ConfigDir(req.Getenv, req.Home), "settings.json"), nil
}
