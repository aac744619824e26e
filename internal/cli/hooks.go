package cli

import (
	"context"

	"github.com/memcompact/memcompact/internal/claudehooks"
	"github.com/memcompact/memcompact/internal/outcome"
)

func init() {
	register(&command{
		name:  "hooks",
		usage: hooksUsage,
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
	var asJSON bool
	fs := newFlagSet("hooks")
	fs.BoolVar(&req.User, "user", false, "edit the user's settings.json in the Claude config dir (default)")
	fs.BoolVar(&req.Project, "project", false, "edit .claude/settings.json at the project root")
	fs.StringVar(&req.Settings, "settings", "", "edit this settings file")
	fs.StringVar(&req.Bin, "bin", "memcompact", "the command the hooks run memcompact as (e.g. an absolute path)")
	fs.BoolVar(&asJSON, "json", false, "print the result as JSON")
	alias(fs, "json", "Json")
	pos, err := parseFlags(env, fs, hooksUsage, args)
	if err != nil {
		return err
	}
	if len(pos) == 1 {
		req.Action = pos[0]
	}
	res, err := claudehooks.Run(context.Background(), req)
	if err != nil {
		return fail(err, hooksHints)
	}
	if asJSON {
		return printJSON(env, res)
	}
	res.WriteText(env.Stdout)
	return nil
}
