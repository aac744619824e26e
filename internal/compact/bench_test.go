package compact

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/textfile"
)

// BenchmarkCompact measures the whole protocol short of the disk writes
// (read, split, tiers, secrets scan, distill, rewrite, verify — what
// --dry-run does) on topic diaries of growing size, budgeted at 90% of
// their lines so that distilling the oldest tier is what brings them back.
func BenchmarkCompact(b *testing.B) {
	for _, lines := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("lines=%d", lines), func(b *testing.B) {
			text := benchDiary(lines)
			root := b.TempDir()
			p := filepath.Join(root, "topics", "big.md")
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				b.Fatal(err)
			}
			n := len(textfile.Lines(text))
			o := opts(root, "topics/big.md", n*9/10, 10)
			b.SetBytes(int64(len(text)))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				pl := Prepare(context.Background(), o)
				if pl.Report.Status != StatusCompacted {
					b.Fatalf("%s: %s", pl.Report.Status, pl.Report.Message)
				}
			}
		})
	}
}

// benchDiary is a topic diary of about n lines: dated entries with context,
// details (code spans, paths, numbers), repeated chatter and filler.
func benchDiary(n int) string {
	var b strings.Builder
	b.WriteString("# Bench Topic Diary\n\n## Topic Metadata\n- **Created**: 2026-01-01 09:00\n\n---\n\n")
	lines := 7
	for i := 0; lines < n; i++ {
		day := fmt.Sprintf("2026-%02d-%02d", 1+i/28%12, 1+i%28)
		fmt.Fprintf(&b, "## %s 10:%02d — Entry %d\n\n### Context\n- We were tuning service %d after a slow deploy.\n- The user asked for a faster loop.\n\n", day, i%60, i, i%97)
		fmt.Fprintf(&b, "### Confirmed Details\n- `svc deploy --id %d` took %d s.\n- Config lives in ~/svc/conf-%d.yaml; RETRIES=%d.\n- See https://example.com/runbooks/%d for the runbook.\n\n", i, i%300, i%50, i%7, i%40)
		b.WriteString("### Pitfalls\n- None\n- ok\n\n### Recall Keywords\n- deploy, service\n\n---\n\n")
		lines += 21
	}
	return b.String()
}

// BenchmarkLongLineOldest is compact --dry-run on a diary whose oldest
// tier holds one 20 MB base64 line (issue: a 20 MB line handled in
// seconds): the built-in summarizer distills it.
func BenchmarkLongLineOldest(b *testing.B) {
	raw := make([]byte, 15<<20)
	for i := range raw {
		raw[i] = byte(i*7919 + i>>8)
	}
	var t strings.Builder
	t.WriteString("# Diary\n\n## 2026-04-01 10:00 — Blob\n- ")
	t.WriteString(base64.StdEncoding.EncodeToString(raw))
	t.WriteString("\n\n")
	for i := 0; i < 9; i++ {
		fmt.Fprintf(&t, "## 2026-05-%02d 10:%02d — Entry seed-%d\n- stored `seed-%d`\n- We talked about it for a while.\n- Nothing else came of it.\n\n", i+1, i, i, i)
	}
	root := b.TempDir()
	p := filepath.Join(root, "topics", "t.md")
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(t.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	o := opts(root, "topics/t.md", 40, 3)
	b.SetBytes(int64(t.Len()))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pl := Prepare(context.Background(), o)
		if pl.Report.Status != StatusCompacted {
			b.Fatalf("%s: %s", pl.Report.Status, pl.Report.Message)
		}
	}
}
