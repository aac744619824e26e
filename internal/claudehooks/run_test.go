package claudehooks

import (
	"context"
	"os"
	"path/filepath"
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
		{name: "empty bin", req: Request{Action: ActionUninstall, Bin: " "}, status: outcome.Usage, reason: ReasonEmptyBin},
		{name: "foreign bin", req: Request{Action: ActionInstall, Bin: "/usr/bin/true"}, status: outcome.Usage, reason: ReasonForeignBin},
		{name: "foreign bin uninstalls", req: Request{Action: ActionUninstall, Bin: "/usr/bin/true", Settings: filepath.Join(dir, "none.json")}, settings: filepath.Join(dir, "none.json")},
		{name: "not JSON", req: Request{Action: ActionInstall, Bin: "memcompact", Settings: bad}, status: outcome.Refused, reason: ReasonInvalidSettings},
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
}
