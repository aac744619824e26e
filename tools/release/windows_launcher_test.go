package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// These tests read the Windows launcher's text (bin/memcompact.cmd and
// bin/memcompact.ps1) and try the logic it shares with tools/release and the
// sh launcher; wine_test.go runs the .cmd under Wine's cmd.exe, and nothing
// here runs the .ps1 (no PowerShell on this machine).

// readRepo returns the repository file rel.
func readRepo(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestWindowsLauncherText: the .cmd is what cmd.exe reads correctly (CRLF
// only, ASCII, no git conversion) and keeps the sh launcher's behaviour:
// its fast path runs the data folder's executable, its first run goes to
// memcompact.ps1 beside it, a failure answered as a hook exits 0, and
// without PowerShell the pre-write hook denies.
func TestWindowsLauncherText(t *testing.T) {
	cmd := readRepo(t, "bin/memcompact.cmd")
	if strings.Count(cmd, "\n") != strings.Count(cmd, "\r\n") || !strings.HasSuffix(cmd, "\r\n") {
		t.Errorf("bin/memcompact.cmd has line endings other than CRLF: cmd.exe misreads labels and blocks in such a file")
	}
	for i, r := range cmd {
		if r > 0x7e || (r < 0x20 && r != '\r' && r != '\n' && r != '\t') {
			t.Errorf("bin/memcompact.cmd: byte %d is %q, not plain ASCII (cmd.exe reads it in the console's code page)", i, r)
			break
		}
	}
	if attrs := readRepo(t, ".gitattributes"); !regexp.MustCompile(`(?m)^bin/memcompact\.cmd\s+-text\s*$`).MatchString(attrs) {
		t.Errorf(".gitattributes does not keep bin/memcompact.cmd from line-ending conversion")
	}
	for _, want := range []string{
		`"%exe%" %*`,                              // the fast path runs it with the hook's or server's arguments
		`\memcompact.exe"`,                        // the windows executable's name in the archive
		`set "data=%CLAUDE_PLUGIN_DATA%"`,         // Claude Code's data folder first
		`%LOCALAPPDATA%\memcompact\plugin`,        // then the user's
		`-File "%~dp0memcompact.ps1" %*`,          // the first run
		`if "%rc%"=="3" exit /b 0`,                // a failure answered as a hook
		`"permissionDecision":"deny"`,             // the guard never silently off
		`-ExecutionPolicy Bypass`,                 // a restricted policy cannot stop the first run
		`for /f "usebackq tokens=1,2 delims=:, "`, // the manifest's version, read as cmdVersion does
	} {
		if !strings.Contains(cmd, want) {
			t.Errorf("bin/memcompact.cmd lacks %s", want)
		}
	}
	ps := readRepo(t, "bin/memcompact.ps1")
	if bytes.ContainsFunc([]byte(ps), func(r rune) bool { return r > 0x7e }) {
		t.Errorf("bin/memcompact.ps1 is not plain ASCII: Windows PowerShell 5.1 reads a file without a BOM in the ANSI code page")
	}
	for _, want := range []string{
		"Get-FileHash -Algorithm SHA256",          // the archive is checked
		"does not match its checksum",             // and refused by name
		"Expand-Archive",                          // only then unpacked
		"could not download",                      // no network
		"Go is not installed",                     // and no Go
		"cannot be written",                       // a read-only data folder
		"installed only in part",                  // a half-installed plugin
		"go build -trimpath",                      // the Go fallback
		"permissionDecision = 'deny'",             // the guard never silently off
		"$leaf -ieq 'MEMORY.md'",                  // memory files judged without regard to case, as Windows names them
		"'/projects/[^/]+/memory/'",               // entry files too
		"$env:MEMCOMPACT_RELEASE_URL",             // the release can be served elsewhere, as for the sh launcher
		"Move-Item -LiteralPath (Join-Path $work", // installed by one rename
	} {
		if !strings.Contains(ps, want) {
			t.Errorf("bin/memcompact.ps1 lacks %s", want)
		}
	}
	// Standard input belongs to the executable (the hook payload, the MCP
	// messages): the script reads it only where it answers as pre-write.
	if n := strings.Count(ps, "[Console]::In"); n != 1 {
		t.Errorf("bin/memcompact.ps1 reads standard input in %d places, want only the failed pre-write's", n)
	}
}

// cmdVersion reads the manifest as the .cmd's "for /f" loop does: each
// line split at ':', ',' and ' ' (runs of them one break, leading ones
// skipped), the first line whose first token, its quotes removed, is
// "version" gives its second token, quotes removed.
func cmdVersion(manifest string) string {
	for _, line := range strings.Split(strings.ReplaceAll(manifest, "\r\n", "\n"), "\n") {
		f := strings.FieldsFunc(line, func(r rune) bool { return r == ':' || r == ',' || r == ' ' })
		if len(f) >= 2 && unquote(f[0]) == "version" {
			return unquote(f[1])
		}
	}
	return ""
}

// unquote is a for variable's ~ modifier: one pair of surrounding quotes
// removed.
func unquote(s string) string {
	if strings.HasPrefix(s, `"`) {
		s = s[1:]
		s = strings.TrimSuffix(s, `"`)
	}
	return s
}

// TestWindowsLauncherReadsTheRelease: the names the Windows launcher asks
// for are the ones tools/release writes for windows/amd64 and
// windows/arm64, the version it reads from the manifest with cmd.exe's
// tokenizer is the manifest's, and its checksums pattern picks the right
// line out of the checksums file tools/release writes.
func TestWindowsLauncherReadsTheRelease(t *testing.T) {
	manifest := readRepo(t, ".claude-plugin/plugin.json")
	version, err := pluginVersion(filepath.Join("..", "..", ".claude-plugin", "plugin.json"))
	if err != nil {
		t.Fatal(err)
	}
	if got := cmdVersion(manifest); got != version {
		t.Errorf("bin/memcompact.cmd would read version %q from plugin.json, whose version is %q (keep it on its own line, indented with spaces)", got, version)
	}
	ps := readRepo(t, "bin/memcompact.ps1")
	archiveTmpl := regexp.MustCompile(`\$archive = "([^"]+)"`).FindStringSubmatch(ps)
	sumsTmpl := regexp.MustCompile(`\$sums = "([^"]+)"`).FindStringSubmatch(ps)
	linePat := regexp.MustCompile(`\$line -match '([^']+)'`).FindStringSubmatch(ps)
	if archiveTmpl == nil || sumsTmpl == nil || linePat == nil {
		t.Fatalf("bin/memcompact.ps1: cannot find its archive name, checksums name or checksums pattern")
	}
	if got := strings.ReplaceAll(sumsTmpl[1], "${version}", version); got != checksumsName(version) {
		t.Errorf("the Windows launcher asks for %s; tools/release writes %s", got, checksumsName(version))
	}
	re, err := regexp.Compile(linePat[1])
	if err != nil {
		t.Fatalf("the checksums pattern %q: %v", linePat[1], err)
	}
	var lines []string
	sums := map[string]string{}
	for _, goarch := range []string{"amd64", "arm64"} {
		for _, goos := range []string{"linux", "darwin", "windows"} {
			name := archiveName(version, goos, goarch)
			h := sha256.Sum256([]byte(name))
			sums[name] = hex.EncodeToString(h[:])
			lines = append(lines, checksumLine(sums[name], name))
		}
	}
	for _, arch := range []string{"amd64", "arm64"} {
		asked := strings.NewReplacer("${version}", version, "${arch}", arch).Replace(archiveTmpl[1])
		if want := archiveName(version, "windows", arch); asked != want {
			t.Errorf("the Windows launcher asks for %s on %s; tools/release writes %s", asked, arch, want)
		}
		var got string
		for _, l := range lines {
			if m := re.FindStringSubmatch(l); m != nil && m[2] == asked {
				got = strings.ToLower(m[1])
				break
			}
		}
		if got != sums[asked] {
			t.Errorf("the checksums pattern gives %q for %s, want %q", got, asked, sums[asked])
		}
	}
	// The machine names it maps are the release's.
	for _, pair := range [][2]string{{"'AMD64' { return 'amd64' }", "windows/amd64"}, {"'ARM64' { return 'arm64' }", "windows/arm64"}} {
		if !strings.Contains(ps, pair[0]) || !containsPlatform(pair[1]) {
			t.Errorf("the Windows launcher's %s and tools/release's platforms disagree", pair[1])
		}
	}
}

func containsPlatform(p string) bool {
	for _, q := range platforms {
		if q == p {
			return true
		}
	}
	return false
}
