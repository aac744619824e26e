package cli

import (
	"context"
	"fmt"

	"github.com/memcompact/memcompact/internal/secrets"
)

const secretsUsage = secrets.Usage

func init() {
	register(&command{
		name:  "secrets",
		usage: secretsUsage,
		short: "find secrets in memory files, reported redacted",
		long: `secrets scans memory files for secrets with the detector compaction and
the write guard use: gitleaks' detection rules, assignments to names
ending in _KEY, _TOKEN, _SECRET, _PASSWORD or _CREDENTIAL, and long
random-looking tokens. Each finding is reported as file:line, rule and a
redacted excerpt; a secret is never printed in full.

PATH is a file or a directory (walked; hidden directories are skipped and
binary files skipped with a warning). Without PATH: the current project's
Claude Code memory store (its directory, index and entry files) and the
user's CLAUDE.md in the Claude config dir ($CLAUDE_CONFIG_DIR or ~/.claude).

A line holding "gitleaks:allow" is never flagged.

Exit codes: 0 no secrets, 1 secrets found, 2 a file could not be read,
3 usage error (a PATH that does not exist, nothing to scan).`,
		run: runSecrets,
	})
}

func runSecrets(env *Env, args []string) error {
	var asJSON, noCache bool
	fs := newFlagSet("secrets")
	fs.BoolVar(&asJSON, "json", false, "print one JSON object instead of text")
	fs.BoolVar(&noCache, "no-cache", false, "scan every file afresh, ignoring the per-file cache of earlier scans")
	alias(fs, "json", "Json")
	paths, err := parseFlags(env, fs, secretsUsage, args)
	if err != nil {
		return err
	}
	res, err := secrets.Run(context.Background(), secrets.Request{Paths: paths, Where: env.where(), NoCache: noCache || env.Getenv("MEMCOMPACT_NO_CACHE") != ""})
	for _, w := range res.Warnings {
		fmt.Fprintf(env.Stderr, "memcompact: warning: %s\n", w)
	}
	if err != nil {
		if asJSON {
			writeJSONTo(env.Stdout, secrets.ErrorJSON(err))
		}
		return engineError(err)
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(env.Stderr, "memcompact: warning: skipped %s: %s\n", s.Path, s.Reason)
	}
	for _, e := range res.Errors {
		fmt.Fprintf(env.Stderr, "memcompact: error: %s: %s\n", e.Path, e.Error)
	}
	if asJSON {
		err = res.WriteJSON(env.Stdout)
	} else {
		err = res.WriteText(env.Stdout)
	}
	return rendered(int(res.Status()), err)
}
