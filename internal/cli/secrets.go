package cli

import (
	"context"

	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/secrets"
)

func init() {
	register(secrets.Usage, runSecrets)
}

func runSecrets(env *Env, args []string) error {
	fs := newFlagSet("secrets")
	asJSON := jsonFlag(fs, "print one JSON object instead of text")
	noCache := fs.Bool("no-cache", false, "scan every file afresh, ignoring the per-file cache of earlier scans")
	paths, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	res, err := secrets.Run(context.Background(), secrets.Request{Paths: paths, Where: env.where(), NoCache: *noCache || env.Getenv("MEMCOMPACT_NO_CACHE") != ""})
	printWarnings(env, res.Warnings)
	if err != nil {
		if *asJSON {
			writeJSONTo(env.Stdout, secrets.ErrorJSON(err))
		}
		return engineError(err)
	}
	for _, s := range res.Skipped {
		outcome.Say(env.Stderr, outcome.KindWarning, "skipped "+s.Path+": "+s.Reason)
	}
	for _, e := range res.Errors {
		outcome.Say(env.Stderr, outcome.KindError, e.Path+": "+e.Error)
	}
	if *asJSON {
		err = res.WriteJSON(env.Stdout)
	} else {
		err = res.WriteText(env.Stdout)
	}
	return rendered(int(res.Status()), err)
}
