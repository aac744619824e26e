package tiers

import (
	"reflect"
	"strings"
	"testing"
)

const diary = `# Docker Topic Diary
*Notes.*

## Topic Metadata
- **Created**: 2026-04-01 10:00

---

## 2026-04-08 14:30 — Port conflict

### Context
- port 3000 busy

---

## 2026-04-09 09:00 — Compose v2

### Discovery
- use ` + "`docker compose`" + `

---

## Secrets
- API_TOKEN=abc

## 2026-04-10 12:00 — Last one
- done
`

func titles(d *Doc) []string {
	var out []string
	for _, e := range d.Entries {
		out = append(out, e.Title)
	}
	return out
}

func TestSplit(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		opt      Options
		mode     Mode
		titles   []string
		preamble int
		history  *Block
		secret   []bool
		lines    []int
	}{
		{
			name: "topic diary", text: diary, mode: ModeDated,
			titles:   []string{"2026-04-08 14:30 — Port conflict", "2026-04-09 09:00 — Compose v2", "2026-04-10 12:00 — Last one"},
			preamble: 8, secret: []bool{false, false, false}, lines: []int{7, 7, 2},
		},
		{
			name: "repeated headings", text: "# Main\nintro\n## Identity\n- a\n## Prefs\n- b\n- c\n", mode: ModeHeading,
			titles: []string{"Identity", "Prefs"}, preamble: 2, secret: []bool{false, false}, lines: []int{2, 3},
		},
		{
			name: "secret section entry", text: "## Notes\n- a\n## Credentials\n- DB_PASSWORD=x\n", mode: ModeHeading,
			titles: []string{"Notes", "Credentials"}, secret: []bool{false, true}, lines: []int{2, 2},
		},
		{
			name: "list items", text: "# Memory\n\n- one\n  more\n\n- two\n---\n- three\ntrailer\n", mode: ModeList,
			titles: []string{"- one", "- two", "- three"}, preamble: 2, secret: []bool{false, false, false}, lines: []int{3, 2, 1},
		},
		{
			name: "list under secrets", text: "## Tokens\n- X_TOKEN=1\n", mode: ModeList,
			titles: []string{"- X_TOKEN=1"}, preamble: 1, secret: []bool{true},
			lines: []int{1},
		},
		{
			name: "history block first", text: "# M\n## Compacted History\n*Distilled.*\n\n- old fact\n\n---\n\n- new\n- newer\n", mode: ModeList,
			titles: []string{"- new", "- newer"}, preamble: 1, history: &Block{1, 8}, secret: []bool{false, false}, lines: []int{1, 1},
		},
		{
			name: "history between dated", text: "# D\n## Compacted History\n- f\n## 2026-01-01 a\nx\n## 2026-01-02 b\ny\n", mode: ModeDated,
			titles: []string{"2026-01-01 a", "2026-01-02 b"}, preamble: 1, history: &Block{1, 3}, secret: []bool{false, false}, lines: []int{2, 2},
		},
		{
			name: "fenced headings ignored", text: "- a\n```\n## 2026-01-01 not a heading\n- not an item\n```\n- b\n", mode: ModeList,
			titles: []string{"- a", "- b"}, secret: []bool{false, false}, lines: []int{5, 1},
		},
		{
			name: "front matter is preamble", text: "---\nname: x\ntags:\n- a\n- b\n---\n- one\n- two\n", mode: ModeList,
			titles: []string{"- one", "- two"}, preamble: 6, secret: []bool{false, false}, lines: []int{1, 1},
		},
		{
			name: "crlf", text: "## 2026-01-01 a\r\nx\r\n---\r\n\r\n## 2026-01-02 b\r\ny", mode: ModeDated,
			titles: []string{"2026-01-01 a", "2026-01-02 b"}, secret: []bool{false, false}, lines: []int{4, 2},
		},
		{
			name: "override level", text: "# T\n### x\n### y\n## z\n", opt: Options{EntryHeading: "###"}, mode: ModeOverride,
			titles: []string{"x", "y"}, preamble: 1, secret: []bool{false, false}, lines: []int{1, 1},
		},
		{
			name: "override regexp", text: "intro\nEntry: a\nbody\nEntry: b\n", opt: Options{EntryHeading: "^Entry:"}, mode: ModeOverride,
			titles: []string{"Entry: a", "Entry: b"}, preamble: 1, secret: []bool{false, false}, lines: []int{2, 1},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Split(tc.text, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if d.Mode != tc.mode {
				t.Errorf("mode = %s, want %s", d.Mode, tc.mode)
			}
			if got := titles(d); !reflect.DeepEqual(got, tc.titles) {
				t.Errorf("titles = %q, want %q", got, tc.titles)
			}
			if d.Preamble != tc.preamble {
				t.Errorf("preamble = %d, want %d", d.Preamble, tc.preamble)
			}
			if !reflect.DeepEqual(d.History, tc.history) {
				t.Errorf("history = %+v, want %+v", d.History, tc.history)
			}
			var secret []bool
			var lines []int
			for _, e := range d.Entries {
				secret = append(secret, e.SecretHeading)
				lines = append(lines, e.Lines())
			}
			if !reflect.DeepEqual(secret, tc.secret) {
				t.Errorf("secret = %v, want %v", secret, tc.secret)
			}
			if !reflect.DeepEqual(lines, tc.lines) {
				t.Errorf("entry lines = %v, want %v", lines, tc.lines)
			}
		})
	}
}

func TestSplitRefusals(t *testing.T) {
	for _, text := range []string{"", "just prose\nno structure\n", "# Title only\n", "```\n- fenced\n```\n"} {
		if _, err := Split(text, Options{}); err != ErrNoEntries {
			t.Errorf("%q: err = %v, want ErrNoEntries", text, err)
		}
	}
	if _, err := Split("- a\n", Options{EntryHeading: "("}); err == nil || !strings.Contains(err.Error(), "--entry-heading") {
		t.Errorf("bad regexp: err = %v", err)
	}
}

func TestTier(t *testing.T) {
	// 10 one-line entries: 30% of 10 lines is 3 entries; newest 4.
	text := strings.Repeat("- x\n", 10)
	d, err := Split(text, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Tier(4); got != (Tiers{MidStart: 3, NewestStart: 6}) {
		t.Errorf("Tier(4) = %+v", got)
	}
	// The oldest tier never reaches into the newest.
	if got := d.Tier(9); got != (Tiers{MidStart: 1, NewestStart: 1}) {
		t.Errorf("Tier(9) = %+v", got)
	}
	if got := d.Tier(20); got != (Tiers{MidStart: 0, NewestStart: 0}) {
		t.Errorf("Tier(20) = %+v", got)
	}
	// Whole entries: a 5-line first entry of a 10-line file is the tier.
	d, _ = Split("## a\n1\n2\n3\n4\n## b\n1\n## c\n## d\n## e\n", Options{})
	if got := d.Tier(1); got != (Tiers{MidStart: 1, NewestStart: 4}) {
		t.Errorf("Tier(1) = %+v", got)
	}
}

// TestSameLevelSubHeadings: a dated entry whose sub-headings use the
// entry's own level is still one entry; a secrets heading still ends it.
func TestSameLevelSubHeadings(t *testing.T) {
	text := "# D\n\n## 2026-01-01 — A\n## Context\n- x\n## Discovery\n- y\n\n## 2026-01-02 — B\n- z\n## Secrets\n- k\n"
	d, err := Split(text, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Entries) != 2 || d.EntryText(0) != "## 2026-01-01 — A\n## Context\n- x\n## Discovery\n- y\n\n" || d.EntryText(1) != "## 2026-01-02 — B\n- z\n" {
		t.Errorf("entries: %d, %q, %q", len(d.Entries), d.EntryText(0), d.EntryText(1))
	}
}
