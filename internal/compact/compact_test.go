package compact

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/tiers"
)

var (
	today = time.Date(2026, 12, 2, 0, 0, 0, 0, time.Local)
	now   = time.Date(2026, 12, 2, 10, 11, 12, 0, time.Local)
)

// diary builds a topic diary of n entries, each with a few facts.
func diary(n int, eol string) string {
	var b strings.Builder
	b.WriteString("# Tools Topic Diary" + eol + eol + "## Topic Metadata" + eol + "- **Created**: 2026-01-01 09:00" + eol + eol + "---" + eol + eol)
	for i := 1; i <= n; i++ {
		d := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i).Format("2006-01-02")
		b.WriteString("## " + d + " 10:00 — Note " + itoa(i) + eol + eol)
		b.WriteString("### Context" + eol + "- What prompted this?" + eol + "- We were tuning job " + itoa(i) + "." + eol + eol)
		b.WriteString("### Confirmed Details" + eol + "- `tool run --job " + itoa(i) + "` takes " + itoa(i) + " s." + eol + "- Config: ~/cfg/job" + itoa(i) + ".yaml" + eol + eol)
		b.WriteString("### Pitfalls" + eol + "- None" + eol + eol + "---" + eol + eol)
	}
	return b.String()
}

func itoa(i int) string { return strconv.Itoa(i) }

func setup(t *testing.T, rel, text string) string {
	t.Helper()
	root := t.TempDir()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

func opts(root, rel string, budgetLines, newest int) Options {
	return Options{Root: root, Rel: rel, Row: budget.Row{Pattern: rel, Budget: budgetLines, Unit: budget.Lines, Newest: newest}, Today: today, Now: now}
}

func TestProtocolKeepsBytes(t *testing.T) {
	for _, tc := range []struct {
		name, eol string
		bom       bool
	}{{"lf", "\n", false}, {"crlf", "\r\n", false}, {"bom crlf", "\r\n", true}} {
		t.Run(tc.name, func(t *testing.T) {
			text := diary(10, tc.eol)
			raw := text
			if tc.bom {
				raw = "\uFEFF" + text
			}
			root := setup(t, "topics/tools.md", raw)
			pl := Prepare(context.Background(), opts(root, "topics/tools.md", 120, 3))
			if pl.Report.Status != StatusCompacted {
				t.Fatalf("status %s: %s", pl.Report.Status, pl.Report.Message)
			}
			if err := pl.Write(); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(filepath.Join(root, "topics/tools.md"))
			if tc.bom != strings.HasPrefix(string(got), "\uFEFF") {
				t.Error("the BOM was not kept as it was")
			}
			body := strings.TrimPrefix(string(got), "\uFEFF")
			if tc.eol == "\r\n" && strings.Count(body, "\n") != strings.Count(body, "\r\n") {
				t.Error("a line lost its CRLF")
			}
			// The newest three entries are byte-identical at the end.
			d, _ := tiers.Split(text, tiers.Options{})
			tail := d.Text(d.Entries[7].Start, len(d.Lines))
			if !strings.HasSuffix(body, tail) {
				t.Error("the newest tier changed")
			}
			// The mid tier is byte-identical too: the budget was met
			// without lightening it.
			mid := d.Text(d.Entries[pl.tiers.MidStart].Start, d.Entries[7].Start)
			if pl.Report.MidLightened || !strings.Contains(body, mid) {
				t.Error("the mid tier changed although distilling met the budget")
			}
			snap, _ := os.ReadFile(filepath.Join(root, "compaction/snapshots/tools-2026-12-02.md"))
			if string(snap) != raw {
				t.Error("the snapshot is not the original bytes")
			}
			header := "## Compacted History" + tc.eol + "*Distilled from " + itoa(pl.Report.Compacted) + " entries on 2026-12-02. Full detail in compaction/snapshots/tools-2026-12-02.md.*" + tc.eol
			if pl.Report.Compacted < 2 || !strings.Contains(body, header) {
				t.Errorf("no block header in:\n%s", body)
			}
		})
	}
}

func TestShortfallWritesNothing(t *testing.T) {
	text := diary(10, "\n")
	root := setup(t, "topics/tools.md", text)
	pl := Prepare(context.Background(), opts(root, "topics/tools.md", 40, 3))
	if pl.Report.Status != StatusShortfall || pl.Code != 1 || pl.Report.Shortfall <= 0 {
		t.Fatalf("report = %+v", pl.Report)
	}
	if err := pl.Write(); err == nil {
		t.Error("Write of a shortfall succeeded")
	}
	if _, err := os.Stat(filepath.Join(root, "compaction/snapshots")); !os.IsNotExist(err) {
		t.Error("a shortfall left a snapshot folder")
	}
}

func TestMergeIntoExistingBlock(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n"} {
		testMergeIntoExistingBlock(t, eol)
	}
}

func testMergeIntoExistingBlock(t *testing.T, eol string) {
	text := diary(10, eol)
	root := setup(t, "topics/tools.md", text)
	for i := 0; i < 2; i++ {
		o := opts(root, "topics/tools.md", 1000, 3)
		o.Explicit = true
		o.Now = now.Add(time.Duration(i) * time.Second)
		pl := Prepare(context.Background(), o)
		if pl.Report.Status != StatusCompacted {
			t.Fatalf("run %d: %s", i, pl.Report.Message)
		}
		if err := pl.Write(); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := os.ReadFile(filepath.Join(root, "topics/tools.md"))
	s := string(got)
	if eol == "\r\n" && strings.Count(s, "\n") != strings.Count(s, "\r\n") {
		t.Errorf("a line lost its CRLF:\n%q", s)
	}
	if strings.Count(s, "## Compacted History") != 1 {
		t.Fatalf("want one block:\n%s", s)
	}
	// Both rounds' snapshots stay named: the first holds the originals of
	// the entries distilled first.
	for _, want := range []string{"*Distilled from 7 entries on 2026-12-02. Full detail in compaction/snapshots/tools-2026-12-02.md, compaction/snapshots/tools-2026-12-02-101113.md.*", "- 2026-01-02 10:00 — Note 1", "- 2026-01-08 10:00 — Note 7"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q in:\n%s", want, s)
		}
	}
	checkRewrite(t, "merge", text, s, root, "", nil)
}

func TestWriteFailureKeepsOriginal(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: directory permissions do not stop writes")
	}
	text := diary(10, "\n")
	root := setup(t, "topics/tools.md", text)
	pl := Prepare(context.Background(), opts(root, "topics/tools.md", 120, 3))
	if pl.Report.Status != StatusCompacted {
		t.Fatal(pl.Report.Message)
	}
	dir := filepath.Join(root, "topics")
	if err := os.MkdirAll(filepath.Join(root, "compaction/snapshots"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o555) // the temporary file cannot be created beside the target
	defer os.Chmod(dir, 0o755)
	if err := pl.Write(); err == nil {
		t.Fatal("Write succeeded in a read-only folder")
	}
	got, _ := os.ReadFile(filepath.Join(dir, "tools.md"))
	if string(got) != text {
		t.Error("the original changed")
	}
	snap, err := os.ReadFile(filepath.Join(root, "compaction/snapshots/tools-2026-12-02.md"))
	if err != nil || string(snap) != text {
		t.Error("the snapshot is not in place")
	}
}

func TestRefusals(t *testing.T) {
	root := setup(t, "a.md", "just prose\n\nmore prose\n")
	o := opts(root, "a.md", 1, 1)
	if pl := Prepare(context.Background(), o); pl.Code != 2 || !strings.Contains(pl.Report.Message, "no recognizable entries") {
		t.Errorf("prose: %+v", pl.Report)
	}
	os.WriteFile(filepath.Join(root, "a.md"), []byte("- a\xff\n- b\n"), 0o644)
	if pl := Prepare(context.Background(), o); pl.Code != 2 || !strings.Contains(pl.Report.Message, "not UTF-8") {
		t.Errorf("invalid utf-8: %+v", pl.Report)
	}
	os.Remove(filepath.Join(root, "a.md"))
	os.Mkdir(filepath.Join(root, "a.md"), 0o755)
	if pl := Prepare(context.Background(), o); pl.Code != 2 {
		t.Errorf("directory: %+v", pl.Report)
	}
}

// TestBlockBeforeSection: "###" entries under a "## Important Memories"
// heading; the block goes before that heading (a "## Compacted History"
// inside the section would end it), the secret entry first in the oldest
// tier stays under it, and the newest entries are untouched.
func TestBlockBeforeSection(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Main Memory\n\n## User Profile\n- Works in Go.\n\n## Important Memories\n*Sessions we remember.*\n\n")
	b.WriteString("### 2026-01-01 — Vault\n- API_TOKEN=abcd1234efgh5678ijkl9012mnop3456\n\n")
	for i := 2; i <= 9; i++ {
		b.WriteString("### 2026-01-0" + itoa(i) + " — Session " + itoa(i) + "\n- Tuned job " + itoa(i) + " to " + itoa(i) + " retries.\n- Sam said thanks.\n- ok\n\n")
	}
	root := setup(t, "main/main-memory.md", b.String())
	o := opts(root, "main/main-memory.md", 1000, 3)
	o.Explicit = true
	pl := Prepare(context.Background(), o)
	if pl.Report.Status != StatusCompacted {
		t.Fatalf("%s: %s", pl.Report.Status, pl.Report.Message)
	}
	got := pl.NewText()
	want := "# Main Memory\n\n## User Profile\n- Works in Go.\n\n## Compacted History\n*Distilled from 3 entries on 2026-12-02. Full detail in compaction/snapshots/main-memory-2026-12-02.md.*\n" +
		"- 2026-01-02 — Session 2: Tuned job 2 to 2 retries.\n- 2026-01-03 — Session 3: Tuned job 3 to 3 retries.\n- 2026-01-04 — Session 4: Tuned job 4 to 4 retries.\n\n" +
		"## Important Memories\n*Sessions we remember.*\n\n### 2026-01-01 — Vault\n- API_TOKEN=abcd1234efgh5678ijkl9012mnop3456\n\n### 2026-01-05 — Session 5\n"
	if !strings.HasPrefix(got, want) {
		t.Errorf("got:\n%s\nwant prefix:\n%s", got, want)
	}
}
