package sweepact

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/records"
)

// bodyOf reads text as an entry file, as a plan does.
func bodyOf(t *testing.T, text string) *body {
	t.Helper()
	if text == "" {
		return &body{Front: map[string]string{}}
	}
	p := filepath.Join(t.TempDir(), "e.md")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := readBody(nil, p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// judgeLine is finishedCall on one index line whose only subject is e.md.
func judgeLine(t *testing.T, ledger *records.Ledger, line, text string) (call, bool) {
	t.Helper()
	l := index.Parse([]string{line}).Lines[0]
	return finishedCall(ledger, "e@unknown", line, l.Links, ownLinks(&l, "e"), bodyOf(t, text))
}

// TestFinishedByStructure: an entry is finished by what its records,
// frontmatter, index tag, status lines and headline's status positions
// say — in five languages, negation-, count- and scope-aware — never by a
// word somewhere in its text. The rows marked "issue" are the calls a
// plan once made by substring that no owner would sign.
func TestFinishedByStructure(t *testing.T) {
	fm := func(extra, body string) string {
		return "---\nname: e\ndescription: an entry\nmetadata:\n  type: project\n" + extra + "---\n" + body
	}
	for _, tt := range []struct {
		name, line, text string
		rule             string // "" when no rule decided
		done             bool
	}{
		// frontmatter
		{"status done", "- [e](e.md) — x", fm("  status: done\n", ""), "frontmatter", true},
		{"status shipped", "- [e](e.md) — x", fm("  status: shipped\n", ""), "frontmatter", true},
		{"status active vetoes wording", "- [Migration COMPLETE](e.md) — x", fm("  status: active\n", ""), "frontmatter", false},
		{"status in progress", "- [e](e.md) — x", fm("  status: in progress\n", ""), "frontmatter", false},
		{"superseded_by", "- [e](e.md) — x", fm("superseded_by: f.md\n", ""), "frontmatter", true},
		// index tags
		{"tag shipped", "- **[Spec 102](e.md)** `[shipped]` — backfill script", "", "index tag", true},
		{"tag active vetoes", "- **[hermes sync shipped — PR open](e.md)** `[active]` — x", "", "index tag", false},
		// status lines
		{"status line resolved", "- [e](e.md) — x", fm("", "**Status:** RESOLVED — the retry landed\n"), "status line", true},
		{"status line with date", "- [e](e.md) — x", fm("", "Status (2026-05-01): open\nStatus (2026-06-01): done\n"), "status line", true},
		{"status line later date open", "- [e](e.md) — x", fm("", "Status (2026-06-01): done\nStatus (2026-07-01): open again, a regression\n"), "status line", false},
		{"status line in a code example", "- [e](e.md) — x", fm("", "Write it so:\n```yaml\nstatus: done\n```\n"), "", false},
		{"status line partial", "- [e](e.md) — x", fm("", "**Status:** Phase 1-4 done (2026-03-14). Phase 5 pending: package as plugin.\n"), "status line", false},
		{"Korean status", "- [e](e.md) — x", fm("", "상태: 완료\n"), "status line", true},
		{"Korean status unpublished", "- [e](e.md) — x", fm("", "상태: 9편 본문 작성 + 검수 완료, **미발행**. 다음 단계는 검토\n"), "status line", false},
		{"Chinese status", "- [e](e.md) — x", fm("", "状态：已完成\n"), "status line", true},
		{"Japanese status", "- [e](e.md) — x", fm("", "ステータス: 完了\n"), "status line", true},
		{"German status", "- [e](e.md) — x", fm("", "Stand: erledigt\n"), "status line", true},
		{"German status not yet", "- [e](e.md) — x", fm("", "Stand: noch nicht behoben\n"), "status line", false},
		// title wording
		{"title last word", "- **[Herald darkness resolved (2026-06-02)](e.md)** — digest pipeline", "", "title wording", true},
		{"title after a dash", "- **[Endpoint offline — RESOLVED (2026-06-01)](e.md)** — model moved", "", "title wording", true},
		{"title COMPLETE with ref", "- [Phase 7A validation COMPLETE `57e665cf`](e.md) — tested", "", "title wording", true},
		{"title mid-sentence", "- [Filter resolved PR comments](e.md) — exclude resolved threads", "", "", false},
		{"title negated open", "- [**DG-159 LANDED 09-04 — ONE SCALE, NOT LIVE**](e.md) — anchor 20", "", "", false},
		{"title count", "- [Shadow gates: 20 completed](e.md) — x", "", "", false},
		{"title ratio", "- [Workstream sequence — 9/9 COMPLETE](e.md) — all items", "", "", false},
		{"Chinese title glued", "- [数据迁移已完成](e.md) — 旧表已删除", "", "title wording", true},
		{"Chinese title unfinished", "- [数据迁移未完成](e.md) — 旧表", "", "", false},
		{"Korean title", "- [마이그레이션 완료](e.md) — 구 테이블 삭제", "", "title wording", true},
		{"Japanese title", "- [移行 完了](e.md) — 旧テーブル削除", "", "title wording", true},
		{"German title", "- [Umzug abgeschlossen](e.md) — alte Tabelle gelöscht", "", "title wording", true},
		{"German title negated", "- [Umzug nicht abgeschlossen](e.md) — x", "", "", false},
		// hook wording
		{"hook bracketed status", "- [Portfolio Blockers](e.md) — audit blocks deploy (RESOLVED — Plausible now working)", "", "hook wording", true},
		{"hook leading label", "- [Rate limit incident](e.md) — **RESOLVED:** handler deployed", "", "hook wording", true},
		{"hook Korean alone", "- [e](e.md) — ✅ 완료", "", "hook wording", true},
		{"hook list of states (issue: archive index)", "- [memory_archive_dormant.md](e.md) — All stale/completed/dormant entries moved from MEMORY.md", fm("", ""), "", false},
		{"description list (issue: archive index)", "- [e](e.md) — archive", "---\nname: Dormant entries\ndescription: Stale, completed, or dormant entries moved from MEMORY.md\n---\nx\n", "", false},
		{"hook glued Korean (issue: 검증완료)", "- [project_ppt-deck-skill.md](e.md) — 빌드. QA는 렌더. 36 variant 검증완료", "", "", false},
		{"hook Korean part done", "- [e](e.md) — 배포 계획 (PRD 작성 완료)", "", "", false},
		{"hook Korean open (미해결)", "- [e](e.md) — 오토필 연동 완료, Threads API 인증 미해결.", "", "", false},
		{"hook count (issue: 20 completed)", "- [Scoped work freeze](e.md) — no model-use before gates met (20 completed 5d + 20 completed 20d)", "", "", false},
		{"hook not committed (issue: reuse landed)", "- [**DG-187 workspace frame; reuse landed rankText; not committed**](e.md) — x", "", "", false},
		{"hook states it", "- [alpha project](e.md) — the coupled-field migration is RESOLVED; both fields moved together", "", "hook wording", true},
		{"hook states it later", "- [alpha](e.md) — both fields moved; the migration is resolved", "", "", false},
		{"hook states it negated", "- [alpha](e.md) — the migration is not yet resolved", "", "", false},
		{"German hook states it", "- [Umzug](e.md) — der Umzug ist abgeschlossen", "", "hook wording", true},
		{"hook prose fixed", "- [CSS segments](e.md) — pattern for fixed-width segmented bars", "", "", false},
		{"nothing", "- [e](e.md) — a fact about retries", fm("", "Retry three times.\n"), "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, done := judgeLine(t, nil, tt.line, tt.text)
			if c.rule != tt.rule || done != tt.done {
				t.Errorf("%q: call %q done %v, want rule %q done %v", tt.line, c, done, tt.rule, tt.done)
			}
		})
	}
}

// TestFinishedByLedger: the owner's settlement in the ledger keeps an
// entry whatever its words; a proposed exit marks it finished on the
// record.
func TestFinishedByLedger(t *testing.T) {
	for _, tt := range []struct {
		row  string
		done bool
	}{
		{"2026-11-01 | executed | settle-in-place | e@unknown | the owner keeps it | none", false},
		{"2026-11-01 | proposed | demote | e@unknown | finished | ARCHIVE.md", true},
		{"2026-11-01 | proposed | demote | e@unknown | finished | ARCHIVE.md\n2026-11-02 | executed | restore | e@unknown | back | MEMORY.md", false},
	} {
		l := records.ParseLedger("LEDGER.md", records.LedgerMarker+"\n"+tt.row+"\n", asOf20261204)
		c, done := judgeLine(t, l, "- [Migration COMPLETE](e.md) — x", "")
		if c.rule != "ledger" || done != tt.done {
			t.Errorf("%q: call %q done %v, want ledger %v", tt.row, c, done, tt.done)
		}
	}
}

// TestCriticalByStructure: critical comes from the frontmatter and pins;
// the index line's words are prose and make no call.
func TestCriticalByStructure(t *testing.T) {
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"---\nname: e\ndescription: d\nmetadata:\n  pinned: true\n---\nx\n", true},
		{"---\nname: e\ndescription: d\ncritical: yes\n---\nx\n", true},
		{"---\nname: e\ndescription: d\npriority: critical\n---\nx\n", true},
		{"---\nname: e\ndescription: d\npriority: high\n---\nx\n", false},
		{"---\nname: e\ndescription: Taggart critical perspective on the draft\n---\n0 CRITICAL findings\n", false},
		{"no frontmatter, CRITICAL: read first\n", false},
	} {
		if _, got := criticalCall(bodyOf(t, tt.text)); got != tt.want {
			t.Errorf("%q: critical %v, want %v", tt.text, got, tt.want)
		}
	}
}

// FuzzFinishedCall: the judgement is total on any index line and entry
// text, and a call always names its rule.
func FuzzFinishedCall(f *testing.F) {
	for _, s := range []string{"- [a](e.md) `[shipped]` — x", "Status: done", "상태: 완료", "- [数据迁移已完成](e.md)", "**Status (2026-01-01):** open"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, line, text string) {
		l := index.Parse([]string{line}).Lines[0]
		b := &body{Exists: true, Text: text, Front: map[string]string{"status": firstWord(text), "description": text}}
		c, done := finishedCall(nil, "e@unknown", line, l.Links, ownLinks(&l, "e"), b)
		if done && c.rule == "" {
			t.Fatalf("finished with no rule: %q / %q", line, text)
		}
		if strings.ContainsRune(c.String(), '\n') && !strings.Contains(text, "\n") && !strings.Contains(line, "\n") {
			t.Fatalf("a call grew a line break: %q", c)
		}
	})
}
