package cli

import (
	"errors"
	"flag"
	"io"
	"strings"

	"github.com/memcompact/memcompact/internal/psflag"
)

// newFlagSet returns a flag set that reports errors instead of exiting:
// flag.ExitOnError would exit 2, which memcompact reserves for "refused".
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// errHelp is returned by parseFlags when -h was asked for; verbs return it
// and Run maps it to exit 0 after printing the flags.
var errHelp = &exitError{Code: exitClean}

// parseFlags parses args into fs as psflag reads a command line (flags
// after positional arguments, names in any letter case) and returns the
// positional arguments. usage is the verb's synopsis, printed with the flag list on -h.
func parseFlags(env *Env, fs *flag.FlagSet, usage string, args []string) ([]string, error) {
	pos, err := psflag.Parse(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		printFlags(env.Stdout, fs, usage)
		return nil, errHelp
	}
	if err != nil {
		return nil, &exitError{Code: exitUsage, Err: err, Hints: []string{"see its flags: memcompact " + fs.Name() + " -h"}}
	}
	return pos, nil
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
