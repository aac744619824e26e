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

// TestTwentyMegabyteLineOldest puts the 20 MB line in the oldest entry,
// so the built-in summarizer distills it: compact must finish and the
// line must stay reachable (in the file or the snapshot its block names).
func TestTwentyMegabyteLineOldest(t *testing.T) {
	root, file := newRoot(t, 40, 9)
	raw := make([]byte, 15<<20)
	rand.Read(raw)
	line := base64.StdEncoding.EncodeToString(raw)
	write(t, file, "# Diary\n\n## 2026-04-01 10:00 — Blob\n- "+line+"\n\n"+strings.TrimPrefix(read(t, file), "# Diary\n\n"))
	var figures []string
	for _, args := range [][]string{
		{"compact", "topics/t.md", "--dry-run"},
		{"compact", "topics/t.md", "--yes"},
	} {
		t0 := time.Now()
		r := mc(t, root, "", nil, args...)
		if r.code != 0 {
			t.Errorf("%v: exit %d: %s%s", args, r.code, r.stdout, r.stderr)
		}
		figures = append(figures, strings.Join(args, " ")+" "+since(t0))
	}
	if !strings.Contains(reachable(t, root, file), line) {
		t.Error("the 20 MB line is neither in the file nor in a snapshot it names")
	}
	t.Logf("FIGURE 20 MB base64 line in the oldest entry: %s", strings.Join(figures, ", "))
}
