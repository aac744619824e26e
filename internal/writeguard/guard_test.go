package writeguard

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/hookjson"
	"github.com/memcompact/memcompact/internal/lockfile"
)

func str(s string) *string { return &s }

func TestApply(t *testing.T) {
	tests := []struct {
		name    string
		tool    string
		current string
		exists  bool
		in      hookjson.ToolInput
		want    string
		stale   int // -1: not stale; else the StaleError's Edit
	}{
		{"write replaces", "Write", "old", true, hookjson.ToolInput{Content: str("new")}, "new", -1},
		{"write creates", "Write", "", false, hookjson.ToolInput{Content: str("new")}, "new", -1},
		{"edit first only", "Edit", "a a a", true, hookjson.ToolInput{OldString: str("a"), NewString: str("b")}, "b a a", -1},
		{"edit all", "Edit", "a a a", true, hookjson.ToolInput{OldString: str("a"), NewString: str("b"), ReplaceAll: true}, "b b b", -1},
		{"edit stale", "Edit", "abc", true, hookjson.ToolInput{OldString: str("x"), NewString: str("y")}, "", 0},
		{"edit creates with empty old", "Edit", "", false, hookjson.ToolInput{OldString: str(""), NewString: str("hi")}, "hi", -1},
		{"edit empty old on non-empty file", "Edit", "x", true, hookjson.ToolInput{OldString: str(""), NewString: str("hi")}, "", 0},
		{"edit CRLF file with LF old_string", "Edit", "a\r\nb\r\n", true, hookjson.ToolInput{OldString: str("a\nb"), NewString: str("c")}, "c\n", -1},
		{"edit curly quotes", "Edit", "say \u201Chi\u201D", true, hookjson.ToolInput{OldString: str(`say "hi"`), NewString: str("x")}, "x", -1},
		{"multiedit in order", "MultiEdit", "one two", true, hookjson.ToolInput{Edits: []hookjson.Edit{{OldString: "one", NewString: "1"}, {OldString: "1 two", NewString: "12"}}}, "12", -1},
		{"multiedit second stale", "MultiEdit", "one two", true, hookjson.ToolInput{Edits: []hookjson.Edit{{OldString: "one", NewString: "1"}, {OldString: "one", NewString: "x"}}}, "", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.in
			got, err := Apply(tt.tool, tt.current, tt.exists, &in)
			var se *StaleError
			if tt.stale >= 0 {
				if !errors.As(err, &se) || se.Edit != tt.stale {
					t.Fatalf("err %v, want stale edit %d", err, tt.stale)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	for _, bad := range []struct {
		tool string
		in   hookjson.ToolInput
	}{{"Write", hookjson.ToolInput{}}, {"Edit", hookjson.ToolInput{OldString: str("a")}}, {"MultiEdit", hookjson.ToolInput{}}, {"Bash", hookjson.ToolInput{}}} {
		if _, err := Apply(bad.tool, "a", true, &bad.in); err == nil {
			t.Errorf("%s %+v: no error", bad.tool, bad.in)
		}
	}
}

// testStore lays out a store under dir/cfg/projects/-p/memory and returns
// the store directory.
func testStore(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "cfg", "projects", "-p", "memory")
	writeFiles(t, dir, files)
	return dir
}

func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func judge(path string, tool string, in hookjson.ToolInput) *Verdict {
	in.FilePath = path
	return Judge(&Call{
		Tool: tool, Input: &in, Cwd: filepath.Dir(path),
		Getenv: func(string) string { return "" }, Home: "/nonexistent-home",
		Today: time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC),
	})
}

func codes(v *Verdict) string {
	var c []string
	for _, p := range v.Problems {
		c = append(c, p.Code)
	}
	return strings.Join(c, ",")
}

// pointers returns n hooked pointer lines, numbered from start.
func pointers(start, n int) string {
	var b strings.Builder
	for i := start; i < start+n; i++ {
		fmt.Fprintf(&b, "- [Lesson number %d](feedback_l%d.md) — what lesson %d teaches about retries\n", i, i, i)
	}
	return b.String()
}

func TestJudgeLoadCut(t *testing.T) {
	head := "# Memory\n\n## Feedback\n"
	full := head + pointers(1, 197) // 200 lines: loads whole
	dir := testStore(t, map[string]string{"MEMORY.md": full})
	idx := filepath.Join(dir, "MEMORY.md")

	// Line 201 would be cut: deny, naming the subject.
	v := judge(idx, "Edit", hookjson.ToolInput{OldString: str("lesson 197 teaches about retries\n"), NewString: str("lesson 197 teaches about retries\n" + pointers(198, 1))})
	if codes(v) != "load-cut" || !strings.Contains(v.Reason(), "line 201 [Lesson number 198](feedback_l198.md)") {
		t.Fatalf("append past line 200: %s\n%s", codes(v), v.Reason())
	}
	// Inserting at the top pushes the last pointer past the cut.
	v = judge(idx, "Edit", hookjson.ToolInput{OldString: str("## Feedback\n"), NewString: str("## Feedback\n" + pointers(500, 1))})
	if codes(v) != "load-cut" || !strings.Contains(v.Reason(), "feedback_l197.md") {
		t.Fatalf("insert at top: %s\n%s", codes(v), v.Reason())
	}
	// Rewording within the limit is fine.
	v = judge(idx, "Edit", hookjson.ToolInput{OldString: str("lesson 5 teaches"), NewString: str("lesson five teaches")})
	if v.Deny() {
		t.Fatalf("reword: %s", v.Reason())
	}

	// An index already cut can still be shrunk, but not grown past the cut.
	over := head + pointers(1, 210)
	dir = testStore(t, map[string]string{"MEMORY.md": over})
	idx = filepath.Join(dir, "MEMORY.md")
	v = judge(idx, "Edit", hookjson.ToolInput{OldString: str(pointers(3, 1)), NewString: str("")})
	if v.Deny() && codes(v) != "dropped-pointer" {
		t.Fatalf("shrinking a cut index: %s", v.Reason())
	}
	v = judge(idx, "Write", hookjson.ToolInput{Content: str(over + pointers(300, 1))})
	if codes(v) != "load-cut" {
		t.Fatalf("growing a cut index: %s", codes(v))
	}

	// The unit limit: one long line per subject, the last crossing 25,000.
	long := strings.Repeat("x", 2400)
	var b strings.Builder
	b.WriteString(head)
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&b, "- [Topic %d](project_t%d.md) — %s\n", i, i, long)
	}
	dir = testStore(t, map[string]string{"MEMORY.md": b.String()})
	idx = filepath.Join(dir, "MEMORY.md")
	v = judge(idx, "Edit", hookjson.ToolInput{OldString: str("## Feedback\n"), NewString: str("## Feedback\n- [Topic 11](project_t11.md) — " + long + "\n")})
	if codes(v) != "load-cut" || !strings.Contains(v.Reason(), "25,000 characters") {
		t.Fatalf("unit cut: %s\n%s", codes(v), v.Reason())
	}
}

func TestJudgeFileBudget(t *testing.T) {
	dir := testStore(t, map[string]string{
		"MEMORY.md": "# Memory\n",
		"compaction/compaction-policy.md": "| File | Budget | Newest tier (verbatim) | Notes |\n|---|---|---|---|\n" +
			"| topics/*.md | 5 lines | last 2 entries | |\n",
		"topics/go.md":  "# Go\n- one\n- two\n",
		"topics/big.md": "# Big\n- 1\n- 2\n- 3\n- 4\n- 5\n- 6\n",
	})
	v := judge(filepath.Join(dir, "topics", "go.md"), "Edit", hookjson.ToolInput{OldString: str("- two\n"), NewString: str("- two\n- three\n- four\n- five\n")})
	if codes(v) != "budget" || !strings.Contains(v.Reason(), "topics/go.md to 6 lines, over its budget of 5 lines") {
		t.Fatalf("growing past budget: %s\n%s", codes(v), v.Reason())
	}
	v = judge(filepath.Join(dir, "topics", "go.md"), "Edit", hookjson.ToolInput{OldString: str("- two\n"), NewString: str("- two\n- three\n")})
	if v.Deny() {
		t.Fatalf("within budget: %s", v.Reason())
	}
	// Already over: shrinking is allowed, growing is not.
	v = judge(filepath.Join(dir, "topics", "big.md"), "Edit", hookjson.ToolInput{OldString: str("- 6\n"), NewString: str("")})
	if v.Deny() {
		t.Fatalf("shrinking an over-budget file: %s", v.Reason())
	}
	v = judge(filepath.Join(dir, "topics", "big.md"), "Edit", hookjson.ToolInput{OldString: str("- 6\n"), NewString: str("- 6\n- 7\n")})
	if codes(v) != "budget" {
		t.Fatalf("growing an over-budget file: %s", codes(v))
	}
}

func TestJudgeOutsideAndUnreadable(t *testing.T) {
	dir := t.TempDir()
	v := judge(filepath.Join(dir, "notes.md"), "Write", hookjson.ToolInput{Content: str("ghp_Zx9Qw3Er7Ty1Ui5Op2As8Df4Gh6Jk0Lz3Xc7V")})
	if v.Deny() || v.Store != "" || len(v.Skipped) == 0 {
		t.Fatalf("outside a store: %+v", v)
	}
	// A directory where the index belongs: the guard cannot read it, so
	// it cannot judge the write, and denies it naming the cause and the
	// way off (fails closed).
	store := testStore(t, map[string]string{"MEMORY.md/x": ""})
	v = judge(filepath.Join(store, "MEMORY.md"), "Write", hookjson.ToolInput{Content: str("x")})
	if codes(v) != CodeUnjudged || !strings.Contains(v.Reason(), "cannot read") || !strings.Contains(v.Reason(), GuardSetting+"=off") {
		t.Fatalf("directory as index: %+v", v)
	}
	// An Edit that lacks its new text cannot be applied: denied too.
	v = judge(filepath.Join(store, "notes.md"), "Edit", hookjson.ToolInput{OldString: str("x")})
	if codes(v) != CodeUnjudged || !strings.Contains(v.Reason(), "cannot apply") {
		t.Fatalf("an Edit without new_string: %+v", v)
	}
}

func TestJudgeIndexBudget(t *testing.T) {
	// A split store whose policy file records a 400-character limit: the
	// budget is 0.80 × 400 = 320 characters.
	index := "<!-- memory-policy-stanza-begin: POLICY.md -->\n" +
		"Compaction rules live in the policy file named on the marker above.\n" +
		"<!-- memory-policy-stanza-end -->\n\n## Entries\n\n" +
		"- [alpha](reference_alpha_lesson.md) — a stale read wins the race and drops the write\n"
	policy := "# Store policy\n\n<!-- store-values-begin -->\n" +
		"limit_observation: 2026-11-30 | 400 | characters | a small limit\n<!-- store-values-end -->\n\n" +
		"<!-- policy-canonical-begin -->\nEntry files carry a kind prefix: `reference_`, `feedback_` or `project_`.\n<!-- policy-canonical-end -->\n"
	dir := testStore(t, map[string]string{"MEMORY.md": index, "POLICY.md": policy})
	p := filepath.Join(dir, "MEMORY.md")
	grow := "- [beta](project_beta_thing.md) — the retry cap is three, not unlimited, because the upstream rate limit resets hourly and more retries only queue\n"
	v := judge(p, "Edit", hookjson.ToolInput{OldString: str("drops the write\n"), NewString: str("drops the write\n" + grow)})
	if codes(v) != "budget" || !strings.Contains(v.Reason(), "over its budget of 320 (0.80 × the 400 limit observed 2026-11-30)") {
		t.Fatalf("growing past the index budget: %s\n%s", codes(v), v.Reason())
	}
	v = judge(p, "Edit", hookjson.ToolInput{OldString: str("- [alpha]"), NewString: str("- [Alpha]")})
	if v.Deny() {
		t.Fatalf("same size: %s", v.Reason())
	}
}

func TestJudgeCRLFAndBOMIndex(t *testing.T) {
	idx := "\uFEFF# Memory\r\n\r\n## Feedback\r\n- [Run tests with race](feedback_race.md) — always pass -race\r\n"
	dir := testStore(t, map[string]string{"MEMORY.md": idx, "feedback_race.md": "---\nadmitted: 2026-10-01\n---\nx\n"})
	p := filepath.Join(dir, "MEMORY.md")
	// An LF old_string against a CRLF file is not stale.
	v := judge(p, "Edit", hookjson.ToolInput{OldString: str("## Feedback\n- [Run"), NewString: str("## Feedback\n- [Run")})
	if v.Deny() {
		t.Fatalf("CRLF edit: %s", v.Reason())
	}
	v = judge(p, "Edit", hookjson.ToolInput{OldString: str("- [Run tests with race](feedback_race.md) — always pass -race\r\n"), NewString: str("")})
	if codes(v) != "dropped-pointer" {
		t.Fatalf("CRLF drop: %s", codes(v))
	}
}

// FuzzApply: no call panics Apply, and a successful Edit's result contains
// its new_string.
func FuzzApply(f *testing.F) {
	f.Add("a\r\nb\r\n", "a\nb", "c", false)
	f.Add("say \u201Chi\u201D", `say "hi"`, "x", true)
	f.Add("", "", "new", false)
	f.Add("\xff\xfe", "\xff", "", true)
	f.Fuzz(func(t *testing.T, current, old, new string, all bool) {
		out, err := Apply("Edit", current, current != "", &hookjson.ToolInput{OldString: &old, NewString: &new, ReplaceAll: all})
		if err == nil && !strings.Contains(out, new) {
			t.Fatalf("Apply(%q, %q→%q) = %q lacks the new text", current, old, new, out)
		}
		_, _ = Apply("MultiEdit", current, true, &hookjson.ToolInput{Edits: []hookjson.Edit{{OldString: old, NewString: new, ReplaceAll: all}, {OldString: new, NewString: old}}})
	})
}

// TestJudgeClaudeCodeLoadModel: the guard judges an index by what Claude
// Code loads of it. A leading "---" that hides pointers as frontmatter is
// denied; a block comment that costs nothing is allowed, even on an index
// at the line limit (Claude Code removes it before counting); real
// frontmatter that hides no pointer is allowed.
func TestJudgeClaudeCodeLoadModel(t *testing.T) {
	head := "# Memory\n\n## Feedback\n"
	full := head + pointers(1, 197) // 200 lines: loads whole
	dir := testStore(t, map[string]string{"MEMORY.md": full})
	idx := filepath.Join(dir, "MEMORY.md")

	ruled := testStore(t, map[string]string{"MEMORY.md": head + pointers(1, 20) + "\n---\n\n## Project\n" + pointers(21, 5)})
	v := judge(filepath.Join(ruled, "MEMORY.md"), "Edit", hookjson.ToolInput{OldString: str("# Memory\n"), NewString: str("---\n# Memory\n")})
	if codes(v) != "hidden" || !strings.Contains(v.Reason(), "hiding 20 pointer(s): line 5 [Lesson number 1](feedback_l1.md)") {
		t.Fatalf("leading ---: %s\n%s", codes(v), v.Reason())
	}
	v = judge(idx, "Edit", hookjson.ToolInput{OldString: str("## Feedback\n"), NewString: str("## Feedback\n<!-- keep each pointer under 150 characters -->\n")})
	if v.Deny() {
		t.Fatalf("block comment at the line limit: %s", v.Reason())
	}
	v = judge(idx, "Edit", hookjson.ToolInput{OldString: str("# Memory\n"), NewString: str("---\nname: index\n---\n# Memory\n")})
	if v.Deny() {
		t.Fatalf("real frontmatter: %s", v.Reason())
	}
	// An inline comment costs its units and its line: at the limit, denied.
	v = judge(idx, "Edit", hookjson.ToolInput{OldString: str("## Feedback\n"), NewString: str("## Feedback\nsee <!-- x --> below\n")})
	if codes(v) != "load-cut" {
		t.Fatalf("inline comment line at the limit: %s", codes(v))
	}
}

// TestJudgeBusyStore: while another memcompact run holds the store's lock
// (a sweep rewriting the index), a write to any memory file of the store
// is denied naming the holder; once it lets go, the same write is judged
// as usual.
func TestJudgeBusyStore(t *testing.T) {
	dir := testStore(t, map[string]string{"MEMORY.md": "# Memory\n\n## Feedback\n" + pointers(1, 3)})
	idx := filepath.Join(dir, "MEMORY.md")
	release, err := lockfile.Lock(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	edit := hookjson.ToolInput{OldString: str("lesson 2 teaches"), NewString: str("lesson two teaches")}
	// The full run waits out the guard's own wait (Call.BusyWait 0, so
	// BusyWait: 2 s); -short a tenth of it, given in the call.
	var wait time.Duration
	waits := BusyWait
	if testing.Short() {
		wait = BusyWait / 10
		waits = wait
	}
	busyJudge := func(path, tool string, in hookjson.ToolInput) *Verdict {
		in.FilePath = path
		return Judge(&Call{
			Tool: tool, Input: &in, Cwd: filepath.Dir(path),
			Getenv: func(string) string { return "" }, Home: "/nonexistent-home",
			Today: time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC), BusyWait: wait,
		})
	}
	t0 := time.Now()
	v := busyJudge(idx, "Edit", edit)
	if codes(v) != "busy" || !strings.Contains(v.Reason(), fmt.Sprintf("pid %d", os.Getpid())) || !strings.Contains(v.Reason(), "Read the file again") {
		t.Fatalf("write during a locked rewrite: %s\n%s", codes(v), v.Reason())
	}
	if waited := time.Since(t0); waited < waits/2 {
		t.Errorf("denied after %s without waiting for the holder", waited)
	}
	entry := busyJudge(filepath.Join(dir, "feedback_new.md"), "Write", hookjson.ToolInput{Content: str("---\nname: new\n---\nA lesson.\n")})
	if codes(entry) != "busy" {
		t.Errorf("an entry write during a locked rewrite: %s", codes(entry))
	}
	release()
	if v := judge(idx, "Edit", edit); v.Deny() {
		t.Fatalf("after the release: %s", v.Reason())
	}
}

// TestJudgeDropEscapedPointer: a pointer that names its entry with
// percent-escapes or angle brackets reaches the file drift finds, so
// dropping it unrecorded is denied like any other; re-spelling the link
// to the same file is not a drop.
func TestJudgeDropEscapedPointer(t *testing.T) {
	idx := "# Memory\n\n## Notes\n- [Project notes](project%20notes.md) — deploys go through staging first\n- [Café](<café.md>) — the espresso machine needs descaling monthly\n"
	dir := testStore(t, map[string]string{"MEMORY.md": idx, "project notes.md": "---\nadmitted: 2026-10-01\n---\nx\n", "café.md": "---\nadmitted: 2026-10-02\n---\ny\n"})
	p := filepath.Join(dir, "MEMORY.md")
	for _, line := range []string{
		"- [Project notes](project%20notes.md) — deploys go through staging first\n",
		"- [Café](<café.md>) — the espresso machine needs descaling monthly\n",
	} {
		v := judge(p, "Edit", hookjson.ToolInput{OldString: str(line), NewString: str("")})
		if codes(v) != "dropped-pointer" {
			t.Errorf("dropping %q: %s", line, codes(v))
		}
	}
	v := judge(p, "Edit", hookjson.ToolInput{OldString: str("(project%20notes.md)"), NewString: str("(<project notes.md>)")})
	if codes(v) == "dropped-pointer" {
		t.Errorf("re-spelling the link is judged a drop: %s", v.Reason())
	}
}
