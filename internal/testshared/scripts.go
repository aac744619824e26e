package testshared

import (
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// ScriptParams are the settings every executable's CLI tests (testscript
// files in dir) run with: each script in a fresh directory with HOME
// inside it and today pinned to 2026-12-02 (override with "env
// MEMCOMPACT_TODAY=..." in a script). update rewrites cmp's second
// argument in place.
//
// Besides testscript's own commands, scripts may use:
//
//	exits N memcompact ARGS...   run memcompact and require exit status N exactly
//	paste N REGEXP               run the hint of the last command's output on the
//	                             line matching REGEXP, as a user would paste it
//	                             (through sh), and require exit status N exactly
//
// (testscript's "! exec" only asserts a non-zero status; memcompact's four
// codes are a contract, so scripts assert them exactly).
//
// Under -short (testing.Short()), only a sample runs: one script per verb
// family (ShortSample), so the quick loop still touches every verb.
func ScriptParams(dir string, update bool) testscript.Params {
	var files []string
	if testing.Short() && !update {
		if files = ShortSample(dir); files != nil {
			dir = ""
		}
	}
	return testscript.Params{
		Dir:                 dir,
		Files:               files,
		RequireExplicitExec: true,
		UpdateScripts:       update,
		Setup:               scriptSetup,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits": cmdExits,
			"paste": cmdPaste,
		},
	}
}

// ShortSample picks, of the .txtar scripts in dir, one per family (the
// name up to its first '-', which the scripts are named by, verb first):
// the family's "-basic" script if it has one, else the one that runs the
// fewest commands (the first by name of those): -short is the quick loop,
// which touches every verb, and each command is a process start. It is
// nil when dir cannot be read, and then every script runs.
func ShortSample(dir string) []string {
	names, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil || len(names) == 0 {
		return nil
	}
	sort.Strings(names)
	pick := map[string]string{}
	cost := map[string]int{}
	var families []string
	for _, n := range names {
		base := strings.TrimSuffix(filepath.Base(n), ".txtar")
		family, _, _ := strings.Cut(base, "-")
		if _, ok := pick[family]; !ok {
			families = append(families, family)
			cost[family] = math.MaxInt
		}
		c := scriptCommands(n)
		if strings.HasSuffix(base, "-basic") {
			c = -1 // the family's own sample
		}
		if c < cost[family] {
			pick[family], cost[family] = n, c
		}
	}
	out := make([]string, 0, len(families))
	for _, f := range families {
		out = append(out, pick[f])
	}
	return out
}

// scriptCommands is how many commands the script in file runs: its
// lines before the first file of its archive, less comments and blank
// lines (an unreadable file counts as many).
func scriptCommands(file string) int {
	b, err := os.ReadFile(file)
	if err != nil {
		return math.MaxInt
	}
	script, _, _ := strings.Cut("\n"+string(b), "\n-- ")
	n := 0
	for _, l := range strings.Split(script, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			n++
		}
	}
	return n
}

func scriptSetup(e *testscript.Env) error {
	home := filepath.Join(e.WorkDir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return err
	}
	e.Setenv("HOME", home)
	e.Setenv("USERPROFILE", "")
	// Not set at all: Claude Code (and so memcompact) reads
	// CLAUDE_CONFIG_DIR="" as a config dir relative to the working
	// directory, not as ~/.claude.
	e.Setenv("MEMCOMPACT_REFERENCE", "")
	e.Setenv("MEMCOMPACT_TODAY", "2026-12-02")
	e.Setenv("TZ", "UTC")
	if corpus, err := filepath.Abs(filepath.Join(repoRoot(), "..", "shared")); err == nil {
		e.Setenv("SHARED", corpus)
	}
	// $REPO is the repository root, so scripts can run the README's
	// commands on the committed examples exactly as a reader would.
	if repo, err := filepath.Abs(repoRoot()); err == nil {
		e.Setenv("REPO", repo)
	}
	// $MEMCOMPACT_EXE is the scripts' memcompact command as a path, the
	// path "hooks install" writes into the hooks it installs.
	if exe, err := exec.LookPath("memcompact"); err == nil {
		if abs, err := filepath.Abs(exe); err == nil {
			e.Setenv("MEMCOMPACT_EXE", abs)
		}
	}
	return nil
}

// exitStatus is the status of a command ts ran: 0, its exit code, or a
// fatal error when it did not run at all.
func exitStatus(ts *testscript.TestScript, err error) int {
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		ts.Fatalf("%v", err)
	}
	return ee.ExitCode()
}

func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! exits")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: exits N command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: bad status %q", args[0])
	}
	if got := exitStatus(ts, ts.Exec(args[1], args[2:]...)); got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}

// cmdPaste runs a hint as a user would paste it: on the first line of the
// last command's stdout, then stderr, that holds "hint:" and matches the
// regular expression, the text from the first "memcompact " after
// "hint:" to the end of the line, through sh.
func cmdPaste(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: paste N REGEXP")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("paste: bad status %q", args[0])
	}
	re := regexp.MustCompile(args[1])
	for _, out := range []string{ts.ReadFile("stdout"), ts.ReadFile("stderr")} {
		for _, l := range strings.Split(out, "\n") {
			h := strings.Index(l, "hint:")
			if h < 0 || !re.MatchString(l) {
				continue
			}
			i := strings.Index(l[h:], "memcompact ")
			if i < 0 {
				ts.Fatalf("paste: the hint %q holds no command", l)
			}
			cmd := l[h+i:]
			ts.Logf("pasting: %s", cmd)
			if got := exitStatus(ts, ts.Exec("sh", "-c", cmd)); got != want {
				ts.Fatalf("the pasted hint %q exited %d, want %d", cmd, got, want)
			}
			return
		}
	}
	ts.Fatalf("paste: no hint matches %q", args[1])
}
