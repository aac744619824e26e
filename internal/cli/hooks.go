package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/memcompact/memcompact/internal/claudehooks"
	"github.com/memcompact/memcompact/internal/store"
)

func init() {
	register(&command{
		name:  "hooks",
		usage: "hooks install|uninstall [--user | --project | --settings FILE] [--bin CMD] [--json]",
		short: "add memcompact's Claude Code hooks to settings.json, or take them out",
		long: `install merges two hook entries into a Claude Code settings.json:
SessionStart runs "memcompact hook session-start" and PreToolUse (matcher
Write|Edit) runs "memcompact hook pre-write". Every other key is
kept in its order; a second install changes nothing; the previous bytes are
kept in settings.json.memcompact-backup; a settings.json that is not valid
JSON is refused (exit 2) and left alone.

uninstall removes exactly the hook entries whose command runs memcompact's
hooks (a command naming a memcompact executable, whatever --bin was), and
any matcher group or event they leave empty. So --bin must name memcompact:
an absolute path such as "$(command -v memcompact)" is the usual choice.

--user (the default) edits <config dir>/settings.json, the config dir being
$CLAUDE_CONFIG_DIR or ~/.claude; --project edits .claude/settings.json at the
project root (the enclosing git repository's root, else the current
directory); --settings names the file outright.

Exit codes: 0 done (or nothing to do), 2 refused (the settings file is not
valid JSON, or cannot be written safely), 3 usage error.`,
		run: runHooks,
	})
}

type hooksFlags struct {
	user, project bool
	settings, bin string
	json          bool
}

func runHooks(env *Env, args []string) error {
	const usage = "hooks install|uninstall [--user | --project | --settings FILE] [--bin CMD] [--json]"
	var f hooksFlags
	fs := newFlagSet("hooks")
	fs.BoolVar(&f.user, "user", false, "edit the user's settings.json in the Claude config dir (default)")
	fs.BoolVar(&f.project, "project", false, "edit .claude/settings.json at the project root")
	fs.StringVar(&f.settings, "settings", "", "edit this settings file")
	fs.StringVar(&f.bin, "bin", "memcompact", "the command the hooks run memcompact as (e.g. an absolute path)")
	fs.BoolVar(&f.json, "json", false, "print the result as JSON")
	alias(fs, "json", "Json")
	pos, err := parseFlags(env, fs, usage, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || (pos[0] != "install" && pos[0] != "uninstall") {
		return &ExitError{Code: ExitUsage, Err: errors.New("hooks needs one action: install or uninstall"), Hints: []string{"usage: memcompact " + usage}}
	}
	n := 0
	for _, b := range []bool{f.user, f.project, f.settings != ""} {
		if b {
			n++
		}
	}
	if n > 1 {
		return Usagef("--user, --project and --settings choose the same thing; give one")
	}
	if strings.TrimSpace(f.bin) == "" {
		return Usagef("--bin is empty")
	}
	if pos[0] == "install" && !claudehooks.IsOurs(claudehooks.Ours[0].Command(f.bin), claudehooks.Ours[0].Sub) {
		// A hook memcompact cannot recognize as its own would be added again
		// by every install and never found by uninstall.
		return &ExitError{Code: ExitUsage, Err: fmt.Errorf("--bin %q does not name memcompact, so a later install or uninstall could not recognize the hooks it adds", f.bin),
			Hints: []string{`name the memcompact executable, e.g. --bin "$(command -v memcompact)"`}}
	}
	path, err := settingsPath(env, f)
	if err != nil {
		return err
	}

	var c *claudehooks.Change
	if pos[0] == "install" {
		c, err = claudehooks.Install(path, f.bin)
	} else {
		c, err = claudehooks.Uninstall(path)
	}
	if err != nil {
		var inv *claudehooks.InvalidError
		if errors.As(err, &inv) {
			return &ExitError{Code: ExitRefused, Err: err, Hints: []string{"fix the file by hand (or move it aside) and run the command again; nothing was changed"}}
		}
		return &ExitError{Code: ExitRefused, Err: err}
	}
	if f.json {
		return printJSON(env, c)
	}
	renderHooksChange(env, pos[0], c)
	return nil
}

func renderHooksChange(env *Env, action string, c *claudehooks.Change) {
	w := env.Stdout
	switch {
	case action == "install" && !c.Changed:
		fmt.Fprintf(w, "memcompact hooks already installed in %s\n", c.Settings)
	case action == "install":
		verb := "updated"
		if c.Created {
			verb = "created"
		}
		fmt.Fprintf(w, "%s %s\n", verb, c.Settings)
		for _, a := range c.Added {
			fmt.Fprintf(w, "  added    %s\n", a)
		}
		for _, a := range c.Present {
			fmt.Fprintf(w, "  kept     %s (already there; rewritten in place)\n", a)
		}
	case !c.Changed:
		fmt.Fprintf(w, "no memcompact hooks in %s; nothing to remove\n", c.Settings)
	default:
		fmt.Fprintf(w, "updated %s\n", c.Settings)
		for _, a := range c.Removed {
			fmt.Fprintf(w, "  removed  %s\n", a)
		}
	}
	if c.Backup != "" {
		fmt.Fprintf(w, "previous contents kept in %s\n", c.Backup)
	}
}

// settingsPath is the settings file hooks edits.
func settingsPath(env *Env, f hooksFlags) (string, error) {
	switch {
	case f.settings != "":
		return f.settings, nil
	case f.project:
		cwd, err := os.Getwd()
		if err != nil {
			return "", Refusef("cannot find the current directory: %v", err)
		}
		return filepath.Join(store.ProjectRoot(cwd), ".claude", "settings.json"), nil
	}
	home := env.Home()
	if home == "" && env.Getenv("CLAUDE_CONFIG_DIR") == "" {
		return "", &ExitError{Code: ExitUsage, Err: errors.New("cannot find the Claude config dir: neither CLAUDE_CONFIG_DIR nor HOME is set"), Hints: []string{"pass --settings FILE"}}
	}
	return filepath.Join(store.ConfigDir(env.Getenv, home), "settings.json"), nil
}
