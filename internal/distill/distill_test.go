package distill

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/facts"
)

func TestBuiltin(t *testing.T) {
	srcs := []Source{
		{Title: "2026-04-08 14:30 — Port fix", Text: "## 2026-04-08 14:30 — Port fix\n\n### Context\n- What prompted this?\n- Port 3000 was busy.\n\n### Discovery\n- An old container held the port.\n- ok\n\n### Confirmed Details\n- `docker rm web` removed it.\n```sh\ndocker compose up -d\n```\n\n### Recall Keywords\n- docker, ports\n\n---\n"},
		{Title: "2026-04-09 09:00 — Again", Text: "## 2026-04-09 09:00 — Again\n- An old container held the port!\n- Decided: always run `docker ps -a` first,\n  because stale containers linger.\n"},
		{Text: "- 2026-04-10: user prefers tabs.\n"},
	}
	got := Builtin(srcs)
	want := []string{
		// "Port 3000 was busy." is one-off context: no fact, no decision.
		"2026-04-08 14:30 — Port fix: An old container held the port.",
		"`docker rm web` removed it.",
		"`docker compose up -d`",
		"2026-04-09 09:00 — Again: Decided: always run `docker ps -a` first, because stale containers linger.",
		"2026-04-10: user prefers tabs.",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Builtin =\n%q\nwant\n%q", got, want)
	}
}

// TestBuiltinKeepsEveryFact: whatever the input, the built-in summary holds
// every fact of its sources.
func TestBuiltinKeepsEveryFact(t *testing.T) {
	for _, text := range []string{
		"## T\n- `a` and `b`\n- ok\n- ok 2026-01-01\n",
		"## 2026-01-01 x\n### Recall Keywords\n- docker v1.2.3 keyword\n",
		"- a\n  continued with KEY=value\n\n- see above\n- n/a 5 GB\n",
		"## T\n```\ncode `with` ticks\n```\n- What is https://example.com/x?\n",
	} {
		srcs := []Source{{Title: "T", Text: text}}
		if strings.HasPrefix(text, "- ") {
			srcs[0].Title = ""
		}
		bullets := Builtin(srcs)
		if m := facts.Missing(facts.Extract(text), strings.Join(bullets, "\n")); len(m) > 0 {
			t.Errorf("%q: lost %v (bullets %q)", text, m, bullets)
		}
	}
}

func TestLighten(t *testing.T) {
	seen := map[string]bool{Key("Prefers short answers"): true}
	lines := []string{"## Entry\n", "- prefers short answers!\n", "- n/a\n", "\n", "\n", "- new fact v1.2\n", "- new fact v1.2\n", "```\n", "- n/a\n", "```\n"}
	got := Lighten(lines, seen)
	want := []string{"## Entry\n", "\n", "- new fact v1.2\n", "```\n", "- n/a\n", "```\n"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Lighten = %q, want %q", got, want)
	}
	// A list entry goes whole, or not at all.
	if got := Lighten([]string{"- prefers short answers.\n"}, seen); got != nil {
		t.Errorf("duplicate list entry kept: %q", got)
	}
	if got := Lighten([]string{"- prefers short answers.\n", "  but only on weekdays\n"}, seen); len(got) != 2 {
		t.Errorf("list entry with news trimmed: %q", got)
	}
}

func TestParseBullets(t *testing.T) {
	got := ParseBullets("## Compacted History\n*Distilled from 2 entries on X.*\n\n- a\n* b\n3. c\nplain d\n---\n")
	if want := []string{"a", "b", "c", "plain d"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ParseBullets = %q", got)
	}
}

func TestExternal(t *testing.T) {
	ctx := context.Background()
	b, err := External(ctx, "tr a-z A-Z", "- x\n- y\n", time.Minute)
	if err != nil || !reflect.DeepEqual(b, []string{"X", "Y"}) {
		t.Errorf("External = %q, %v", b, err)
	}
	for cmd, want := range map[string]string{
		"exit 4":               "failed: exit status 4",
		"cat >/dev/null":       "printed no bullets",
		"sleep 10":             "timed out after 200ms",
		"echo oops >&2; false": "failed: exit status 1: oops",
	} {
		_, err := External(ctx, cmd, "- x\n", 200*time.Millisecond)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", cmd, err, want)
		}
	}
}

// TestBuiltinListItems: one-line list items, the case where an extractive
// summary has least to work with. Repeats merge into one bullet that keeps
// every date; chatter and filler go, their dates listed once; preferences
// stay; a correction merges with what it restates (a "Rejected:" does
// not); nothing new is invented but the joined dates and the chatter line.
func TestBuiltinListItems(t *testing.T) {
	text := strings.Join([]string{
		"- 2026-01-03: Prefers short answers with the command first.",
		"- 2026-01-04: Had a nice chat about the weekend.",
		"- 2026-01-05: Prefers short answers, with the command first!",
		"- 2026-01-05: Sam said thanks for the help today.",
		"- 2026-01-06: ok",
		"- **2026-01-07**: Uses fish; config in ~/.config/fish/config.fish.",
		"- 2026-01-08: Corrected me: prefers short answers with the command first.",
		"- 2026-01-09: We talked about coffee, then decided to pin Go 1.26.",
		"- 2026-01-10: Nothing else to note.",
		"- Prefers short answers with the command first.",
		"- 2026-01-11: Uses tabs in Makefiles.",
		"- 2026-01-12: Rejected: uses tabs in Makefiles.",
		"",
	}, "\n")
	got := Builtin([]Source{{Text: text}})
	// The correction of 2026-01-08 restates the preference: one bullet,
	// worded as the correction, with every date.
	want := []string{
		"2026-01-03, 2026-01-05, 2026-01-08: Corrected me: prefers short answers with the command first.",
		"2026-01-07: Uses fish; config in ~/.config/fish/config.fish.",
		"2026-01-09: We talked about coffee, then decided to pin Go 1.26.",
		"2026-01-11: Uses tabs in Makefiles.",
		"2026-01-12: Rejected: uses tabs in Makefiles.",
		"Only chatter or filler on 2026-01-04, 2026-01-06, 2026-01-10.",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Builtin =\n%q\nwant\n%q", got, want)
	}
	if m := facts.Missing(facts.Extract(text), strings.Join(got, "\n")); len(m) > 0 {
		t.Errorf("lost %v", m)
	}
}

// TestBuiltinDatedTitles: a daily diary's date-only headings date each
// unit; a titled entry that only repeats an earlier one adds its date to
// the bullet that title led.
func TestBuiltinDatedTitles(t *testing.T) {
	srcs := []Source{
		{Title: "2026-08-01", Text: "## 2026-08-01\n- Fixed a flaky test in `internal/ledger`.\n- Good day.\n"},
		{Title: "2026-08-02", Text: "## 2026-08-02\n- Fixed a flaky test in `internal/ledger`.\n- Sam was tired.\n"},
		{Title: "2026-08-03", Text: "## 2026-08-03\n- Mostly chatting today.\n"},
		{Title: "2026-08-04 10:00 — Port fix", Text: "## 2026-08-04 10:00 — Port fix\n### Discovery\n- An old container held port 3000.\n- We chatted about it for a while.\n"},
		{Title: "2026-08-09 11:30 — Port fix", Text: "## 2026-08-09 11:30 — Port fix\n### Discovery\n- An old container held port 3000!\n"},
	}
	got := Builtin(srcs)
	want := []string{
		"2026-08-01, 2026-08-02: Fixed a flaky test in `internal/ledger`.",
		"2026-08-04 10:00, 2026-08-09 11:30 — Port fix: An old container held port 3000.",
		"Only chatter or filler on 2026-08-03.",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Builtin =\n%q\nwant\n%q", got, want)
	}
}

// TestBuiltinMergesIntoKept: an earlier block's bullets are kept word for
// word (even one that reads like chatter), repeats of them only add dates,
// and the chatter line is one line across compactions.
func TestBuiltinMergesIntoKept(t *testing.T) {
	kept := "- 2026-01-03, 2026-01-05: Prefers short answers with the command first.\n- Thanks to the retry fix, CI is green.\n- Only chatter or filler on 2026-01-04.\n"
	srcs := []Source{
		{Text: kept, Kept: true},
		{Text: "- 2026-02-01: Prefers short answers with the command first.\n- 2026-02-02: Good session overall.\n- 2026-02-03: Wants tests first.\n"},
	}
	got := Builtin(srcs)
	want := []string{
		"2026-01-03, 2026-01-05, 2026-02-01: Prefers short answers with the command first.",
		"Thanks to the retry fix, CI is green.",
		"2026-02-03: Wants tests first.",
		"Only chatter or filler on 2026-01-04, 2026-02-02.",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Builtin =\n%q\nwant\n%q", got, want)
	}
}

// TestBuiltinTitleIntoKept: an entry that repeats, under the same title,
// what an earlier block already holds adds its date to that bullet.
func TestBuiltinTitleIntoKept(t *testing.T) {
	srcs := []Source{
		{Text: "- 2026-01-06 — Debugged flaky CI: CI flaked on `TestLedgerSync`.\n- 2026-01-14 — Incident: disk full: stage-eu-1 ran out of disk.\n", Kept: true},
		{Title: "2026-01-18 — Debugged flaky CI", Text: "### 2026-01-18 — Debugged flaky CI\n- CI flaked on `TestLedgerSync`.\n"},
		{Title: "2026-01-27 — Incident: disk full", Text: "### 2026-01-27 — Incident: disk full\n- stage-eu-1 ran out of disk.\n- ok\n"},
	}
	want := []string{
		"2026-01-06, 2026-01-18 — Debugged flaky CI: CI flaked on `TestLedgerSync`.",
		"2026-01-14, 2026-01-27 — Incident: disk full: stage-eu-1 ran out of disk.",
	}
	if got := Builtin(srcs); !reflect.DeepEqual(got, want) {
		t.Errorf("Builtin =\n%q\nwant\n%q", got, want)
	}
}

func TestSplitStamp(t *testing.T) {
	for _, tc := range []struct{ in, stamp, sep, rest string }{
		{"2026-04-08 14:30 — Port fix", "2026-04-08 14:30", " — ", "Port fix"},
		{"2026-04-08: note", "2026-04-08", ": ", "note"},
		{"**2026-04-08**: note", "2026-04-08", ": ", "note"},
		{"[2026-04-08] - note", "2026-04-08", " - ", "note"},
		{"2026-04-08", "2026-04-08", ": ", ""},
		{"2026-04-08T09:10:11 – x", "2026-04-08T09:10:11", " – ", "x"},
		{"2026-04-08x note", "", "", "2026-04-08x note"},
		{"Released 2026-04-08: v1", "", "", "Released 2026-04-08: v1"},
	} {
		stamp, sep, rest := splitStamp(tc.in)
		if stamp != tc.stamp || sep != tc.sep || rest != tc.rest {
			t.Errorf("splitStamp(%q) = %q, %q, %q; want %q, %q, %q", tc.in, stamp, sep, rest, tc.stamp, tc.sep, tc.rest)
		}
	}
	stamps, sep, rest := splitStamps("2026-01-03, 2026-01-05 10:00 — Port fix: x")
	if !reflect.DeepEqual(stamps, []string{"2026-01-03", "2026-01-05 10:00"}) || sep != " — " || rest != "Port fix: x" {
		t.Errorf("splitStamps = %q, %q, %q", stamps, sep, rest)
	}
}

func TestWorth(t *testing.T) {
	for u, want := range map[string]bool{
		"Sam said thanks for the help today.":               false,
		"Had a nice chat about the weekend.":                false,
		"We talked about naming for a long while.":          false,
		"We chatted about CI providers; no decision.":       false,
		"Sam was in a good mood.":                           false,
		"Nothing else to note.":                             false,
		"Maybe document this in the README?":                false,
		"Port 3000 was busy.":                               true,
		"We talked about naming and decided on memcompact.": true,
		"Sam said thanks; he prefers tabs.":                 true,
		"Thanks to BuildKit the build takes 40 s.":          true,
		"Doesn't work weekends.":                            true,
		"An old container held the port.":                   true,
	} {
		if got := worth(u); got != want {
			t.Errorf("worth(%q) = %v, want %v", u, got, want)
		}
	}
}
