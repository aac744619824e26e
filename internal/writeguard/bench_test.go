package writeguard

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/memcompact/memcompact/internal/hookjson"
)

// BenchmarkJudge measures the pre-write guard on an Edit that adds one
// hooked pointer to indexes of growing size (every check runs: secrets,
// budgets, load cut, R1, R2, dropped pointers). The hook runs on every
// memory write, so it must stay well under a human-noticeable delay.
func BenchmarkJudge(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprintf("pointers=%d", n), func(b *testing.B) {
			dir := filepath.Join(b.TempDir(), "cfg", "projects", "-p", "memory")
			writeFiles(b, dir, map[string]string{"MEMORY.md": "# Memory\n\n## Feedback\n" + pointers(1, n)})
			in := hookjson.ToolInput{
				FilePath:  filepath.Join(dir, "MEMORY.md"),
				OldString: str("## Feedback\n"),
				NewString: str("## Feedback\n" + pointers(n+1, 1)),
			}
			call := &Call{Tool: "Edit", Input: &in, Cwd: dir, Getenv: func(string) string { return "" }, Home: "/nonexistent-home"}
			b.ResetTimer()
			for b.Loop() {
				Judge(call)
			}
		})
	}
}
