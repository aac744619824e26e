package claudehooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/extcmd"
	"github.com/memcompact/memcompact/internal/hookjson"
	"github.com/memcompact/memcompact/internal/lazyre"
	"github.com/memcompact/memcompact/internal/store"
	"github.com/memcompact/memcompact/internal/textfile"
)

// DryRunTimeout bounds one dry run of a hook command: Claude Code's own
// timeout for the slowest hook.
const DryRunTimeout = 10 * time.Second

// DefaultDryRun is the dry run of a request that names none: DryRun. An
// in-process test whose executable is a test binary replaces it, so that
// no hook command runs the test binary.
var DefaultDryRun = DryRun

// dryAnswer is what a memcompact hook prints on stderr for a dry run.
var dryAnswer = lazyre.New(`dry run: memcompact (\S+) runs this hook`)

// DryRun runs command through the shell Claude Code runs memcompact's
// hooks with (sh; PowerShell on Windows, see Hook.CommandFor), with a
// dry-run payload for h's event on stdin, and returns the version of
// memcompact that answered. Any other outcome — the shell cannot find or
// run it, it fails, it times out, it answers as something else — is an
// error naming the command.
func DryRun(ctx context.Context, h Hook, command string) (string, error) {
	spec := extcmd.Spec{Command: command, Args: shellArgs(hostOS, command, exec.LookPath), Stdin: hookjson.DryInput(h.Event), Timeout: DryRunTimeout, MaxOutput: 1 << 20, MaxStderr: 4 << 10}
	res, err := extcmd.Run(ctx, spec)
	if err != nil {
		return "", fmt.Errorf("%s: %w", command, err)
	}
	m := dryAnswer().FindStringSubmatch(res.Stderr)
	if m == nil {
		return "", fmt.Errorf("%s ran but did not answer as a memcompact hook (stderr: %q)", command, strings.TrimSpace(res.Stderr))
	}
	return m[1], nil
}

// shellArgs is how Claude Code 2.1.332 starts a hook whose "shell" is
// Shell(goos): on Windows PowerShell 7 (pwsh) when it is on PATH, else
// Windows PowerShell, with the options it passes; nil elsewhere, where
// extcmd runs the command with sh -c as Claude Code runs it with bash.
func shellArgs(goos, command string, lookPath func(string) (string, error)) []string {
	if Shell(goos) != "powershell" {
		return nil
	}
	ps := "powershell.exe"
	if p, err := lookPath("pwsh"); err == nil {
		ps = p
	}
	return []string{ps, "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-Command", command}
}

// settingsDoc is the part of a settings file Inspect reads.
type settingsDoc struct {
	Hooks map[string][]struct {
		Matcher string `json:"matcher"`
		Hooks   []struct {
			Type    string `json:"type"`
			Command string `json:"command"`
		} `json:"hooks"`
	} `json:"hooks"`
	EnabledPlugins map[string]json.RawMessage `json:"enabledPlugins"`
}

// readSettings reads path the one way memcompact reads a file
// (textfile.Read: a regular file only, never a FIFO that would block, and
// within the size cap); a missing file is (nil, nil).
func readSettings(path string) (*settingsDoc, error) {
	f, err := textfile.Read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var d settingsDoc
	if len(strings.TrimSpace(f.Text)) == 0 {
		return &d, nil
	}
	if err := json.Unmarshal([]byte(f.Text), &d); err != nil {
		return nil, fmt.Errorf("%s: not valid JSON: %v", path, err)
	}
	return &d, nil
}

// PluginName is the name of memcompact's Claude Code plugin.
const PluginName = "memcompact"

// PluginEnabled returns the enabledPlugins key that enables the memcompact
// plugin ("memcompact@MARKETPLACE" set to true) in the first of paths that
// has one, and that file; "" when none does.
func PluginEnabled(paths []string) (key, path string) {
	for _, p := range paths {
		d, err := readSettings(p)
		if err != nil || d == nil {
			continue
		}
		for k, v := range d.EnabledPlugins {
			if name, _, ok := strings.Cut(k, "@"); ok && name == PluginName && strings.TrimSpace(string(v)) == "true" {
				return k, p
			}
		}
	}
	return "", ""
}

// SettingsFiles are the settings files Claude Code reads hooks from for a
// session in cwd: the user's, the project's and the project's local one.
func SettingsFiles(getenv func(string) string, home, cwd string) []string {
	var out []string
	if home != "" || getenv("CLAUDE_CONFIG_DIR") != "" {
		out = append(out, filepath.Join(store.ConfigDir(getenv, home), "settings.json"))
	}
	if cwd != "" {
		root := store.ProjectRoot(cwd)
		out = append(out, filepath.Join(root, ".claude", "settings.json"), filepath.Join(root, ".claude", "settings.local.json"))
	}
	return out
}

// Installed is one memcompact hook command found in a settings file, and
// what its dry run said.
type Installed struct {
	Settings string `json:"settings"`
	Hook     string `json:"hook"` // the hook's label: event and matcher
	Command  string `json:"command"`
	Runs     bool   `json:"runs"`
	Version  string `json:"version,omitempty"`
	Error    string `json:"error,omitempty"`
}

// Inspection is what Inspect found.
type Inspection struct {
	Files []string    `json:"settings_files"` // the files read
	Hooks []Installed `json:"hooks"`
	// Missing are the labels of memcompact's hooks no file installs.
	Missing []string `json:"missing"`
	// Plugin is the enabledPlugins key of the memcompact plugin, when it
	// is enabled, and PluginSettings the file that enables it.
	Plugin         string `json:"plugin,omitempty"`
	PluginSettings string `json:"plugin_settings,omitempty"`
	// Unreadable are the settings files that could not be read.
	Unreadable []string `json:"unreadable,omitempty"`
}

// Inspect finds memcompact's hook commands in the settings files and runs
// each once (dry, nil: DryRun), and whether the memcompact plugin is
// enabled. It never fails: what it could not read is listed.
func Inspect(ctx context.Context, files []string, dry func(ctx context.Context, h Hook, command string) (string, error)) *Inspection {
	if dry == nil {
		dry = DefaultDryRun
	}
	in := &Inspection{Files: files, Hooks: []Installed{}, Missing: []string{}}
	found := map[string]bool{}
	for _, p := range files {
		d, err := readSettings(p)
		if err != nil {
			in.Unreadable = append(in.Unreadable, err.Error())
			continue
		}
		if d == nil {
			continue
		}
		for _, h := range Ours {
			for _, g := range d.Hooks[h.Event] {
				for _, c := range g.Hooks {
					if !IsOurs(c.Command, h.Sub) {
						continue
					}
					found[h.Label()] = true
					i := Installed{Settings: p, Hook: h.Label(), Command: c.Command}
					if v, err := dry(ctx, h, c.Command); err != nil {
						i.Error = err.Error()
					} else {
						i.Runs, i.Version = true, v
					}
					in.Hooks = append(in.Hooks, i)
				}
			}
		}
	}
	for _, h := range Ours {
		if !found[h.Label()] {
			in.Missing = append(in.Missing, h.Label())
		}
	}
	in.Plugin, in.PluginSettings = PluginEnabled(files)
	return in
}
