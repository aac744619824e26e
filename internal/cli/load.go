package cli

import (
	"context"
	"fmt"

	"github.com/memcompact/memcompact/internal/loadcut"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/psflag"
)

const loadUsage = "load [--lines N] [--units N] [--text] [--settings FILE|JSON] [--json] [INDEX]"

func init() {
	register(loadUsage, runLoad)
}

func runLoad(env *Env, args []string) error {
	var req loadcut.Request
	var asJSON bool
	flags := newFlagSet("load")
	flags.BoolVar(&req.Text, "text", false, "also print the memory text exactly as Claude Code loads it")
	flags.IntVar(&req.Lines, "lines", loadcut.DefaultLines, "the line limit")
	flags.IntVar(&req.Units, "units", loadcut.DefaultUnits, "the size limit in UTF-16 code units")
	var settings string
	flags.StringVar(&settings, "settings", "", "the --settings value claude is started with (it may set autoMemoryDirectory)")
	flags.BoolVar(&asJSON, "json", false, "print one JSON object")
	psflag.Alias(flags, "json", "Json")
	indexFlag := indexFlag(flags)
	pos, err := parseFlags(env, flags, args)
	if err != nil {
		return err
	}
	pos = withIndexFlag(*indexFlag, pos)
	if len(pos) > 1 {
		err = &outcome.Error{Status: outcome.Usage, Msg: fmt.Sprintf("load takes one index; found %d arguments", len(pos)), Hints: []string{"usage: memcompact " + loadUsage}}
	} else {
		if len(pos) == 1 {
			req.Index = pos[0]
		}
		req.Where = env.where()
		req.Where.Settings = settings
		var o *loadcut.Outcome
		if o, err = loadcut.Run(context.Background(), req); err == nil {
			if asJSON {
				writeJSONTo(env.Stdout, o.JSON())
			} else {
				err = o.WriteText(env.Stdout)
			}
			return rendered(int(o.Status()), err)
		}
	}
	if asJSON {
		writeJSONTo(env.Stdout, loadcut.ErrorJSON(err))
	}
	return engineError(err)
}
