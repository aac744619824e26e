package budget

import (
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/textfile"
)

const goodPolicy = "# Compaction Policy\n\n## Active Budgets\n\n" +
	"| File | Budget | Newest Tier (verbatim) | Notes |\n" +
	"|------|--------|------------------------|-------|\n" +
	"| main/main-memory.md | 500 lines | last 20 entries | core |\n" +
	"| `topic-diary/topics/*.md` | 300 lines each | last 10 entries | journals \\| notes |\n" +
	"| topic-diary/topics/9router.md | 6,000 chars | last 1 entry | |\n" +
	"\nAfter the table.\n"

func TestParse(t *testing.T) {
	p, err := parse("policy.md", []byte(goodPolicy))
	if err != nil {
		t.Fatal(err)
	}
	want := []Row{
		{Line: 7, Pattern: "main/main-memory.md", Budget: 500, Unit: Lines, Newest: 20, Notes: "core"},
		{Line: 8, Pattern: "topic-diary/topics/*.md", Budget: 300, Unit: Lines, Each: true, Newest: 10, Notes: "journals | notes"},
		{Line: 9, Pattern: "topic-diary/topics/9router.md", Budget: 6000, Unit: Chars, Newest: 1},
	}
	if len(p.Rows) != len(want) {
		t.Fatalf("got %d rows, want %d", len(p.Rows), len(want))
	}
	for i := range want {
		if p.Rows[i] != want[i] {
			t.Errorf("row %d = %+v, want %+v", i, p.Rows[i], want[i])
		}
	}
	if string(p.Bytes()) != goodPolicy {
		t.Error("Bytes is not the input")
	}
	for rel, pattern := range map[string]string{
		"main/main-memory.md":           "main/main-memory.md",
		"topic-diary/topics/docker.md":  "topic-diary/topics/*.md",
		"topic-diary/topics/9router.md": "topic-diary/topics/9router.md",
		"main/other.md":                 "",
		"compaction/snapshots/x.md":     "",
	} {
		r, ok := p.Lookup(rel)
		if got := ""; ok {
			got = r.Pattern
			if got != pattern {
				t.Errorf("Lookup(%s) = %s, want %s", rel, got, pattern)
			}
		} else if pattern != "" {
			t.Errorf("Lookup(%s) found nothing, want %s", rel, pattern)
		}
	}
}

func TestParseErrors(t *testing.T) {
	head := "| File | Budget | Newest tier | Notes |\n|---|---|---|---|\n"
	tests := []struct {
		name, in, want string
	}{
		{"no table", "# Policy\n\nnothing here\n", "p.md:1: no budgets table"},
		{"bad unit", head + "| a.md | 500 words | last 2 entries | |\n", "p.md:3: bad unit \"words\""},
		{"bad number", head + "| a.md | many lines | last 2 entries | |\n", "p.md:3: bad budget"},
		{"zero", head + "| a.md | 0 lines | last 2 entries | |\n", "p.md:3: bad budget"},
		{"missing column", head + "| a.md | 500 lines |\n", "p.md:3: missing column"},
		{"no newest column", "| File | Budget |\n|---|---|\n| a.md | 5 lines |\n", "p.md:1: missing column"},
		{"bad newest", head + "| a.md | 5 lines | the recent ones | |\n", "p.md:3: bad newest tier"},
		{"duplicate", head + "| a.md | 5 lines | last 2 entries | |\n| a.md | 6 lines | last 2 entries | |\n", "p.md:4: duplicate row for a.md (first at line 3)"},
		{"absolute", head + "| /etc/a.md | 5 lines | last 2 entries | |\n", "p.md:3: bad file"},
		{"escape", head + "| ../a.md | 5 lines | last 2 entries | |\n", "p.md:3: bad file"},
		{"bad glob", head + "| a[.md | 5 lines | last 2 entries | |\n", "p.md:3: bad file"},
		{"no delimiter", "| File | Budget | Newest |\n| a.md | 5 lines | 2 |\n", "p.md:2: the budgets table's header"},
		{"crlf line numbers", strings.ReplaceAll(head, "\n", "\r\n") + "| a.md | 5 bytes | 2 | |\r\n", "p.md:3: bad unit"},
		{"invalid utf8", head + "| a\xff.md | 5 lines | 2 |\n", "p.md:1: not valid UTF-8"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parse("p.md", []byte(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestSet(t *testing.T) {
	crlf := strings.ReplaceAll(goodPolicy, "\n", "\r\n")
	tests := []struct {
		name, in, pattern string
		n                 int
		unit              Unit
		newest            int
		wantLine          string
		added             bool
		newest0           int
	}{
		{"update keeps notes", goodPolicy, "main/main-memory.md", 450, Lines, 25, "| main/main-memory.md | 450 lines | last 25 entries | core |\n", false, 25},
		{"update keeps newest", goodPolicy, "main/main-memory.md", 8000, Chars, -1, "| main/main-memory.md | 8000 chars | last 20 entries | core |\n", false, 20},
		{"update glob keeps each", goodPolicy, "topic-diary/topics/*.md", 250, Lines, -1, "| `topic-diary/topics/*.md` | 250 lines each | last 10 entries | journals \\| notes |\n", false, 10},
		{"add inherits from glob", goodPolicy, "topic-diary/topics/docker.md", 250, Lines, -1, "| topic-diary/topics/docker.md | 250 lines | last 10 entries |  |\n", true, 10},
		{"add default", goodPolicy, "main/new.md", 100, Lines, -1, "| main/new.md | 100 lines | last 10 entries |  |\n", true, DefaultNewest},
		{"crlf add", crlf, "main/new.md", 100, Lines, 3, "| main/new.md | 100 lines | last 3 entries |  |\r\n", true, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := parse("p.md", []byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			ch, err := p.Set(tc.pattern, tc.n, tc.unit, tc.newest)
			if err != nil {
				t.Fatal(err)
			}
			if ch.Added != tc.added {
				t.Errorf("Added = %v", ch.Added)
			}
			if !strings.Contains(string(ch.Data), tc.wantLine) {
				t.Errorf("new policy lacks %q:\n%s", tc.wantLine, ch.Data)
			}
			// Exactly one line changed or was added.
			before, after := textfile.SplitKeep(tc.in), textfile.SplitKeep(string(ch.Data))
			diff := len(after) - len(before)
			if tc.added != (diff == 1) || diff < 0 || diff > 1 {
				t.Errorf("line count %d -> %d", len(before), len(after))
			}
			q, err := parse("p.md", ch.Data)
			if err != nil {
				t.Fatalf("rewritten policy does not parse: %v", err)
			}
			r, ok := q.Row(tc.pattern)
			if !ok || r.Budget != tc.n || r.Unit != tc.unit || r.Newest != tc.newest0 {
				t.Errorf("row after = %+v", r)
			}
			if len(textfile.Lines(string(ch.Data))) != len(after) {
				t.Error("SplitKeep disagrees with textfile.Lines")
			}
		})
	}
}

func TestSplitKeepAgreesWithTextfile(t *testing.T) {
	for _, s := range []string{"", "a", "a\n", "a\r\nb\rc\n\n", "\r\r\n\n", "x\ny"} {
		if got, want := len(textfile.SplitKeep(s)), len(textfile.Lines(s)); got != want {
			t.Errorf("%q: %d lines, textfile says %d", s, got, want)
		}
		if strings.Join(textfile.SplitKeep(s), "") != s {
			t.Errorf("%q: join is not the input", s)
		}
	}
}

func TestDefaultPolicyParses(t *testing.T) {
	p, err := parse("p.md", []byte(DefaultPolicy()+installNote("2026-12-02")))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Rows) != 3 || p.Rows[2].Pattern != "topic-diary/topics/*.md" || !p.Rows[2].Each {
		t.Errorf("rows = %+v", p.Rows)
	}
}
