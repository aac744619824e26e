package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/memcompact/memcompact/internal/secrets"
	"github.com/memcompact/memcompact/internal/store"
)

const secretsUsage = "secrets [--json] [PATH...]"

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
	var asJSON bool
	fs := newFlagSet("secrets")
	fs.BoolVar(&asJSON, "json", false, "print one JSON object instead of text")
	alias(fs, "json", "Json")
	paths, err := parseFlags(env, fs, secretsUsage, args)
	if err != nil {
		return err
	}

	if len(paths) == 0 {
		paths, err = defaultSecretPaths(env)
	} else {
		for _, p := range paths {
			if _, serr := os.Stat(p); errors.Is(serr, os.ErrNotExist) {
				err = &ExitError{Code: ExitUsage, Err: fmt.Errorf("%s: no such file or directory", p),
					Hints: []string{"usage: memcompact " + secretsUsage}}
				break
			}
		}
	}
	if err != nil {
		var ee *ExitError
		if asJSON && errors.As(err, &ee) && ee.Err != nil {
			secrets.WriteJSONError(env.Stdout, ee.Err.Error())
		}
		return err
	}

	rep := secrets.ScanFiles(paths)
	for _, s := range rep.Skipped {
		fmt.Fprintf(env.Stderr, "memcompact: warning: skipped %s: %s\n", s.Path, s.Reason)
	}
	for _, e := range rep.Errors {
		fmt.Fprintf(env.Stderr, "memcompact: error: %s: %s\n", e.Path, e.Error)
	}
	if asJSON {
		err = rep.WriteJSON(env.Stdout)
	} else {
		err = rep.WriteText(env.Stdout)
	}
	code := ExitClean
	switch rep.Result() {
	case "unreadable":
		code = ExitRefused
	case "secrets":
		code = ExitDefects
	}
	if err != nil {
		return &ExitError{Code: worst(code, ExitRefused), Err: err}
	}
	return exitCode(code)
}

// defaultSecretPaths returns the current project's store directory (when it
// has an index) and the user's CLAUDE.md (when it exists). With neither, it
// is a usage error: there is nothing to scan.
func defaultSecretPaths(env *Env) ([]string, error) {
	var paths []string
	var hints []string
	cwd, err := os.Getwd()
	if err == nil {
		index, _, ferr := store.FindIndex(env.Getenv, env.Home(), cwd)
		if ferr == nil {
			paths = append(paths, filepath.Dir(index))
		} else {
			var nie *store.NoIndexError
			if errors.As(ferr, &nie) {
				hints = nie.HintsFor("secrets")
			}
			fmt.Fprintf(env.Stderr, "memcompact: warning: %v\n", ferr)
		}
	}
	if home := env.Home(); home != "" || env.Getenv("CLAUDE_CONFIG_DIR") != "" {
		claudeMD := filepath.Join(store.ConfigDir(env.Getenv, home), "CLAUDE.md")
		if fi, err := os.Stat(claudeMD); err == nil && !fi.IsDir() {
			paths = append(paths, claudeMD)
		}
	}
	if len(paths) == 0 {
		return nil, &ExitError{Code: ExitUsage, Err: errors.New("nothing to scan: no memory store for this project and no CLAUDE.md"),
			Hints: append(hints, "name what to scan: memcompact secrets PATH...")}
	}
	return paths, nil
}
