package main

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/memcompact/memcompact/internal/cli"
	"github.com/memcompact/memcompact/internal/testshared"
)

var update = flag.Bool("u", false, "update testscript files in place (cmp's second argument)")

// In the scripts, memcompact-hook is this executable, and memcompact is
// memcompact with its hook verb served by this executable's face, so
// memcompact's own hook scripts run against it unchanged (TestHookScripts).
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"memcompact-hook": main,
		"memcompact": func() {
			if args := os.Args[1:]; isHookRun(args) {
				os.Exit(runHook(args[1], os.Stdin, os.Stdout, os.Stderr, os.Getenv, os.LookupEnv))
			}
			os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
		},
	})
}

// TestHookScripts runs every hook script of memcompact (its
// testdata/script/hook-*.txtar) with the hook verb served by
// memcompact-hook: the two faces must print, write and exit alike.
func TestHookScripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "memcompact", "testdata", "script", "hook-*.txtar"))
	if err != nil || len(files) < 4 {
		t.Fatalf("memcompact's hook scripts: %v (%d found)", err, len(files))
	}
	p := testshared.ScriptParams("", false)
	p.Files = files
	testscript.Run(t, p)
}

// TestScripts runs this executable's own scripts in testdata/script.
func TestScripts(t *testing.T) {
	testscript.Run(t, testshared.ScriptParams("testdata/script", *update))
}

// TestLean: memcompact-hook links none of what makes memcompact slow to
// start (the model SDKs, the MCP server) and not memcompact's face: its
// reason to exist.
func TestLean(t *testing.T) {
	if testing.Short() {
		t.Skip("lists the build's packages with the go command")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	for _, banned := range []string{
		"github.com/anthropics/", "github.com/openai/", "github.com/modelcontextprotocol/",
		"github.com/memcompact/memcompact/internal/cli", "github.com/memcompact/memcompact/internal/mcpserver",
		"github.com/memcompact/memcompact/internal/summarize", "encoding/gob", "net/http",
	} {
		if i := slices.IndexFunc(deps, func(d string) bool { return strings.HasPrefix(d, banned) }); i >= 0 {
			t.Errorf("memcompact-hook links %s", deps[i])
		}
	}
}
