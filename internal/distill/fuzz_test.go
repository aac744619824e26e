package distill

import (
	"strings"
	"testing"
)

// FuzzBuiltin: whatever the tier, at every level the built-in summary
// keeps every must-keep statement (what the compaction's verify step
// demands) and never panics.
func FuzzBuiltin(f *testing.F) {
	f.Add("2026-04-08 14:30 — Port fix", "## 2026-04-08 14:30 — Port fix\n### Context\n- Port 3000 was busy.\n- `docker rm web` fixed it.\n", "- 2026-01-03: Prefers tabs.\n- 2026-01 — 2 entries: A; B.\n")
	f.Add("", "- 2026-01-03: Prefers tabs.\n- 2026-01-04: ok\n- **2026-01-05**: Never use tabs.\n", "")
	f.Add("2026-08-01", "## 2026-08-01\n- Good day.\n- Decided: released v0.1.0.\n", "- 2026-01-06, 2026-01-18 — CI: always retry once.\n  - nested rule: never skip\n")
	f.Fuzz(func(t *testing.T, title, text, kept string) {
		srcs := []Source{{Title: title, Text: text}}
		if kept != "" {
			srcs = append([]Source{{Text: kept, Kept: true}}, srcs...)
		}
		for lv := 0; lv < Levels; lv++ {
			got := Flat(strings.Join(Distill(srcs, lv), "\n"))
			for _, k := range MustKeep(srcs) {
				if !strings.Contains(got, Flat(k)) {
					t.Fatalf("level %d lost %q\nin: %q\nout: %q", lv, k, TierText(srcs), got)
				}
			}
		}
	})
}
