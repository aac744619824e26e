package cli

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/memcompact/memcompact/internal/doctor"
)

func init() {
	register(doctor.Usage, runDoctor)
}

func runDoctor(env *Env, args []string) error {
	req := doctor.Request{Today: env.Today(), Where: env.where()}
	fs := newFlagSet("doctor")
	fs.BoolVar(&req.All, "all", false, "diagnose every store under <config dir>/projects/*/memory/")
	asJSON := jsonFlag(fs, "print JSON")
	fs.StringVar(&req.Reference, "reference", "", "reference copy `FILE` for the strict check")
	fs.BoolVar(&req.NoCache, "no-cache", false, "read, scan and plan afresh, ignoring the cache of earlier runs (secrets, entry files, the sweep figure)")
	indexFlag := indexFlag(fs)
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	pos = withIndexFlag(*indexFlag, pos)
	if len(pos) > 1 || (req.All && len(pos) > 0) {
		return usagef("doctor takes one INDEX, or --all")
	}
	if len(pos) == 1 {
		req.Index = pos[0]
	}
	// Progress is for a person watching, never for a log or a pipe.
	if req.All && isTerminal(env.Stderr) {
		req.Progress = func(i, n int, index string) {
			fmt.Fprintf(env.Stderr, "\r\x1b[Kdoctor: %d/%d %s", i+1, n, filepath.Base(filepath.Dir(filepath.Dir(index))))
		}
	}
	res, err := doctor.Run(context.Background(), req)
	if req.Progress != nil {
		fmt.Fprint(env.Stderr, "\r\x1b[K")
	}
	if err != nil {
		return engineError(err)
	}
	switch {
	case *asJSON:
		err = printJSON(env, res.JSON())
	case res.All != nil:
		err = doctor.WriteAllText(env.Stdout, res.All)
	default:
		err = doctor.WriteText(env.Stdout, res.Report)
	}
	if err != nil {
		return &exitError{Code: exitRefused, Err: err}
	}
	return exitCode(int(res.Status()))
}
