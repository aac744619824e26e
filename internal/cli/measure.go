package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/jsonout"
	"github.com/memcompact/memcompact/internal/measure"
	"github.com/memcompact/memcompact/internal/textfile"
)

const measureUsage = "measure [--as-of DATE] [--json] PATH | measure --validate RECORD [--json]"

func init() {
	register(&command{
		name:  "measure",
		usage: measureUsage,
		short: "measure a file by the counting rule, or validate a measurement record",
		long: `measure PATH applies the store's counting rule (UTF-8 decoded, CRLF and lone
CR as LF, length in UTF-16 code units) to any file, typically a promotion
destination such as ~/.claude/CLAUDE.md, and prints the record a sweep
writes down:

  x-destination_observation: DATE | VALUE | characters | SURFACE | METHOD

SURFACE is the file's absolute path, home-relative (~/...). --as-of sets the
date (default today). Exit 0; exit 2 when PATH cannot be read, 3 when
PATH is not a file.

measure --validate RECORD checks such a record (with or without its
x-destination_observation: key) and lists every missing or malformed field.
Exit 0 when it conforms, 1 when it does not.

The PowerShell names -Path, -Validate, -AsOf and -Json are accepted too.
Usage errors print "RESULT: usage-error" and a reason on standard output.`,
		run: runMeasure,
	})
}

// measureUsageJSON is the JSON form of a measure usage error.
type measureUsageJSON struct {
	Result string `json:"result"`
	Reason string `json:"reason"`
}

func runMeasure(env *Env, args []string) error {
	var path, validate, asOf string
	var asJSON bool
	fs := newFlagSet("measure")
	fs.StringVar(&path, "path", "", "the file to measure (or give it as the argument)")
	fs.StringVar(&validate, "validate", "", "a measurement record to validate instead of measuring")
	fs.StringVar(&asOf, "as-of", "", "the date recorded on the measurement, yyyy-MM-dd (default today)")
	fs.BoolVar(&asJSON, "json", false, "print one JSON object")
	alias(fs, "path", "Path")
	alias(fs, "validate", "Validate")
	alias(fs, "as-of", "AsOf")
	alias(fs, "json", "Json")
	pos, err := parseFlags(env, fs, measureUsage, args)
	if err != nil {
		return err
	}
	// A blank -Path or -Validate counts as not supplied, as in the
	// reference script: "-Path ''" is the usage error that names both
	// parameters, not a search for a file named ''.
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "path", "Path":
			set["path"] = strings.TrimSpace(path) != ""
		case "validate", "Validate":
			set["validate"] = strings.TrimSpace(validate) != ""
		}
	})
	if len(pos) == 1 && strings.TrimSpace(pos[0]) == "" {
		pos = nil
	}
	switch {
	case len(pos) > 1:
		return measureUsageError(env.Stdout, asJSON, fmt.Sprintf("measure takes one file; found %d arguments", len(pos)))
	case len(pos) == 1 && set["path"]:
		return measureUsageError(env.Stdout, asJSON, "give the file once, as -Path or as the argument")
	case len(pos) == 1:
		path, set["path"] = pos[0], true
	}
	if set["path"] && set["validate"] {
		return measureUsageError(env.Stdout, asJSON, "supply -Path or -Validate, not both")
	}
	if set["validate"] {
		v := measure.Validate(validate)
		for _, n := range v.Notes {
			fmt.Fprintf(env.Stderr, "memcompact: warning: %s\n", n)
		}
		if asJSON {
			writeJSONTo(env.Stdout, v)
		} else {
			fmt.Fprintf(env.Stdout, "RESULT: %s\n", v.Result)
			for _, p := range v.Problems {
				fmt.Fprintf(env.Stdout, "  - %s\n", p)
			}
		}
		if !v.Conforming() {
			return exitCode(ExitDefects)
		}
		return nil
	}
	if !set["path"] {
		return measureUsageError(env.Stdout, asJSON, "supply -Path to measure a destination, or -Validate to check a measurement record")
	}
	date := env.Today()
	if asOf != "" {
		if _, ok := textfile.ParseDate(asOf); !ok {
			return measureUsageError(env.Stdout, asJSON, fmt.Sprintf("-AsOf must be a real date in yyyy-MM-dd form; found '%s'", asOf))
		}
		date, _ = time.Parse("2006-01-02", asOf)
	}
	// A missing path, or one that is not a regular file, is a usage error
	// printed as text even under -Json, as the reference script prints it.
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return measureUsageError(env.Stdout, false, fmt.Sprintf("no file at '%s'", path))
	}
	m, err := measure.Measure(path, date, env.Home())
	if err != nil {
		return &ExitError{Code: ExitRefused, Err: fmt.Errorf("%s: %w", path, errors.Unwrap(err)), Hints: []string{"the file exists but could not be read, so nothing was measured"}}
	}
	if asJSON {
		writeJSONTo(env.Stdout, m)
	} else {
		fmt.Fprintln(env.Stdout, m.Row())
	}
	return nil
}

// measureUsageError prints a usage error the way the reference script
// does, on standard output, and exits 3.
func measureUsageError(w io.Writer, asJSON bool, reason string) error {
	if asJSON {
		writeJSONTo(w, measureUsageJSON{Result: "usage-error", Reason: reason})
	} else {
		fmt.Fprintf(w, "RESULT: usage-error\nreason: %s\n", reason)
	}
	return exitCode(ExitUsage)
}

// writeJSONTo prints v indented by two spaces, without HTML escaping.
func writeJSONTo(w io.Writer, v any) {
	if err := jsonout.Write(w, v); err != nil {
		fmt.Fprintf(w, "{\"result\": \"error\", \"reason\": %q}\n", err.Error())
	}
}
