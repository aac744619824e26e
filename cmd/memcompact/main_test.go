package main

import (
	"context"
	"errors"
	"flag"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/memcompact/memcompact/internal/cli"
	"github.com/memcompact/memcompact/internal/companion"
	_ "github.com/memcompact/memcompact/internal/fullbuild" // the scripts' memcompact links everything; TestLeanScripts runs them on the lean build
	"github.com/memcompact/memcompact/internal/testshared"
)

var update = flag.Bool("u", false, "update testscript files in place (cmp's second argument)")

// leanEnv names the memcompact executable TestLeanScripts built (with
// memcompact-full beside it).
const leanEnv = "MEMCOMPACT_TEST_LEAN_BIN"

// In the scripts, memcompact is this test executable with everything
// linked (package fullbuild), or, when $MEMCOMPACT_TEST_LEAN_BIN names
// one, the memcompact executable built from this package, handing what it
// does not link to the memcompact-full beside it (TestLeanScripts).
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"memcompact": func() {
			if lean := os.Getenv(leanEnv); lean != "" {
				testshared.RunInstead(lean, companion.Main)
			}
			os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
		},
	})
}

// TestLeanScripts runs every script again with memcompact the lean
// executable a user installs and memcompact-full beside it: the two must
// print, write and exit as the all-linked one does, handing over included
// (mcp, an API summarizer, an index holding a comment).
func TestLeanScripts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds memcompact and memcompact-full with the go command")
	}
	lean := testshared.Install(t, t.TempDir(), "memcompact", "memcompact-full")
	testscript.Run(t, testshared.WithSetenv(testshared.ScriptParams("testdata/script", false), leanEnv, lean))
}

// TestWithoutFull runs testdata/alone's scripts with memcompact installed
// alone (no memcompact-full beside it, and PATH holding only the scripts'
// own commands).
func TestWithoutFull(t *testing.T) {
	if testing.Short() {
		t.Skip("builds memcompact with the go command")
	}
	lean := testshared.Install(t, t.TempDir(), "memcompact")
	p := testshared.WithSetenv(testshared.ScriptParams("testdata/alone", *update), leanEnv, lean)
	setup := p.Setup
	p.Setup = func(e *testscript.Env) error {
		bin, _, _ := strings.Cut(e.Getenv("PATH"), string(os.PathListSeparator))
		e.Setenv("PATH", bin)
		return setup(e)
	}
	testscript.Run(t, p)
}

// TestLean: memcompact links none of what memcompact-full links for it
// (package companion): the SDKs, the MCP server, goldmark, the network.
// crypto/rand is linked: the journal's zstd encoder imports it (for a
// padding option it never uses), and its initialisation costs nothing
// measurable (GODEBUG=inittrace=1: 0 ms; zstd's own packages 0.2 ms).
func TestLean(t *testing.T) {
	if testing.Short() {
		t.Skip("lists the build's packages with the go command")
	}
	testshared.Unlinked(t, ".", "github.com/anthropics/", "github.com/openai/", "github.com/modelcontextprotocol/",
		"github.com/yuin/goldmark/", "github.com/memcompact/memcompact/internal/mcpserver",
		"github.com/memcompact/memcompact/internal/fullbuild", "github.com/memcompact/memcompact/internal/summarize/sdk",
		"net", "net/http", "crypto/tls", "encoding/gob", "gopkg.in/yaml.v3", "debug/buildinfo")
}

// TestScripts runs the CLI tests in testdata/script (testshared.ScriptParams
// says how they run and which commands they may use besides testscript's).
func TestScripts(t *testing.T) {
	testscript.Run(t, testshared.ScriptParams("testdata/script", *update))
}

// TestHandedBack: a memcompact-full that is really memcompact (a copy
// under that name) is not handed the command round and round: the copy
// refuses at once, saying so.
func TestHandedBack(t *testing.T) {
	if testing.Short() {
		t.Skip("builds memcompact with the go command")
	}
	dir := t.TempDir()
	lean := testshared.Install(t, dir, "memcompact")
	data, err := os.ReadFile(lean)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(testshared.Exe(dir, "memcompact-full"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, lean, "mcp")
	cmd.Stdin = strings.NewReader("")
	out, err := cmd.CombinedOutput()
	if ee, ok := errors.AsType[*exec.ExitError](err); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "handed this command back, so it is not memcompact-full") {
		t.Fatalf("memcompact mcp with a copy of memcompact as memcompact-full: %v\n%s", err, out)
	}
}
