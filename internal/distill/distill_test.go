package distill

import (
	"strings"
	"testing"
	"unicode"

	"github.com/memcompact/memcompact/internal/testshared/short"
)

func bullets(srcs []Source, level int) string {
	return strings.Join(Distill(srcs, level), "\n")
}

func entry(title, body string) Source {
	return Source{Title: title, Text: "## " + title + "\n" + body}
}

// TestWordLists: every language has each class the summarizer relies on,
// and the lists load.
func TestWordLists(t *testing.T) {
	files, err := wordFiles.ReadDir("words")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 7 {
		t.Fatalf("%d word lists, want at least 7 (en de fr es zh ja ko)", len(files))
	}
	if _, err := loadLexicon(); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		raw, _ := wordFiles.ReadFile("words/" + f.Name())
		for _, c := range []class{classFiller, classChatter, classKeep, classResult, classNegation} {
			if !strings.Contains(string(raw), "["+string(c)+"]") {
				t.Errorf("%s has no [%s] section", f.Name(), c)
			}
		}
	}
}

// TestChatterVanishes: an entry of nothing but chatter leaves no bullet,
// in every language; a statement next to it survives.
func TestChatterVanishes(t *testing.T) {
	for lang, chat := range map[string]string{
		"en": "- Thanks, good session.\n- Nothing more.\n",
		"de": "- Danke, gutes Gespräch.\n- Nichts weiter.\n",
		"fr": "- Merci, bonne séance.\n- Rien à signaler.\n",
		"es": "- Gracias, buena charla.\n- Nada más.\n",
		"zh": "- 谢谢，闲聊了一会儿。\n- 没什么新的。\n",
		"ja": "- ありがとうございます。雑談しました。\n- 特になし\n",
		"ko": "- 감사합니다. 잡담을 나눴다.\n- 특이사항 없음\n",
	} {
		srcs := []Source{entry("2026-01-02 10:00 — Chat", chat), entry("2026-01-03 10:00 — Real", "- Decided to pin Go 1.22.\n")}
		got := bullets(srcs, LevelSignal)
		if strings.Contains(got, "Chat") || !strings.Contains(got, "Decided to pin Go 1.22.") {
			t.Errorf("%s: got\n%s", lang, got)
		}
	}
}

// TestKeepPerLanguage: a preference or rule is must-keep in every language.
func TestKeepPerLanguage(t *testing.T) {
	for lang, s := range map[string]string{
		"en": "Prefers short answers.", "de": "Bevorzugt kurze Antworten.", "fr": "Préfère les réponses courtes.",
		"es": "Prefiere respuestas cortas.", "zh": "喜欢简短的回答。", "ja": "短い回答を好む。", "ko": "짧은 답변을 선호한다.",
	} {
		if !keepText(s) {
			t.Errorf("%s: %q is not must-keep", lang, s)
		}
	}
	if keepText("We walked around the block.") {
		t.Error("a plain sentence is must-keep")
	}
}

// TestNothingMore: a preference that also says "Nothing more." is kept.
func TestNothingMore(t *testing.T) {
	got := bullets([]Source{{Text: "- 2026-01-03: Prefers short answers. Nothing more.\n"}}, LevelKeep)
	if !strings.Contains(got, "Prefers short answers. Nothing more.") {
		t.Errorf("got %q", got)
	}
}

// TestReversal: a later reversal is never merged into the rule it
// reverses; the older is marked superseded and the newer stands.
func TestReversal(t *testing.T) {
	srcs := []Source{
		{Text: "- 2026-01-05: Never auto-merge Renovate PRs.\n"},
		{Text: "- 2026-03-01: Auto-merge Renovate PRs.\n"},
	}
	got := bullets(srcs, LevelSignal)
	want := "2026-01-05: Never auto-merge Renovate PRs. (superseded 2026-03-01)\n2026-03-01: Auto-merge Renovate PRs."
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// A reversal later in the file (mid or newest tier) marks it too.
	got = bullets([]Source{srcs[0], {Text: "- 2026-04-01: Auto-merge Renovate PRs.\n", Later: true}}, LevelSignal)
	if got != "2026-01-05: Never auto-merge Renovate PRs. (superseded 2026-04-01)" {
		t.Errorf("later: got %q", got)
	}
	if strings.Contains(got, "reaffirm") {
		t.Error("reaffirmed")
	}
}

// TestPeopleList: each person's attributes and events stay under that
// person; the same attribute of two people is two facts.
func TestPeopleList(t *testing.T) {
	srcs := []Source{
		{Text: "- **Anna** — colleague\n  - Allergic to nuts.\n  - 2026-01-03: moved to Berlin\n  - Allergic to nuts.\n", Parent: "## People"},
		{Text: "- **Ben** — neighbour\n  - Allergic to nuts.\n  - 2026-02-01: new job\n", Parent: "## People"},
	}
	got := bullets(srcs, LevelSignal)
	want := "**Anna** — colleague\n- Allergic to nuts.\n- 2026-01-03: moved to Berlin\n**Ben** — neighbour\n- Allergic to nuts.\n- 2026-02-01: new job"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestFullWidthColonMerges: the same statement with "：" or "—" after its
// date merges; a different parent does not.
func TestFullWidthColonMerges(t *testing.T) {
	srcs := []Source{{Text: "- 2026-01-03: 喜欢用制表符。\n"}, {Text: "- 2026-02-07：喜欢用制表符。\n"}, {Text: "- 2026-03-01 — 喜欢用制表符。\n"}}
	if got := bullets(srcs, LevelSignal); got != "2026-01-03, 2026-02-07, 2026-03-01: 喜欢用制表符。" {
		t.Errorf("got %q", got)
	}
	srcs[1].Parent = "## Work"
	if got := Distill(srcs, LevelSignal); len(got) != 2 {
		t.Errorf("merged across parents: %q", got)
	}
}

// TestStructureWhole: code blocks and tables are never split into
// bullets: they stay whole, nested under their entry's bullet, and only
// at the keep level leave for the snapshot, the bullet naming them; a
// Why/How group stays with its rule.
func TestStructureWhole(t *testing.T) {
	body := "- Always run the linter before pushing.\n**Why:** CI rejects unlinted code.\n**How to apply:** run `make lint`.\n\n```sh\nmake lint\n  go vet ./...\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
	got := bullets([]Source{entry("2026-01-02 09:00 — Lint", body)}, LevelSignal)
	want := "2026-01-02 09:00 — Lint: Always run the linter before pushing. **Why:** CI rejects unlinted code. **How to apply:** run `make lint`.\n```sh\nmake lint\n  go vet ./...\n```\n| a | b |\n|---|---|\n| 1 | 2 |"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	got = bullets([]Source{entry("2026-01-02 09:00 — Lint", body)}, LevelKeep)
	want = "2026-01-02 09:00 — Lint: Always run the linter before pushing. **Why:** CI rejects unlinted code. **How to apply:** run `make lint`. (1 code block, 1 table in the snapshot)"
	if got != want {
		t.Errorf("keep level: got\n%s\nwant\n%s", got, want)
	}
}

// TestLevels: each level keeps less; the must-keep statement stays, in
// its own bullet while months and then quarters merge, at the last level
// on its year's line.
func TestLevels(t *testing.T) {
	srcs := []Source{
		entry("2026-01-02 09:00 — Setup", "- Installed the tools.\n- Fixed the PATH by adding ~/bin.\n"),
		entry("2026-01-09 09:00 — Style", "- Prefers tabs.\n"),
		entry("2026-02-01 09:00 — Misc", "- Looked at logs.\n"),
	}
	for lv, want := range []string{
		"2026-01-02 09:00 — Setup: Installed the tools. Fixed the PATH by adding ~/bin.\n2026-01-09 09:00 — Style: Prefers tabs.\n2026-02-01 09:00 — Misc: Looked at logs.",
		"2026-01-02 09:00 — Setup\n2026-01-09 09:00 — Style: Prefers tabs.\n2026-02-01 09:00 — Misc",
		"2026-01 — 1 entry: Setup.\n2026-01-09 09:00 — Style: Prefers tabs.\n2026-02 — 1 entry: Misc.",
		"2026-Q1 — 2 entries: Setup; Misc.\n2026-01-09 09:00 — Style: Prefers tabs.",
		"2026 — 3 entries. Kept: Prefers tabs.",
	} {
		if got := bullets(srcs, lv); got != want {
			t.Errorf("level %d: got\n%s\nwant\n%s", lv, got, want)
		}
	}
	// An earlier block's bullets condense the same way at the higher
	// levels, and stay as they are at the first.
	kept := Source{Kept: true, Text: "- 2025-12-01 10:00 — Old: Looked around. Never force-push main.\n- 2025-12 — 2 entries: A; B.\n"}
	if got := bullets([]Source{kept}, LevelSignal); got != "2025-12-01 10:00 — Old: Looked around. Never force-push main.\n2025-12 — 2 entries: A; B." {
		t.Errorf("kept, level 0: %q", got)
	}
	if got := bullets([]Source{kept}, LevelMonth); got != "2025-12-01 10:00 — Old: Never force-push main.\n2025-12 — 2 entries: A; B." {
		t.Errorf("kept, level 2: %q", got)
	}
	if got := bullets([]Source{kept, srcs[0]}, LevelYear); got != "2025 — 3 entries. Kept: Never force-push main.\n2026 — 1 entry." {
		t.Errorf("kept, level 3: %q", got)
	}
}

// TestLighten: only exact repeats within one entry under one parent,
// filler and doubled blank lines go.
func TestLighten(t *testing.T) {
	in := []string{"## 2026-01-01 — People\n", "- Anna\n", "  - Allergic to nuts.\n", "  - Allergic to nuts.\n", "- Ben\n", "  - Allergic to nuts.\n", "\n", "\n", "- n/a\n", "- Prefers tea.\n", "- Prefers tea.\n"}
	got := strings.Join(Lighten(in), "")
	want := "## 2026-01-01 — People\n- Anna\n  - Allergic to nuts.\n- Ben\n  - Allergic to nuts.\n\n- Prefers tea.\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestParseBullets(t *testing.T) {
	got := ParseBullets("## Compacted History\n*Distilled from 2 entries.*\n- one\n* two\n\n---\n")
	if strings.Join(got, "|") != "one|two" {
		t.Errorf("got %q", got)
	}
}

// TestHasCJKEveryRune checks hasCJK's byte shortcut against the plain rule
// on every code point, alone and after ASCII and two-byte letters.
func TestHasCJKEveryRune(t *testing.T) {
	for r := range short.Runes() {
		want := unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
		for _, s := range []string{string(r), "ab é " + string(r), string(r) + " x"} {
			if got := hasCJK(s); got != want {
				t.Fatalf("hasCJK(%q) = %v, want %v", s, got, want)
			}
		}
	}
}

// keyPlain is Key's rule written plainly: the reference for its byte
// shortcuts.
func keyPlain(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(Narrow(s)) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteRune(r)
			space = false
		} else {
			space = true
		}
	}
	return b.String()
}

// TestKeyEveryRune checks Key against keyPlain on every code point between
// other text, and on invalid UTF-8.
func TestKeyEveryRune(t *testing.T) {
	for r := range short.Runes() {
		s := "Ab " + string(r) + "Z9" + string(r)
		if got, want := Key(s), keyPlain(s); got != want {
			t.Fatalf("Key(%q) = %q, want %q", s, got, want)
		}
	}
	for _, s := range []string{"a\xffb", "\xe6\x97", "ＡＢＣ　ｄｅｆ：１２", "  Hello,   World!  ", ""} {
		if got, want := Key(s), keyPlain(s); got != want {
			t.Errorf("Key(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestMergeAcrossRounds: a new list item that repeats a one-line bullet of
// an earlier block (the same after whitespace, width, date and separator)
// merges into it, keeping both dates, when the block's parent is known
// and is the item's; never across parents, never when unknown.
func TestMergeAcrossRounds(t *testing.T) {
	block := "- 2026-01-03: Prefers tabs in Go files.\n- 2026-01-04: Uses ripgrep for search.\n"
	item := func(text, parent string) Source { return Source{Text: text, Parent: parent} }
	for _, tc := range []struct {
		name, blockParent, itemParent, item string
		want                                string
	}{
		{"same parent", "## Preferences", "## Preferences", "- 2026-02-07: Prefers tabs in Go files.\n",
			"2026-01-03, 2026-02-07: Prefers tabs in Go files.\n2026-01-04: Uses ripgrep for search."},
		{"width and spacing", "## Preferences", "## Preferences", "- 2026-02-07：Prefers  tabs in Go files.\n",
			"2026-01-03, 2026-02-07: Prefers tabs in Go files.\n2026-01-04: Uses ripgrep for search."},
		{"other parent", "## Preferences", "## Work", "- 2026-02-07: Prefers tabs in Go files.\n",
			"2026-01-03: Prefers tabs in Go files.\n2026-01-04: Uses ripgrep for search.\n2026-02-07: Prefers tabs in Go files."},
		{"parent unknown", "", "## Preferences", "- 2026-02-07: Prefers tabs in Go files.\n",
			"2026-01-03: Prefers tabs in Go files.\n2026-01-04: Uses ripgrep for search.\n2026-02-07: Prefers tabs in Go files."},
		{"different statement", "## Preferences", "## Preferences", "- 2026-02-07: Prefers spaces in Go files.\n",
			"2026-01-03: Prefers tabs in Go files.\n2026-01-04: Uses ripgrep for search.\n2026-02-07: Prefers spaces in Go files."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srcs := []Source{{Text: block, Kept: true, Parent: tc.blockParent}, item(tc.item, tc.itemParent)}
			if got := bullets(srcs, LevelSignal); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
	// At the keep level the merged statement is written once.
	srcs := []Source{{Text: block, Kept: true, Parent: "## P"}, item("- 2026-02-07: Prefers tabs in Go files.\n", "## P")}
	if got := bullets(srcs, LevelYear); strings.Count(got, "Prefers tabs") != 1 || !strings.Contains(got, "2026 — 2 entries") {
		t.Errorf("year level: %s", got)
	}
}
