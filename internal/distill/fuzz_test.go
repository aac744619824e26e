package distill

import (
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/facts"
)

// FuzzBuiltin: whatever the tier, the built-in summary holds every fact of
// it (the guarantee the compaction's verify step relies on), with or
// without an earlier block to merge into, and never panics.
func FuzzBuiltin(f *testing.F) {
	f.Add("2026-04-08 14:30 — Port fix", "## 2026-04-08 14:30 — Port fix\n### Context\n- Port 3000 was busy.\n- `docker rm web` fixed it.\n", "- 2026-01-03: Prefers tabs.\n- Only chatter or filler on 2026-01-04.\n")
	f.Add("", "- 2026-01-03: Prefers tabs.\n- 2026-01-04: ok\n- **2026-01-05**: Corrected me: prefers tabs.\n", "")
	f.Add("2026-08-01", "## 2026-08-01\n- Good day.\n- Released v0.1.0.\n", "- 2026-01-06, 2026-01-18 — CI: flaked 1 in 20 runs.\n")
	f.Fuzz(func(t *testing.T, title, text, kept string) {
		srcs := []Source{{Title: title, Text: text}}
		if kept != "" {
			srcs = append([]Source{{Text: kept, Kept: true}}, srcs...)
		}
		got := strings.Join(Builtin(srcs), "\n")
		if m := facts.Missing(facts.Extract(TierText(srcs)), got); len(m) > 0 {
			t.Errorf("lost %v\nin: %q\nout: %q", m, TierText(srcs), got)
		}
	})
}
