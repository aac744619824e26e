package cli

import (
	"context"
	"errors"
	"flag"
	"strings"

	"github.com/memcompact/memcompact/internal/check"
)

const checkUsage = "check [--reference FILE] [--json] [INDEX [REFERENCE]]"

func init() {
	register(&command{
		name:  "check",
		usage: checkUsage,
		short: "check a memory index on four axes: policy, size, recall hooks, shared notes",
		long:  help("check"),
		run:   runCheck,
	})
}

// psParams are the reference script's parameter names. PowerShell accepts
// any unambiguous prefix of a parameter name (-Index, -Policy, -J), and
// stores quote the command in those forms.
var psParams = []string{"IndexPath", "PolicyReferencePath", "Json"}

func runCheck(env *Env, args []string) error {
	var refPath, indexFlag string
	var asJSON bool
	fs := newFlagSet("check")
	fs.StringVar(&refPath, "reference", "", "reference copy `FILE` to compare against")
	fs.BoolVar(&asJSON, "json", false, "print one JSON object instead of text")
	fs.StringVar(&indexFlag, "index", "", "the index `FILE` (the same as the INDEX argument)")
	alias(fs, "reference", "PolicyReferencePath")
	alias(fs, "json", "Json")
	alias(fs, "index", "IndexPath")

	args = expandPSPrefixes(args)
	pos, err := parseFlags(env, fs, checkUsage, args)
	if err != nil {
		if errors.Is(err, errHelp) {
			return err
		}
		return checkUsageError(env, wantsJSON(args), "", err.Error(), "run 'memcompact check -h' for its flags")
	}
	// PowerShell binds positional arguments to the parameters not named, in
	// declaration order: the index, then the reference copy. So
	// "check MEMORY.md SKILL.md" and "check -IndexPath MEMORY.md SKILL.md"
	// name a reference, as they do for the script.
	refNamed := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "reference" || f.Name == "PolicyReferencePath" {
			refNamed = true
		}
	})
	if !refNamed {
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

// expandPSPrefixes rewrites an unambiguous prefix of a PowerShell parameter
// name (-Index, -Policy, -J) to the full name, and PowerShell's colon form
// (-IndexPath:FILE, -Json:$true, -Json:$false) to the flag form.
func expandPSPrefixes(args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			out = append(out, args[i:]...)
			break
		}
		out = append(out, a)
		if len(a) < 2 || a[0] != '-' || strings.HasPrefix(a, "--") {
			continue
		}
		name, value := a[1:], ""
		if eq := strings.IndexByte(name, '='); eq >= 0 {
			name, value = name[:eq], name[eq:]
		}
		colon := -1
		if value == "" {
			colon = strings.IndexByte(name, ':')
		}
		if colon > 0 {
			name, value = name[:colon], name[colon+1:]
		}
		if name == "" {
			continue
		}
		full := psParamName(name)
		if full == "" {
			continue
		}
		switch {
		case colon <= 0:
			if !isCheckFlag(name) {
				out[len(out)-1] = "-" + full + value
			}
		case full == "Json":
			// -Json:$true / -Json:$false; a bare "-Json:" is the switch.
			v := strings.TrimPrefix(strings.ToLower(value), "$")
			if v == "" {
				v = "true"
			}
			out[len(out)-1] = "-Json=" + v
		case value == "":
			// "-IndexPath: FILE": the value is the next argument.
			out[len(out)-1] = "-" + full
		default:
			out[len(out)-1] = "-" + full + "=" + value
		}
	}
	return out
}

// psParamName returns the PowerShell parameter name is the full name or an
// unambiguous prefix of (letter case ignored), or "".
func psParamName(name string) string {
	var match []string
	for _, p := range psParams {
		if strings.EqualFold(p, name) {
			return p
		}
		if len(name) <= len(p) && strings.EqualFold(p[:len(name)], name) {
			match = append(match, p)
		}
	}
	if len(match) == 1 {
		return match[0]
	}
	return ""
}

func isCheckFlag(name string) bool {
	for _, n := range []string{"reference", "json", "index", "h", "help"} {
		if strings.EqualFold(name, n) {
			return true
		}
	}
	for _, n := range psParams {
		if strings.EqualFold(name, n) {
			return true
		}
	}
	return false
}
