package writeguard

import (
	"fmt"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/hookjson"
)

// TestCapacityGuidance: on an index at Claude Code's reminder threshold
// (80% of its read limit), the rewrite the client asks for ("merge or drop
// stale entries") is denied when it drops pointers with no exit recorded,
// and the denial names the path that works: the sweep's plan through MCP
// with the owner, with its first proposals by identity. Below the
// threshold, or when nothing is denied, no guidance is added.
func TestCapacityGuidance(t *testing.T) {
	head := "# Memory\n\n## Feedback\n"
	files := map[string]string{"LEDGER.md": "<!-- memory-ledger-begin -->\n"}
	for i := 1; i <= 170; i++ {
		admitted := "2026-11-20"
		if i%10 == 0 {
			admitted = "2025-01-15" // old entries: the plan's candidates to leave
		}
		files[fmt.Sprintf("feedback_l%d.md", i)] = fmt.Sprintf("---\nname: l%d\ndescription: lesson %d\nnode_type: memory\nadmitted: %s\n---\nLesson %d.\n", i, i, admitted, i)
	}
	long := func(start, n int) string { // pointer lines of about 130 characters
		return strings.ReplaceAll(pointers(start, n), "about retries", "about retries, backoff, jitter and the deadline budget")
	}
	files["MEMORY.md"] = head + long(1, 170) // 173 lines, ~21 KB: past 80% of both limits
	dir := testStore(t, files)
	idx := dir + "/MEMORY.md"

	// The mass rewrite: the last 60 pointers dropped, no exits recorded.
	v := judge(idx, "Write", hookjson.ToolInput{Content: str(head + long(1, 110))})
	if !strings.Contains(codes(v), "dropped-pointer") {
		t.Fatalf("the mass rewrite was not denied for dropped pointers: %s\n%s", codes(v), v.Reason())
	}
	r := v.Reason()
	t.Logf("guidance: %s", v.Guidance)
	for _, want := range []string{"under 17.1KB or 140 lines", "sweep_plan", "sweep_apply with confirm: true", "LEDGER.md"} {
		if !strings.Contains(r, want) {
			t.Errorf("the denial does not say %q:\n%s", want, r)
		}
	}
	if !strings.Contains(r, "first proposals: ") {
		t.Errorf("the denial names no proposal of the plan (skipped: %v):\n%s", v.Skipped, r)
	}

	// An allowed write at the threshold carries no guidance.
	v = judge(idx, "Edit", hookjson.ToolInput{OldString: str("lesson 5 teaches"), NewString: str("lesson five teaches")})
	if v.Deny() || v.Guidance != "" {
		t.Errorf("a reword at the threshold: deny %v, guidance %q", v.Deny(), v.Guidance)
	}

	// A denied write far below the threshold carries none either.
	small := map[string]string{"MEMORY.md": head + pointers(1, 3), "feedback_l2.md": "---\nname: l2\nadmitted: 2026-11-20\n---\nx\n"}
	dir = testStore(t, small)
	v = judge(dir+"/MEMORY.md", "Write", hookjson.ToolInput{Content: str(head + pointers(1, 1))})
	if !v.Deny() || v.Guidance != "" {
		t.Errorf("a small index: deny %v (%s), guidance %q", v.Deny(), codes(v), v.Guidance)
	}
}
