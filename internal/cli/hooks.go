package cli

import (
	"context"

	"github.com/memcompact/memcompact/internal/claudehooks"
	"github.com/memcompact/memcompact/internal/outcome"
)

func init() {
	register(hooksUsage, runHooks)
}

const hooksUsage = "hooks install|uninstall [--user | --project | --settings FILE] [--bin CMD] [--json]"

// hooksHints are the hints of the hooks verb's refusals, by reason.
var hooksHints = map[outcome.Reason]string{
	claudehooks.ReasonNoAction:        "usage: memcompact " + hooksUsage,
	claudehooks.ReasonForeignBin:      `name the memcompact executable, e.g. --bin "$(command -v memcompact)"`,
	claudehooks.ReasonNoConfigDir:     "pass --settings FILE",
	claudehooks.ReasonInvalidSettings: "fix the file by hand (or move it aside) and run the command again; nothing was changed",
}

func runHooks(env *Env, args []string) error {
	req := claudehooks.Request{Getenv: env.Getenv, Home: env.Home()}
	fs := newFlagSet("hooks")
	fs.BoolVar(&req.User, "user", false, "edit the user's settings.json in the Claude config dir (default)")
	fs.BoolVar(&req.Project, "project", false, "edit .claude/settings.json at the project root")
	fs.StringVar(&req.Settings, "settings", "", "edit this settings file")
	fs.StringVar(&req.Bin, "bin", "memcompact", "the command the hooks run memcompact as (e.g. an absolute path)")
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
