package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/memcompact/memcompact/internal/measure"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/psflag"
)

const measureUsage = "measure [--as-of DATE] [--json] PATH | measure --validate RECORD [--json]"

func init() {
	register(measureUsage, runMeasure)
}

func runMeasure(env *Env, args []string) error {
	req := measure.Request{Today: env.Today(), Home: env.Home()}
	fs := newFlagSet("measure")
	psflag.String(fs, &req.Path, "path", "Path", "the file to measure (or give it as the argument)")
	psflag.String(fs, &req.Validate, "validate", "Validate", "a measurement record to validate instead of measuring")
	psflag.String(fs, &req.AsOf, "as-of", "AsOf", "the date recorded on the measurement, yyyy-MM-dd (default today)")
	asJSON := jsonFlag(fs, "print one JSON object")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	req, err = measureRequest(req, pos)
	var res *measure.Result
	if err == nil {
		res, err = measure.Run(context.Background(), req)
	}
	if err != nil {
		if outcome.StatusOf(err) != outcome.Usage {
			return engineError(err)
		}
		// Usage errors go to standard output, as the reference script
		// prints them; a missing file as text even under -Json.
		if *asJSON && outcome.ReasonOf(err) != measure.ReasonNoFile {
			writeJSONTo(env.Stdout, measure.ErrorJSON(err))
		} else {
			measure.WriteErrorText(env.Stdout, err)
		}
		return exitCode(exitUsage)
	}
	if res.Verdict != nil {
		printWarnings(env, res.Verdict.Notes)
	}
	if *asJSON {
		writeJSONTo(env.Stdout, res.JSON())
	} else {
		res.WriteText(env.Stdout)
	}
	return exitCode(int(res.Status()))
}

// measureRequest folds the positional argument into req. A blank -Path or
// -Validate counts as not supplied, as in the reference script: "-Path ”"
// is the usage error that names both parameters, not a search for a file
// named ”.
func measureRequest(req measure.Request, pos []string) (measure.Request, error) {
	if strings.TrimSpace(req.Path) == "" {
		req.Path = ""
	}
	if strings.TrimSpace(req.Validate) == "" {
		req.Validate = ""
	}
	if len(pos) == 1 && strings.TrimSpace(pos[0]) == "" {
		pos = nil
	}
	switch {
	case len(pos) > 1:
		return req, &outcome.Error{Status: outcome.Usage, Msg: fmt.Sprintf("measure takes one file; found %d arguments", len(pos))}
	case len(pos) == 1 && req.Path != "":
		return req, &outcome.Error{Status: outcome.Usage, Msg: "give the file once, as -Path or as the argument"}
	case len(pos) == 1:
		req.Path = pos[0]
	}
	return req, nil
}
