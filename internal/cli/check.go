package cli

import (
	"context"
	"errors"
	"strings"

	"github.com/memcompact/memcompact/internal/check"
	"github.com/memcompact/memcompact/internal/psflag"
)

const checkUsage = "check [--reference FILE] [--json] [INDEX [REFERENCE]]"

func init() {
	register(checkUsage, runCheck)
}

func runCheck(env *Env, args []string) error {
	var refPath, indexFlag string
	var asJSON bool
	fs := newFlagSet("check")
	psflag.String(fs, &refPath, "reference", "PolicyReferencePath", "reference copy `FILE` to compare against")
	psflag.Bool(fs, &asJSON, "json", "Json", "print one JSON object instead of text")
	psflag.String(fs, &indexFlag, "index", "IndexPath", "the index `FILE` (the same as the INDEX argument)")

	// PowerShell accepts any unambiguous prefix of a parameter name (-Index,
	// -Policy, -J), and stores quote the command in those forms.
	args = psflag.ExpandPrefixes(fs, args)
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		if errors.Is(err, errHelp) {
			return err
		}
		return checkUsageError(env, psflag.Asks(args, "json"), "", err.Error(), "run 'memcompact check -h' for its flags")
	}
	// PowerShell binds positional arguments to the parameters not named, in
	// declaration order: the index, then the reference copy. So
	// "check MEMORY.md SKILL.md" and "check -IndexPath MEMORY.md SKILL.md"
	// name a reference, as they do for the script.
	if !psflag.Given(fs, "reference", "PolicyReferencePath") {
		switch {
		case len(pos) == 2 && indexFlag == "":
			pos, refPath = pos[:1], pos[1]
		case len(pos) == 1 && indexFlag != "" && pos[0] != indexFlag:
			pos, refPath = nil, pos[0]
		}
	}
	if len(pos) > 1 || (len(pos) == 1 && indexFlag != "" && pos[0] != indexFlag) {
		found := pos
		if indexFlag != "" {
			found = append([]string{indexFlag}, pos...)
		}
		return checkUsageError(env, asJSON, indexFlag, "check takes one index (and one reference copy); found "+strings.Join(found, ", "), "usage: memcompact "+checkUsage)
	}
	req := check.Request{Index: indexFlag, Reference: refPath, Today: env.Today(), Where: env.where()}
	if len(pos) == 1 {
		req.Index = pos[0]
	}
	rep, err := check.Run(context.Background(), req)
	if rerr := renderCheck(env, asJSON, rep); rerr != nil {
		return &exitError{Code: worst(rep.ExitCode(), exitRefused), Err: rerr}
	}
	return &exitError{Code: rep.ExitCode(), Hints: hintsOf(err)}
}

func renderCheck(env *Env, asJSON bool, rep *check.Report) error {
	if asJSON {
		return check.WriteJSON(env.Stdout, rep)
	}
	return check.WriteText(env.Stdout, rep)
}

// checkUsageError reports a usage error the way the check reports all its
// results, on standard output (JSON when asked), with hints on stderr.
func checkUsageError(env *Env, asJSON bool, indexPath, reason string, hints ...string) error {
	rep := check.UsageReport(indexPath, errors.New(reason))
	if err := renderCheck(env, asJSON, rep); err != nil {
		return &exitError{Code: exitUsage, Err: err}
	}
	return &exitError{Code: exitUsage, Hints: hints}
}
