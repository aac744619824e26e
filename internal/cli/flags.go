package cli

import (
	"errors"
	"flag"
	"io"

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
// positional arguments. On -h it prints the help of the verb (or sweep
// step) fs is named for.
func parseFlags(env *Env, fs *flag.FlagSet, args []string) ([]string, error) {
	pos, err := psflag.Parse(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		printFlags(env.Stdout, fs)
		return nil, errHelp
	}
	if err != nil {
		return nil, &exitError{Code: exitUsage, Err: err, Hints: []string{"see its flags: memcompact " + fs.Name() + " -h"}}
	}
	return pos, nil
}

// printFlags prints the help of the verb fs is named for: its synopsis,
// its help file, and its flags. A sweep step has no help file: the
// sweep's covers them all.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	c, verb := commands[fs.Name()]
	if !verb {
		c = sweepSteps[fs.Name()]
	}
	io.WriteString(w, "usage: memcompact "+c.usage+"\n")
	if verb {
		io.WriteString(w, "\n"+helpText(c.name)+"\n")
	}
	io.WriteString(w, "\nflags:\n")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}
