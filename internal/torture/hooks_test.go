package torture

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHooksInstallRacingWriters runs memcompact hooks install while another
// program writes settings.json, both the atomic way (write a temporary
// file, rename it over) and in place (truncate and write, as a shell's ">"
// does). The other program's key must survive every trial, the file must
// stay valid JSON, and the backup is never empty.
func TestHooksInstallRacingWriters(t *testing.T) {
	trials := count(40, 300)
	for _, kind := range []string{"atomic", "in-place"} {
		t.Run(kind, func(t *testing.T) {
			t0 := time.Now()
			lost, invalid, installed, refused, emptyBackup := 0, 0, 0, 0, 0
			for i := 0; i < trials; i++ {
				dir := t.TempDir()
				settings := filepath.Join(dir, "settings.json")
				write(t, settings, `{"model": "opus", "permissions": {"allow": ["Bash(ls)"]}}`+"\n")
				theirs := fmt.Sprintf(`{"model": "opus", "permissions": {"allow": ["Bash(ls)"]}, "key%d": true}`, i)
				// The writer waits a spread delay so its write lands at every
				// point of the install.
				delay := fmt.Sprintf("0.%03d", (i*7)%40)
				var script string
				if kind == "atomic" {
					script = fmt.Sprintf("sleep %s; printf '%%s\\n' '%s' > settings.json.tmp && mv settings.json.tmp settings.json", delay, theirs)
				} else {
					script = fmt.Sprintf("sleep %s; printf '%%s\\n' '%s' > settings.json", delay, theirs)
				}
				other := exec.Command("sh", "-c", script)
				other.Dir = dir
				if err := other.Start(); err != nil {
					t.Fatal(err)
				}
				r := mc(t, dir, "", nil, "hooks", "install", "--settings", settings)
				if err := other.Wait(); err != nil {
					t.Fatal(err)
				}
				switch r.code {
				case 0:
					installed++
				case 2:
					refused++
				default:
					t.Errorf("trial %d: hooks install exit %d: %s", i, r.code, r.stderr)
				}
				raw, _ := os.ReadFile(settings)
				var doc map[string]any
				if json.Unmarshal(raw, &doc) != nil {
					invalid++
					t.Errorf("trial %d: settings.json is not valid JSON: %q", i, raw)
					continue
				}
				if doc[fmt.Sprintf("key%d", i)] != true || doc["model"] != "opus" {
					lost++
					t.Errorf("trial %d: the other writer's keys were lost: %s", i, raw)
				}
				if b, err := os.ReadFile(settings + ".memcompact-backup"); err == nil && strings.TrimSpace(string(b)) == "" {
					emptyBackup++
				}
			}
			t.Logf("FIGURE hooks install vs %s writer: %d trials in %s: %d installed, %d refused, %d lost keys, %d invalid files, %d empty backups",
				kind, trials, since(t0), installed, refused, lost, invalid, emptyBackup)
			if emptyBackup > 0 {
				t.Errorf("%d empty backups", emptyBackup)
			}
		})
	}
}

// TestHooksInstallTruncateThenWrite runs memcompact hooks install while
// another program truncates settings.json and writes it again a moment
// later through the same open file (in place, as a program holding the
// file open does). An install that read the file between the two would
// plan against an empty file and write only its hooks: every other key
// lost. Every trial must keep the user's keys (or refuse), and the backup
// is never empty.
func TestHooksInstallTruncateThenWrite(t *testing.T) {
	trials := count(30, 200)
	t0 := time.Now()
	lost, installed, refused := 0, 0, 0
	const theirs = `{"model": "opus", "env": {"A": "1"}, "permissions": {"allow": ["Bash(ls)"]}}`
	for i := 0; i < trials; i++ {
		dir := t.TempDir()
		settings := filepath.Join(dir, "settings.json")
		write(t, settings, theirs+"\n")
		// Truncate at a spread moment, write again 20 to 100 ms later
		// through the same descriptor.
		script := fmt.Sprintf("sleep 0.%03d; exec 3>settings.json; sleep 0.%03d; printf '%%s\\n' '%s' >&3", (i*7)%40, 20+(i*13)%80, theirs)
		other := exec.Command("sh", "-c", script)
		other.Dir = dir
		if err := other.Start(); err != nil {
			t.Fatal(err)
		}
		r := mc(t, dir, "", nil, "hooks", "install", "--settings", settings)
		if err := other.Wait(); err != nil {
			t.Fatal(err)
		}
		switch r.code {
		case 0:
			installed++
		case 2:
			refused++
		default:
			t.Errorf("trial %d: hooks install exit %d: %s", i, r.code, r.stderr)
		}
		raw, _ := os.ReadFile(settings)
		var doc map[string]any
		if err := json.Unmarshal(raw, &doc); err != nil || doc["model"] != "opus" || doc["env"] == nil || doc["permissions"] == nil {
			lost++
			t.Errorf("trial %d: the user's keys were lost (exit %d): %q", i, r.code, raw)
		}
		if b, err := os.ReadFile(settings + ".memcompact-backup"); err == nil && strings.TrimSpace(string(b)) == "" {
			t.Errorf("trial %d: an empty backup", i)
		}
	}
	t.Logf("FIGURE hooks install vs a truncate-then-write writer: %d trials in %s: %d installed, %d refused, %d lost keys",
		trials, since(t0), installed, refused, lost)
}
