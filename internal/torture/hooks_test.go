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
