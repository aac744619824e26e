package main

import (
	"flag"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/memcompact/memcompact/internal/cli"
	_ "github.com/memcompact/memcompact/internal/fullbuild" // the scripts' memcompact links everything; TestLeanScripts runs them on the lean build
	"github.com/memcompact/memcompact/internal/testshared"
)

var update = flag.Bool("u", false, "update testscript files in place (cmp's second argument)")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"memcompact": func() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the CLI tests in testdata/script (testshared.ScriptParams
// says how they run and which commands they may use besides testscript's).
func TestScripts(t *testing.T) {
	testscript.Run(t, testshared.ScriptParams("testdata/script", *update))
}
