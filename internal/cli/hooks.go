package cli

import (
	"context"

	"github.com/memcompact/memcompact/internal/claudehooks"
	"github.com/memcompact/memcompact/internal/outcome"
)

func init() {
	register(hooksUsage, runHooks)
}

const hooksUsage = "hooks install|uninstall [--user | --project | --settings FILE] [--bin PATH] [--json]"

// hooksHints are the hints of the hooks verb's refusals, by reason.
var hooksHints = map[outcome.Reason]string{
	claudehooks.ReasonNoAction:        "usage: memcompact " + hooksUsage,
	claudehooks.ReasonNoExecutable:    `name the memcompact executable, e.g. --bin "$(command -v memcompact)"`,
	claudehooks.ReasonNotRunnable:     "check that the executable runs ('memcompact --version' with the same path), or name another with --bin",
	claudehooks.ReasonPluginEnabled:   "the plugin's hooks are enough; to use these instead, disable the plugin first (claude plugin disable memcompact)",
	claudehooks.ReasonNoConfigDir:     "pass --settings FILE",
	claudehooks.ReasonInvalidSettings: "fix the file by hand (or move it aside) and run the command again; nothing was changed",
}

// Executable is the path of the running memcompact, which "hooks install"
// writes into the hooks; nil is os.Executable with its symbolic links
// resolved. The tests' stand-in executable sets its own.
var Executable func() (string, error)

func runHooks(env *Env, args []string) error {
	req := claudehooks.Request{Getenv: env.Getenv, Home: env.Home(), Executable: Executable}
	fs := newFlagSet("hooks")
	fs.BoolVar(&req.User, "user", false, "edit the user's settings.json in the Claude config dir (default)")
	fs.BoolVar(&req.Project, "project", false, "edit .claude/settings.json at the project root")
	fs.StringVar(&req.Settings, "settings", "", "edit this settings file")
	fs.StringVar(&req.Bin, "bin", "", "the memcompact executable the hooks run (default: this one; its absolute path is written)")
	asJSON := jsonFlag(fs, "print the result as JSON")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 1 {
		req.Action = pos[0]
	}
	res, err := claudehooks.Run(context.Background(), req)
	return show(env, *asJSON, res, err, hooksHints)
}
