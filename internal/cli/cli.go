// Package cli is memcompact's command line: a table of verbs, each with its
// own flag set, each following one data flow (read, parse, decide, render).
//
// Only Main's caller exits. Verbs return errors; an *exitError carries the
// exit code, and the worst code wins. The codes are a contract shared with
// the reference scripts: 0 clean, 1 defects, 2 refused, 3 usage error. The
// output format (--json or text) never changes the code.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/jsonout"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/psflag"
	"github.com/memcompact/memcompact/internal/store"
	"github.com/memcompact/memcompact/internal/userenv"
)

// Exit codes.
const (
	exitClean   = 0 // nothing wrong (or nothing to do)
	exitDefects = 1 // findings reported
	exitRefused = 2 // input not fully recognized; no verdict given
	exitUsage   = 3 // the command line or its paths are wrong
)

// Version is memcompact's version, set at build time with -ldflags.
var Version = "dev"

// Env is everything a verb may touch of the outside world, so that verbs run
// the same in-process (tests, the MCP server) as from a shell.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Getenv reads an environment variable.
	Getenv func(string) string
	// LookupEnv reads one as os.LookupEnv does, telling a variable set to
	// "" from one not set, which Claude Code tells apart (CLAUDE_CONFIG_DIR,
	// CLAUDE_COWORK_MEMORY_INDEX_CONTENT). nil counts "" as unset.
	LookupEnv func(string) (string, bool)
	// Now is the clock. MEMCOMPACT_TODAY=YYYY-MM-DD pins the date, so tests
	// and reproducible runs can fix "today".
	Now func() time.Time
}

// Today returns the local date at midnight (or MEMCOMPACT_TODAY).
func (e *Env) Today() time.Time { return userenv.Today(e.Getenv, e.Now) }

// Home returns the user's home directory, or "" if unknown.
func (e *Env) Home() string { return userenv.Home(e.Getenv) }

// osEnv is the Env of a real process.
func osEnv(stdin io.Reader, stdout, stderr io.Writer) *Env {
	return &Env{Stdin: stdin, Stdout: stdout, Stderr: stderr, Getenv: os.Getenv, LookupEnv: os.LookupEnv, Now: time.Now}
}

// command is one verb: its synopsis (the text after "memcompact ", its
// first word the verb's name) and what runs it. What it does is told by
// its help file (see help.go).
type command struct {
	name  string
	usage string
	run   func(env *Env, args []string) error
}

var commands = map[string]*command{}

// register adds the verb usage names to the table. Each verb's file
// registers itself from an init function, so verbs can be added without
// touching a shared list.
func register(usage string, run func(env *Env, args []string) error) {
	name, _, _ := strings.Cut(usage, " ")
	if _, dup := commands[name]; dup {
		panic("cli: verb registered twice: " + name)
	}
	commands[name] = &command{name: name, usage: usage, run: run}
}

// Main runs memcompact with args (without the program name) and returns the
// exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return Run(osEnv(stdin, stdout, stderr), args)
}

// Run runs memcompact in env and returns the exit code.
func Run(env *Env, args []string) (code int) {
	defer func() {
		// A verb must never crash its caller (a hook, a server): a panic is
		// a bug, reported as a refusal rather than a stack trace mid-session.
		if r := recover(); r != nil {
			outcome.Say(env.Stderr, outcome.KindError, fmt.Sprintf("internal error: %v", r))
			outcome.Say(env.Stderr, outcome.KindHint, "this is a bug; please report it with the input that caused it")
			code = exitRefused
		}
	}()
	if len(args) == 0 {
		printUsage(env.Stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help", "help":
		if len(args) > 1 && name == "help" {
			if c, ok := commands[args[1]]; ok {
				return report(env, c.run(env, []string{"-h"}))
			}
			return report(env, usagef("unknown verb %q", args[1]))
		}
		printUsage(env.Stdout)
		return exitClean
	case "-version", "--version", "version":
		if len(args) > 1 {
			return report(env, usagef("%s takes no arguments; found %q", name, args[1]))
		}
		// Not fmt: its first use in a process sets up its printer, which
		// costs the one run that only asks for the version a tenth of it.
		io.WriteString(env.Stdout, "memcompact "+Version+"\n")
		return exitClean
	}
	c, ok := commands[name]
	if !ok {
		err := usagef("unknown verb %q", name)
		if s := suggest(name); s != "" {
			err.Hints = append(err.Hints, fmt.Sprintf("did you mean %q?", s))
		}
		err.Hints = append(err.Hints, "run 'memcompact help' for the list of verbs")
		return report(env, err)
	}
	return runVerb(env, c, args[1:])
}

// runVerb runs one verb. When --json was asked for and the verb failed
// without printing anything on stdout (a refusal reported as an error),
// the failure is also printed as a JSON object on stdout, so a program
// reading --json output always gets one object. Verbs that render their
// own failures (check, or the usage errors the reference scripts print as
// text) are left as they are.
func runVerb(env *Env, c *command, args []string) int {
	out := &countingWriter{w: env.Stdout}
	venv := *env
	venv.Stdout = out
	err := c.run(&venv, args)
	var ee *exitError
	if err != nil && out.n == 0 && psflag.Asks(args, "json") {
		code, msg, hints := exitRefused, err.Error(), []string(nil)
		if errors.As(err, &ee) {
			code, hints = ee.Code, ee.Hints
		}
		if (ee == nil || ee.Err != nil) && code != exitClean {
			writeJSONTo(env.Stdout, jsonout.ErrorOf(outcome.Status(code), msg, hints))
		}
	}
	return report(env, err)
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// report prints err in memcompact's voice and returns its exit code.
func report(env *Env, err error) int {
	if err == nil {
		return exitClean
	}
	var ee *exitError
	if !errors.As(err, &ee) {
		outcome.Say(env.Stderr, outcome.KindError, err.Error())
		return exitRefused
	}
	if ee.Err != nil {
		outcome.Say(env.Stderr, outcome.KindError, ee.Err.Error())
	}
	for _, h := range ee.Hints {
		outcome.Say(env.Stderr, outcome.KindHint, h)
	}
	return ee.Code
}

func printUsage(w io.Writer) {
	fmt.Fprintf(w, "memcompact keeps an agent's file-based memory small without making it forget.\n\nUsage:\n\n")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  memcompact %-13s %s\n", n, short(n))
	}
	fmt.Fprintf(w, "\nExit codes: 0 clean, 1 defects, 2 refused, 3 usage error.\nRun 'memcompact help VERB' for a verb's flags.\n")
}

// suggest returns the verb closest to name, if any is close.
func suggest(name string) string {
	best, bestD := "", 3
	for n := range commands {
		if d := distance(strings.ToLower(name), n); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// distance is the Levenshtein distance.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// where is what an engine consults to find the current project's store.
func (e *Env) where() store.Where {
	w := store.Here(e.Getenv, e.Home())
	w.LookupEnv = e.LookupEnv
	return w
}
