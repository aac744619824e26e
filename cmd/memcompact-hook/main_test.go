package main

import (
	"context"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/memcompact/memcompact/internal/cli"
	"github.com/memcompact/memcompact/internal/companion"
	_ "github.com/memcompact/memcompact/internal/fullbuild" // the scripts' memcompact and memcompact-full link everything
	"github.com/memcompact/memcompact/internal/mdblocks"
	"github.com/memcompact/memcompact/internal/testshared"
)

var update = flag.Bool("u", false, "update testscript files in place (cmp's second argument)")

// leanEnv names the memcompact-hook executable TestHookScripts built.
const leanEnv = "MEMCOMPACT_TEST_HOOK_BIN"

// In the scripts, memcompact-hook is this executable, and memcompact is
// memcompact whose hook runs are served by the memcompact-hook executable
// built from this package when $MEMCOMPACT_TEST_HOOK_BIN names it, so
// memcompact's own hook scripts run against the real thing, linked
// without the rest of memcompact (TestHookScripts).
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"memcompact-hook": main,
		"memcompact-full": func() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		"memcompact": func() {
			if lean := os.Getenv(leanEnv); lean != "" && isHookRun(os.Args[1:]) {
				testshared.RunInstead(lean, companion.Hook)
			}
			os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
		},
	})
}

// TestHookScripts runs every hook script of memcompact (its
// testdata/script/hook-*.txtar) with the hook runs served by a built
// memcompact-hook: the two executables must print, write and exit alike.
func TestHookScripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "memcompact", "testdata", "script", "hook-*.txtar"))
	if err != nil || len(files) < 4 {
		t.Fatalf("memcompact's hook scripts: %v (%d found)", err, len(files))
	}
	lean := buildLean(t, t.TempDir(), "memcompact-hook")
	p := testshared.ScriptParams("", false)
	p.Files = files
	testscript.Run(t, testshared.WithSetenv(p, leanEnv, lean))
}

// TestScripts runs this executable's own scripts in testdata/script.
func TestScripts(t *testing.T) {
	testscript.Run(t, testshared.ScriptParams("testdata/script", *update))
}

// TestLean: memcompact-hook links none of what makes memcompact slow to
// start (the model SDKs, the MCP server, goldmark's tables, yaml.v3) and not
// memcompact's face: its reason to exist.
func TestLean(t *testing.T) {
	if testing.Short() {
		t.Skip("lists the build's packages with the go command")
	}
	testshared.Unlinked(t, ".", "github.com/anthropics/", "github.com/openai/", "github.com/modelcontextprotocol/",
		"github.com/memcompact/memcompact/internal/cli", "github.com/memcompact/memcompact/internal/mcpserver",
		"github.com/memcompact/memcompact/internal/summarize", "encoding/gob", "net", "net/http",
		"github.com/yuin/goldmark/", // asked of memcompact-full, for the few indexes holding a comment (mdblocks)
		"gopkg.in/yaml.v3",          // asked of memcompact-full, for the few frontmatters beyond entryfile's own YAML
		"debug/buildinfo", "crypto/rand")
}

// TestParserUnavailable: without a memcompact-full or memcompact beside it
// or on PATH, the finder's error is companion.ErrUnavailable, which the
// hooks report as an install to mend (allowing), not as a bug.
func TestParserUnavailable(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := mdblocks.Companion(companion.Full, companion.Main)([]byte("<!-- x -->\n"))
	if !errors.Is(err, companion.ErrUnavailable) || !strings.Contains(err.Error(), "no memcompact-full executable") || !strings.Contains(err.Error(), "no memcompact executable") {
		t.Fatalf("the companion finder without memcompact-full or memcompact: %v", err)
	}
}

// buildLean builds this package as dir/name (name.exe on Windows).
func buildLean(t *testing.T, dir, name string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if runtime.GOOS == "windows" {
		path += ".exe"
	}
	if out, err := exec.Command("go", "build", "-o", path, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return path
}

// TestHandedToItself: when the "memcompact" beside memcompact-hook is a
// copy of memcompact-hook, a command handed to it is refused at once
// rather than handed on forever.
func TestHandedToItself(t *testing.T) {
	dir := t.TempDir()
	lean := buildLean(t, dir, "memcompact-hook")
	buildLean(t, dir, "memcompact")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, lean, "version")
	cmd.Env = append(os.Environ(), "PATH="+dir)
	out, err := cmd.CombinedOutput()
	ee, ok := errors.AsType[*exec.ExitError](err)
	if !ok || ee.ExitCode() != 3 || !strings.Contains(string(out), "is memcompact-hook itself") {
		t.Fatalf("memcompact-hook version with itself as memcompact: %v\n%s", err, out)
	}
}
