package main

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/memcompact/memcompact/internal/cli"
	"github.com/memcompact/memcompact/internal/testshared"
)

var update = flag.Bool("u", false, "update testscript files in place (cmp's second argument)")

// aloneEnv names the memcompact executable TestAlone built.
const aloneEnv = "MEMCOMPACT_TEST_BIN"

// In the scripts, memcompact is this test executable (its main, with the
// MCP server linked as in the real one), or, when $MEMCOMPACT_TEST_BIN
// names one, that executable (TestAlone).
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"memcompact": func() {
			if bin := os.Getenv(aloneEnv); bin != "" {
				testshared.RunInstead(bin)
			}
			// "hooks install" writes the executable that ran it: here the
			// scripts' memcompact command, not the test binary behind it.
			cli.Executable = func() (string, error) { return exec.LookPath(os.Args[0]) }
			main()
		},
	})
}

// TestScripts runs the CLI tests in testdata/script (testshared.ScriptParams
// says how they run and which commands they may use besides testscript's).
func TestScripts(t *testing.T) {
	testscript.Run(t, testshared.ScriptParams("testdata/script", *update))
}

// TestAlone runs testdata/alone's scripts with memcompact built as a user
// builds it and copied alone into a folder of its own, the scripts' PATH
// holding nothing else: the one executable needs nothing beside it.
func TestAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("builds memcompact with the go command")
	}
	bin := testshared.Install(t, filepath.Join(t.TempDir(), "alone"))
	p := testshared.WithSetenv(testshared.ScriptParams("testdata/alone", *update), aloneEnv, bin)
	setup := p.Setup
	p.Setup = func(e *testscript.Env) error {
		e.Setenv("PATH", filepath.Dir(bin))
		return setup(e)
	}
	testscript.Run(t, p)
}
