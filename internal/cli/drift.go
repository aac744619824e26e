package cli

import (
	"context"
	"fmt"

	"github.com/memcompact/memcompact/internal/drift"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/psflag"
)

const driftUsage = drift.Usage

func init() {
	register(driftUsage, runDrift)
}

func runDrift(env *Env, args []string) error {
	var asJSON bool
	flags := newFlagSet("drift")
	flags.BoolVar(&asJSON, "json", false, "print one JSON object instead of text")
	psflag.Alias(flags, "json", "Json")
	indexFlag := indexFlag(flags)
	pos, err := parseFlags(env, flags, args)
	if err != nil {
		return err
	}
	pos = withIndexFlag(*indexFlag, pos)
	req := drift.Request{Today: env.Today(), Where: env.where()}
	var res *drift.Result
	if len(pos) > 1 {
		err = &outcome.Error{Status: outcome.Usage, Msg: fmt.Sprintf("drift takes one store; found %d arguments", len(pos)), Hints: []string{"usage: memcompact " + driftUsage}}
	} else {
		if len(pos) == 1 {
			req.Store = pos[0]
		}
		res, err = drift.Run(context.Background(), req)
	}
	if err != nil {
		if asJSON {
			writeJSONTo(env.Stdout, drift.ErrorJSON(err))
		}
		return engineError(err)
	}
	if asJSON {
		err = drift.WriteJSON(env.Stdout, res.JSON())
	} else {
		err = res.WriteText(env.Stdout)
	}
	return rendered(int(res.Status()), err)
}
