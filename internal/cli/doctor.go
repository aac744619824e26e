package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/memcompact/memcompact/internal/check"
	"github.com/memcompact/memcompact/internal/doctor"
	"github.com/memcompact/memcompact/internal/reference"
	"github.com/memcompact/memcompact/internal/store"
)

const doctorUsage = "doctor [--all] [--json] [--reference FILE] [INDEX]"

func init() {
	register(&command{
		name:  "doctor",
		usage: doctorUsage,
		short: "one friendly report on a memory store, with the command that fixes each problem",
		long: `doctor examines a memory store and reports, area by area: what Claude Code
loads of the index (the load cut), subjects without a recall hook (R1) and
unattributed shared notes (R2) on whatever pointer lines it finds, drift
(orphan entry files, dangling pointers), secrets, budgets when a compaction
policy exists, and what the strict check makes of the store — each with the
one command that explains or fixes it. A store the strict check refuses (a
flat list with no "## " heading, no adopted policy) still gets a verdict,
and a line on what adopting the policy would add. doctor refuses nothing it
can read.

INDEX defaults to the current project's Claude Code memory index. --all
walks every store under <config dir>/projects/*/memory/ and prints a
summary table (a progress line goes to stderr when it is a terminal).

Exit codes: 0 healthy, 1 problems, 2 the index could not be read,
3 usage error (no index found).`,
		run: runDoctor,
	})
}

func runDoctor(env *Env, args []string) error {
	var all, asJSON bool
	var refPath string
	fs := newFlagSet("doctor")
	fs.BoolVar(&all, "all", false, "diagnose every store under <config dir>/projects/*/memory/")
	fs.BoolVar(&asJSON, "json", false, "print JSON")
	fs.StringVar(&refPath, "reference", "", "reference copy `FILE` for the strict check")
	alias(fs, "json", "Json")
	indexFlag := indexFlag(fs)
	pos, err := parseFlags(env, fs, doctorUsage, args)
	if err != nil {
		return err
	}
	pos = withIndexFlag(*indexFlag, pos)
	if len(pos) > 1 || (all && len(pos) > 0) {
		return Usagef("doctor takes one INDEX, or --all")
	}
	src := reference.Resolve(refPath, env.Getenv, env.Home())
	opt := doctor.Options{
		Reference:     check.Reference{Display: src.Display, Path: src.Path, Data: src.Data},
		ReferenceFlag: refPath,
		Today:         env.Today(),
	}

	if all {
		return doctorAll(env, opt, asJSON)
	}
	if len(pos) == 1 {
		opt.Index = pos[0]
	} else {
		cwd, err := os.Getwd()
		if err != nil {
			return Usagef("no index given, and the working directory is unknown: %v", err)
		}
		found, _, err := store.FindIndex(env.Getenv, env.Home(), cwd)
		if err != nil {
			ee := &ExitError{Code: ExitUsage, Err: err}
			var nie *store.NoIndexError
			if errors.As(err, &nie) {
				ee.Hints = nie.HintsFor("doctor")
			}
			ee.Hints = append(ee.Hints, "or diagnose every store: memcompact doctor --all")
			return ee
		}
		opt.Index = found
	}
	// A store directory names its index; a directory where the index
	// belongs is left for Diagnose to report as unreadable.
	if fi, err := os.Stat(filepath.Join(opt.Index, store.IndexName)); err == nil && !fi.IsDir() {
		opt.Index = filepath.Join(opt.Index, store.IndexName)
	} else if _, err := os.Stat(opt.Index); errors.Is(err, os.ErrNotExist) {
		return &ExitError{Code: ExitUsage, Err: fmt.Errorf("%s: no such file", opt.Index), Hints: []string{"usage: memcompact " + doctorUsage}}
	}
	r := doctor.Diagnose(opt)
	if asJSON {
		err = printJSON(env, r)
	} else {
		err = doctor.WriteText(env.Stdout, r)
	}
	if err != nil {
		return &ExitError{Code: ExitRefused, Err: err}
	}
	return exitCode(r.ExitCode())
}

func doctorAll(env *Env, opt doctor.Options, asJSON bool) error {
	home := env.Home()
	if home == "" && env.Getenv("CLAUDE_CONFIG_DIR") == "" {
		return Usagef("cannot find the Claude config dir: neither CLAUDE_CONFIG_DIR nor HOME is set")
	}
	projects := filepath.Join(store.ConfigDir(env.Getenv, home), "projects")
	indexes, err := doctor.Indexes(projects)
	if err != nil {
		return &ExitError{Code: ExitUsage, Err: fmt.Errorf("cannot list the stores: %v", err), Hints: []string{"Claude Code keeps them under <config dir>/projects/*/memory/; the config dir is $CLAUDE_CONFIG_DIR or ~/.claude"}}
	}
	var progress func(i, n int, index string)
	// Progress is for a person watching, never for a log or a pipe.
	if isTerminal(env.Stderr) {
		progress = func(i, n int, index string) {
			fmt.Fprintf(env.Stderr, "\r\x1b[Kdoctor: %d/%d %s", i+1, n, filepath.Base(filepath.Dir(filepath.Dir(index))))
		}
	}
	a := doctor.DiagnoseAll(projects, indexes, opt, progress)
	if progress != nil {
		fmt.Fprint(env.Stderr, "\r\x1b[K")
	}
	if asJSON {
		err = printJSON(env, a)
	} else {
		err = doctor.WriteAllText(env.Stdout, a)
	}
	if err != nil {
		return &ExitError{Code: ExitRefused, Err: err}
	}
	return exitCode(a.ExitCode())
}
