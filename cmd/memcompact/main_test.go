package main

import (
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/memcompact/memcompact/internal/cli"
)

var update = flag.Bool("u", false, "update testscript files in place (cmp's second argument)")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"memcompact": func() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the CLI tests in testdata/script. Each script runs in a
// fresh directory with HOME inside it and today pinned to 2026-12-02
// (override with "env MEMCOMPACT_TODAY=..." in a script).
//
// Besides testscript's own commands, scripts may use:
//
//	exits N memcompact ARGS...   run memcompact and require exit status N exactly
//
// (testscript's "! exec" only asserts a non-zero status; memcompact's four
// codes are a contract, so scripts assert them exactly).
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		UpdateScripts:       *update,
		Setup: func(e *testscript.Env) error {
			home := filepath.Join(e.WorkDir, "home")
			if err := os.MkdirAll(home, 0o755); err != nil {
				return err
			}
			e.Setenv("HOME", home)
			e.Setenv("USERPROFILE", "")
			// Not set at all: Claude Code (and so memcompact) reads
			// CLAUDE_CONFIG_DIR="" as a config dir relative to the
			// working directory, not as ~/.claude.
			e.Setenv("MEMCOMPACT_REFERENCE", "")
			e.Setenv("MEMCOMPACT_TODAY", "2026-12-02")
			e.Setenv("TZ", "UTC")
			if corpus, err := filepath.Abs(filepath.Join("..", "..", "..", "shared")); err == nil {
				e.Setenv("SHARED", corpus)
			}
			// $REPO is the repository root, so scripts can run the README's
			// commands on the committed examples exactly as a reader would.
			if repo, err := filepath.Abs(filepath.Join("..", "..")); err == nil {
				e.Setenv("REPO", repo)
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits": cmdExits,
		},
	})
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
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exits: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}
