package facts

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkMissing verifies every fact of a file against the file itself,
// as compaction's verify step does, for files of growing size. It stays
// near-linear: one substring scan per fact made a 4 MB file take minutes.
func BenchmarkMissing(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 50_000} {
		var sb strings.Builder
		for i := range n {
			fmt.Fprintf(&sb, "- 2026-01-%02d: retries at %d attempts for job-%d; config/job-%d.yaml\n", i%28+1, i, i, i)
		}
		text := sb.String()
		fs := Extract(text)
		b.Run(fmt.Sprintf("entries=%d/facts=%d", n, len(fs)), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if m := Missing(fs, text); len(m) != 0 {
					b.Fatalf("%d facts missing from their own text", len(m))
				}
			}
		})
	}
}

// TestMissingLargeText checks the large-text path (a suffix array) against
// the plain scan, on facts present and absent.
func TestMissingLargeText(t *testing.T) {
	var sb strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&sb, "- entry %d: retries at %d attempts, config/job-%d.yaml\n", i, i, i)
	}
	text := sb.String()
	fs := Extract(text)
	if len(fs) < 100 {
		t.Fatalf("only %d facts extracted", len(fs))
	}
	absent := []Fact{{Kind: fs[0].Kind, Text: "config/job-99999.yaml"}, {Kind: fs[0].Kind, Text: "7   attempts"}}
	all := append(append([]Fact{}, fs...), absent...)
	got := Missing(all, text)
	if len(got) != 1 || got[0].Text != "config/job-99999.yaml" {
		t.Errorf("Missing = %v, want only config/job-99999.yaml (\"7   attempts\" normalizes to a present fact)", got)
	}
}
