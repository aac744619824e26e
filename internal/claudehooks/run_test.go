package claudehooks

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/outcome"
)

// TestRun: the request's checks in their order, the settings file each
// choice edits, and a settings file that is not JSON refused by reason.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "cfg")
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	plugin := filepath.Join(dir, "plugin.json")
	if err := os.WriteFile(plugin, []byte(`{"enabledPlugins": {"other@x": true, "memcompact@local": true}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"CLAUDE_CONFIG_DIR": cfg}
	getenv := func(k string) string { return env[k] }
	tests := []struct {
		name     string
		req      Request
		status   outcome.Status
		reason   outcome.Reason
		settings string // the file a clean run edits
		added    int
	}{
		{name: "no action", req: Request{Bin: "memcompact"}, status: outcome.Usage, reason: ReasonNoAction},
		{name: "unknown action", req: Request{Action: "sideways", Bin: "memcompact"}, status: outcome.Usage, reason: ReasonNoAction},
		{name: "two places", req: Request{Action: ActionInstall, User: true, Project: true, Bin: "memcompact"}, status: outcome.Usage, reason: ReasonConflict},
		{name: "project and settings", req: Request{Action: ActionUninstall, Project: true, Settings: "s.json", Bin: "memcompact"}, status: outcome.Usage, reason: ReasonConflict},
		{name: "a bin not on PATH", req: Request{Action: ActionInstall, Bin: "no-such-memcompact-here"}, status: outcome.Refused, reason: ReasonNoExecutable},
		{name: "a command that does not run", req: Request{Action: ActionInstall, Bin: "/opt/memcompact", Settings: filepath.Join(dir, "never.json"), DryRun: failing}, status: outcome.Refused, reason: ReasonNotRunnable},
		{name: "uninstall needs no bin", req: Request{Action: ActionUninstall, Settings: filepath.Join(dir, "none.json")}, settings: filepath.Join(dir, "none.json")},
		{name: "the plugin is enabled", req: Request{Action: ActionInstall, Bin: "/opt/memcompact", Settings: plugin}, status: outcome.Refused, reason: ReasonPluginEnabled},
		{name: "not JSON", req: Request{Action: ActionInstall, Bin: "/opt/memcompact", Settings: bad}, status: outcome.Refused, reason: ReasonInvalidSettings},
		{name: "user", req: Request{Action: ActionInstall, Bin: "/opt/memcompact"}, settings: filepath.Join(cfg, "settings.json"), added: len(Ours)},
		{name: "user again", req: Request{Action: ActionInstall, User: true, Bin: "/opt/memcompact"}, settings: filepath.Join(cfg, "settings.json")},
		{name: "no config dir", req: Request{Action: ActionInstall, Bin: "memcompact", Getenv: func(string) string { return "" }}, status: outcome.Usage, reason: ReasonNoConfigDir},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := tt.req
			if req.Getenv == nil {
				req.Getenv = getenv
			}
			if req.DryRun == nil {
				req.DryRun = runs
			}
			res, err := Run(context.Background(), req)
			if outcome.StatusOf(err) != tt.status || outcome.ReasonOf(err) != tt.reason {
				t.Fatalf("err %v (%s); want %s %q", err, outcome.ReasonOf(err), tt.status, tt.reason)
			}
			if err != nil {
				if res != nil {
					t.Errorf("a result with an error: %+v", res)
				}
				return
			}
			if res.Settings != tt.settings || len(res.Added) != tt.added || res.Action != req.Action {
				t.Errorf("got %+v; want settings %s, %d added, action %s", res, tt.settings, tt.added, req.Action)
			}
		})
	}
	if b, err := os.ReadFile(bad); err != nil || string(b) != "{not json" {
		t.Errorf("the refused file changed: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "never.json")); err == nil {
		t.Error("a refused install wrote the settings file")
	}
}

// runs and failing stand in for a dry run of a hook command.
func runs(context.Context, Hook, string) (string, error) { return "1.2.3", nil }
func failing(_ context.Context, _ Hook, cmd string) (string, error) {
	return "", errors.New(cmd + ": exit status 127")
}

// TestDryRun runs real commands through the shell: memcompact's answer is
// read for its version; a missing executable, a failing one and one that
// answers as something else are errors naming the command.
func TestDryRun(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	v, err := DryRun(context.Background(), Ours[0], `echo "memcompact hook session-start: dry run: memcompact 9.9 runs this hook" >&2`)
	if err != nil || v != "9.9" {
		t.Fatalf("DryRun = %q, %v", v, err)
	}
	for _, cmd := range []string{Ours[0].Command("/no/such dir/memcompact"), "exit 1", "echo hi"} {
		if _, err := DryRun(context.Background(), Ours[0], cmd); err == nil || !strings.Contains(err.Error(), cmd) {
			t.Errorf("DryRun(%q) = %v", cmd, err)
		}
	}
}

// TestInspect: the hooks installed in the settings files, each tried, the
// ones missing, and the plugin enabled beside them.
func TestInspect(t *testing.T) {
	dir := t.TempDir()
	user, project := filepath.Join(dir, "user.json"), filepath.Join(dir, "project.json")
	if _, err := Install(user, "/opt/memcompact"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(project, []byte(`{"enabledPlugins": {"memcompact@market": true}, "hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "memcompact-audit hook pre-write"}]}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	dry := func(_ context.Context, h Hook, cmd string) (string, error) {
		if h.Sub == "post-read" {
			return "", errors.New(cmd + ": exit status 127")
		}
		return "1.2.3", nil
	}
	in := Inspect(context.Background(), []string{user, project, filepath.Join(dir, "none.json")}, dry)
	if len(in.Hooks) != len(Ours) || len(in.Missing) != 0 || in.Plugin != "memcompact@market" || in.PluginSettings != project {
		t.Fatalf("Inspect = %+v", in)
	}
	for _, h := range in.Hooks {
		if want := h.Hook != Ours[2].Label(); h.Runs != want || (h.Error != "") == want || h.Settings != user {
			t.Errorf("%+v", h)
		}
	}
	in = Inspect(context.Background(), []string{project}, dry)
	if len(in.Hooks) != 0 || len(in.Missing) != len(Ours) {
		t.Fatalf("Inspect of look-alikes only = %+v", in)
	}
}
