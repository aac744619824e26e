package cli

import (
	"errors"
	"flag"
	"io"
	"strings"
)

// newFlagSet returns a flag set that reports errors instead of exiting:
// flag.ExitOnError would exit 2, which memcompact reserves for "refused".
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// alias registers extra names for an already-defined flag, so the reference
// scripts' parameter names (-IndexPath, -Json, …) set the same variable.
func alias(fs *flag.FlagSet, name string, aliases ...string) {
	f := fs.Lookup(name)
	if f == nil {
		panic("cli: alias for undefined flag " + name)
	}
	for _, a := range aliases {
		fs.Var(f.Value, a, "alias of --"+name)
	}
}

// errHelp is returned by parseFlags when -h was asked for; verbs return it
// and Run maps it to exit 0 after printing the flags.
var errHelp = &exitError{Code: exitClean}

// parseFlags parses args into fs, allowing flags after positional arguments
// and matching flag names without regard to letter case (PowerShell's
// parameter names are case-insensitive, and stores quote them in any case).
// It returns the positional arguments. "--" ends flag parsing.
//
// usage is the verb's synopsis, printed with the flag list on -h.
func parseFlags(env *Env, fs *flag.FlagSet, usage string, args []string) ([]string, error) {
	args = foldFlagNames(fs, args)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				printFlags(env.Stdout, fs, usage)
				return nil, errHelp
			}
			return nil, &exitError{Code: exitUsage, Err: err, Hints: []string{"see its flags: memcompact " + fs.Name() + " -h"}}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// foldFlagNames rewrites "-indexpath" to "-IndexPath" (and so on) when the
// exact name is not defined but a case-insensitive match is.
func foldFlagNames(fs *flag.FlagSet, args []string) []string {
	out := make([]string, len(args))
	copy(out, args)
	for i, a := range out {
		if a == "--" {
			break
		}
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		dashes := "-"
		name := a[1:]
		if strings.HasPrefix(name, "-") {
			dashes, name = "--", name[1:]
		}
		value := ""
		if eq := strings.IndexByte(name, '='); eq >= 0 {
			name, value = name[:eq], name[eq:]
		}
		if name == "" || fs.Lookup(name) != nil {
			continue
		}
		var match string
		fs.VisitAll(func(f *flag.Flag) {
			if strings.EqualFold(f.Name, name) {
				match = f.Name
			}
		})
		if match != "" {
			out[i] = dashes + match + value
		}
	}
	return out
}

func printFlags(w io.Writer, fs *flag.FlagSet, usage string) {
	io.WriteString(w, "usage: memcompact "+usage+"\n")
	if c, ok := commands[fs.Name()]; ok {
		io.WriteString(w, "\n"+c.short+"\n")
		if long := strings.TrimSpace(c.long); long != "" {
			io.WriteString(w, "\n"+long+"\n")
		}
	}
	io.WriteString(w, "\nflags:\n")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}
