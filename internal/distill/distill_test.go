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
		"2026-04-08 14:30 — Port fix: Port 3000 was busy.",
		"An old container held the port.",
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
