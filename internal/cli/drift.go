package cli

import (
	"context"

	"github.com/memcompact/memcompact/internal/drift"
)

func init() {
	register(drift.Usage, runDrift)
}

func runDrift(env *Env, args []string) error {
	fs := newFlagSet("drift")
	asJSON := jsonFlag(fs, "print one JSON object instead of text")
	index := indexFlag(fs)
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	req := drift.Request{Today: env.Today(), Where: env.where()}
	var res *drift.Result
	if req.Store, err = oneArg("drift", "store", drift.Usage, withIndexFlag(*index, pos)); err == nil {
		res, err = drift.Run(context.Background(), req)
	}
	if err != nil {
		if *asJSON {
			writeJSONTo(env.Stdout, drift.ErrorJSON(err))
		}
		return engineError(err)
	}
	if *asJSON {
		err = drift.WriteJSON(env.Stdout, res.JSON())
	} else {
		err = res.WriteText(env.Stdout)
	}
	return rendered(int(res.Status()), err)
}
