package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The Windows launcher run by a real cmd.exe interpreter: Wine's, on this
// machine. Set MEMCOMPACT_WINE to Wine's 64-bit loader (Debian's wine64
// package installs /usr/lib/wine/wine64; .ci/run installs it and sets this)
// or have wine64 on PATH; without it the test is skipped.
//
// What runs in the data folder is a stand-in for memcompact.exe that prints
// its arguments and standard input and exits with $STANDIN_EXIT: the test is
// of the launcher, and a Go 1.26 executable does not start under Wine 8
// (its runtime needs bcryptprimitives.dll, which Wine 8 lacks; Go 1.20 is
// the last release that starts there). The stand-in is built with that
// toolchain, which the go command fetches from the module proxy.
//
// Not tried here: memcompact.ps1 (Wine has no PowerShell) and the real
// executable.

const wineStandin = `package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
)

func main() {
	in, _ := io.ReadAll(os.Stdin)
	fmt.Printf("args=%q stdin=%q\n", os.Args[1:], in)
	code, _ := strconv.Atoi(os.Getenv("STANDIN_EXIT"))
	os.Exit(code)
}
`

// wineLoader is Wine's loader, or "" when there is none.
func wineLoader() string {
	if w := os.Getenv("MEMCOMPACT_WINE"); w != "" {
		return w
	}
	for _, name := range []string{"wine64", "wine"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// buildStandin builds the stand-in executable at exe, or skips the test.
func buildStandin(t *testing.T, exe string) {
	t.Helper()
	src := t.TempDir()
	os.WriteFile(filepath.Join(src, "go.mod"), []byte("module standin\n\ngo 1.20\n"), 0o644)
	os.WriteFile(filepath.Join(src, "main.go"), []byte(wineStandin), 0o644)
	cmd := exec.Command("go", "build", "-o", exe, ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0", "GOTOOLCHAIN=go1.20.14", "GOFLAGS=", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("cannot build the stand-in executable with Go 1.20.14 (no module proxy?): %v\n%s", err, out)
	}
}

// winePath is the Windows name Wine gives the Linux path p (drive Z: is /).
func winePath(p string) string { return `Z:` + strings.ReplaceAll(p, "/", `\`) }

// wineRun runs the launcher at cmdFile (none: args are cmd.exe's) through
// Wine's cmd.exe with env added to the environment, and returns its
// standard output, error and exit status.
func wineRun(t *testing.T, wine, prefix, cmdFile, stdin string, env []string, args ...string) (string, string, int) {
	t.Helper()
	cmdArgs := []string{"cmd", "/c"}
	if cmdFile != "" {
		cmdArgs = append(cmdArgs, winePath(cmdFile))
	}
	c := exec.Command(wine, append(cmdArgs, args...)...)
	c.Env = append(os.Environ(), "WINEPREFIX="+prefix, "WINEDEBUG=-all")
	c.Env = append(c.Env, env...)
	c.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	c.WaitDelay = 5 * time.Second
	err := c.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("wine: %v", err)
	}
	return strings.ReplaceAll(out.String(), "\r\n", "\n"), errb.String(), c.ProcessState.ExitCode()
}

// TestWindowsLauncherUnderWine: bin/memcompact.cmd, run by cmd.exe, reads
// the plugin's version, finds the executable in the data folder Claude Code
// names (Windows or Git Bash form) or under %LOCALAPPDATA%, hands it every
// argument, standard input and its exit status; and with no executable and
// no PowerShell it denies memory writes as the pre-write hook and says why.
func TestWindowsLauncherUnderWine(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: Wine starts slowly")
	}
	wine := wineLoader()
	if wine == "" {
		t.Skip("no Wine (set MEMCOMPACT_WINE to wine64): the Windows launcher was not run")
	}
	root := t.TempDir()
	for _, rel := range []string{"bin/memcompact.cmd", ".claude-plugin/plugin.json"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, rel), []byte(readRepo(t, rel)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	version := cmdVersion(readRepo(t, ".claude-plugin/plugin.json"))
	cmdFile := filepath.Join(root, "bin", "memcompact.cmd")
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = t.TempDir()
	}
	prefix := filepath.Join(cache, "memcompact", "wineprefix") // made once: Wine takes seconds to make one

	data := filepath.Join(root, "data folder")
	buildStandin(t, filepath.Join(data, "v"+version, "memcompact.exe"))
	// Wine sets %LOCALAPPDATA% itself, to a folder in its prefix, as
	// Windows does: the stand-in goes there, for this test only.
	out, _, _ := wineRun(t, wine, prefix, "", "", nil, "echo", "%LOCALAPPDATA%")
	local, ok := strings.CutPrefix(strings.TrimSpace(out), `C:\`)
	if !ok {
		t.Fatalf("Wine's %%LOCALAPPDATA%% is %q, not on drive C:", out)
	}
	localDir := filepath.Join(prefix, "drive_c", filepath.FromSlash(strings.ReplaceAll(local, `\`, "/")), "memcompact", "plugin", "v"+version)
	buildStandin(t, filepath.Join(localDir, "memcompact.exe"))
	t.Cleanup(func() { os.RemoveAll(filepath.Dir(filepath.Dir(localDir))) })

	want := `args=["hook" "pre-write" "two words"] stdin="{\"tool_name\":\"Write\"}\n"`
	for _, tc := range []struct {
		name string
		env  []string
	}{
		{"CLAUDE_PLUGIN_DATA, Windows form", []string{"CLAUDE_PLUGIN_DATA=" + winePath(data)}},
		{"CLAUDE_PLUGIN_DATA, Git Bash form", []string{"CLAUDE_PLUGIN_DATA=/z" + data}},
		{"no CLAUDE_PLUGIN_DATA: LOCALAPPDATA", nil},
	} {
		out, errs, code := wineRun(t, wine, prefix, cmdFile, `{"tool_name":"Write"}`+"\n", append(tc.env, "STANDIN_EXIT=7"), "hook", "pre-write", "two words")
		if strings.TrimSpace(out) != want || code != 7 {
			t.Errorf("%s: exit %d, stdout %q, want %q and exit 7 (stderr %q)", tc.name, code, out, want, errs)
		}
	}

	// Not installed, and no PowerShell to install it: the guard denies.
	empty := winePath(filepath.Join(root, "empty"))
	out, errs, code := wineRun(t, wine, prefix, cmdFile, `{"tool_name":"Write"}`, []string{"CLAUDE_PLUGIN_DATA=" + empty}, "hook", "pre-write")
	if code != 0 || !strings.Contains(out, `"permissionDecision":"deny"`) || !strings.Contains(errs, "neither powershell.exe nor pwsh.exe is on PATH") {
		t.Errorf("pre-write, not installed: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	out, _, code = wineRun(t, wine, prefix, cmdFile, "", []string{"CLAUDE_PLUGIN_DATA=" + empty}, "hook", "session-start")
	if code != 0 || !strings.Contains(out, `"systemMessage":"memcompact is not running`) {
		t.Errorf("session-start, not installed: exit %d, stdout %q", code, out)
	}
	out, errs, code = wineRun(t, wine, prefix, cmdFile, "", []string{"CLAUDE_PLUGIN_DATA=" + empty}, "version")
	if code != 2 || out != "" || !strings.Contains(errs, "fix: install PowerShell") {
		t.Errorf("version, not installed: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
