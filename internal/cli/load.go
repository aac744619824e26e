package cli

import (
	"context"

	"github.com/memcompact/memcompact/internal/loadcut"
)

const loadUsage = "load [--lines N] [--units N] [--text] [--settings FILE|JSON] [--json] [INDEX]"

func init() {
	register(loadUsage, runLoad)
}

func runLoad(env *Env, args []string) error {
	var req loadcut.Request
	fs := newFlagSet("load")
	fs.BoolVar(&req.Text, "text", false, "also print the memory text exactly as Claude Code loads it")
	fs.IntVar(&req.Lines, "lines", loadcut.DefaultLines, "the line limit")
	fs.IntVar(&req.Units, "units", loadcut.DefaultUnits, "the size limit in UTF-16 code units")
	settings := fs.String("settings", "", "the --settings value claude is started with (it may set autoMemoryDirectory)")
	asJSON := jsonFlag(fs, "print one JSON object")
	index := indexFlag(fs)
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	req.Where = env.where()
	req.Where.Settings = *settings
	var o *loadcut.Outcome
	if req.Index, err = oneArg("load", "index", loadUsage, withIndexFlag(*index, pos)); err == nil {
		o, err = loadcut.Run(context.Background(), req)
	}
	if err != nil {
		if *asJSON {
			writeJSONTo(env.Stdout, loadcut.ErrorJSON(err))
		}
		return engineError(err)
	}
	if *asJSON {
		writeJSONTo(env.Stdout, o.JSON())
	} else {
		err = o.WriteText(env.Stdout)
	}
	return rendered(int(o.Status()), err)
}
