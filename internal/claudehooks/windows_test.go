package claudehooks

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestWindowsInstall: on Windows the hooks name PowerShell as their shell
// (Claude Code would otherwise pick Git Bash or PowerShell by what it
// finds, and no one quoting runs in both), the command is PowerShell's
// (the call operator, the path in single quotes with a quote doubled),
// install and uninstall still know them as theirs, and the dry run starts
// PowerShell as Claude Code does.
func TestWindowsInstall(t *testing.T) {
	defer func(old string) { hostOS = old }(hostOS)
	hostOS = "windows"
	bin := `C:\Users\Ann O'Neil\go\bin\memcompact.exe`
	h := Ours[1]
	want := `& 'C:\Users\Ann O''Neil\go\bin\memcompact.exe' hook pre-write ` + Marker
	if got := h.Command(bin); got != want {
		t.Errorf("Command on windows = %s, want %s", got, want)
	}
	if !IsOurs(h.Command(bin), h.Sub) || IsOurs(h.Command(bin), "post-read") {
		t.Errorf("IsOurs does not know the Windows command as pre-write's and only pre-write's")
	}
	if got := h.CommandFor("linux", "/home/ann/go/bin/memcompact"); got != "/home/ann/go/bin/memcompact hook pre-write "+Marker {
		t.Errorf("CommandFor linux = %s", got)
	}

	path := filepath.Join(t.TempDir(), "settings.json")
	if _, err := Install(path, bin); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	var doc struct {
		Hooks map[string][]struct {
			Hooks []struct{ Type, Command, Shell string }
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for _, o := range Ours {
		got := doc.Hooks[o.Event]
		if len(got) != 1 || len(got[0].Hooks) != 1 || got[0].Hooks[0].Shell != "powershell" || got[0].Hooks[0].Command != o.Command(bin) {
			t.Errorf("%s on windows: %+v", o.Label(), got)
		}
	}
	if c, err := Install(path, bin); err != nil || len(c.Added) != 0 || len(c.Present) != len(Ours) {
		t.Errorf("a second install: %+v, %v", c, err)
	}
	if c, err := Uninstall(path); err != nil || len(c.Removed) != len(Ours) {
		t.Errorf("uninstall: %+v, %v", c, err)
	}

	noPwsh := func(string) (string, error) { return "", errors.New("not found") }
	pwsh := func(string) (string, error) { return `C:\Program Files\PowerShell\7\pwsh.exe`, nil }
	cmd := h.Command(bin)
	if got := shellArgs("windows", cmd, noPwsh); !reflect.DeepEqual(got, []string{"powershell.exe", "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-Command", cmd}) {
		t.Errorf("the Windows dry run without pwsh starts %q", got)
	}
	if got := shellArgs("windows", cmd, pwsh); len(got) == 0 || got[0] != `C:\Program Files\PowerShell\7\pwsh.exe` {
		t.Errorf("the Windows dry run with pwsh starts %q", got)
	}
	if got := shellArgs("linux", "x", pwsh); got != nil {
		t.Errorf("elsewhere the dry run goes through sh, not %q", got)
	}
}
