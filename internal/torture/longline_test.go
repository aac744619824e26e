package torture

import (
	"crypto/rand"
	"encoding/base64"
	"strings"
	"testing"
	"time"
)

// TestTwentyMegabyteLine gives the verbs that read a memory file one with
// a 20 MB base64 line in its newest entry. Each must finish (the test's
// own timeout is the hang guard; the figures are for BENCHMARKS.md) and
// compact must leave the line alone.
func TestTwentyMegabyteLine(t *testing.T) {
	root, file := newRoot(t, 40, 9)
	raw := make([]byte, 15<<20)
	rand.Read(raw)
	big := read(t, file) + "## 2026-06-01 10:00 — Blob\n- " + base64.StdEncoding.EncodeToString(raw) + "\n"
	write(t, file, big)
	var figures []string
	for _, args := range [][]string{
		{"measure", "topics/t.md"},
		{"budgets"},
		{"compact", "topics/t.md", "--dry-run"},
		{"compact", "topics/t.md", "--yes"},
	} {
		t0 := time.Now()
		r := mc(t, root, "", nil, args...)
		if r.code > 1 {
			t.Errorf("%v: exit %d: %s", args, r.code, r.stderr)
		}
		figures = append(figures, strings.Join(args[:1], " ")+" "+since(t0))
	}
	if got := read(t, file); !strings.Contains(got, big[len(big)-1000:]) {
		t.Error("the 20 MB line did not survive compact")
	}
	t.Logf("FIGURE 20 MB base64 line in the newest entry: %s", strings.Join(figures, ", "))
}
