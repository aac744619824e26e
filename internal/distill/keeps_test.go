package distill

import (
	"strings"
	"testing"
)

// TestHealthFactSurvivesEveryLevel: a priority fact stays word for word at
// every level, and a chatter sentence beside it goes without taking it.
func TestHealthFactSurvivesEveryLevel(t *testing.T) {
	srcs := []Source{
		entry("2025-01-17 10:00 — Allergy", "Omar is allergic to peanuts and carries an EpiPen. Nothing more.\n"),
		entry("2025-01-18 10:00 — Chat", "Thanks for the good session!\n"),
	}
	for lv := 0; lv < Levels; lv++ {
		got := bullets(srcs, lv)
		if !strings.Contains(got, "Omar is allergic to peanuts and carries an EpiPen.") {
			t.Errorf("level %d lost the allergy: %q", lv, got)
		}
		if strings.Contains(got, "Nothing more") || strings.Contains(got, "Chat") && lv < LevelMonth {
			t.Errorf("level %d kept chatter: %q", lv, got)
		}
	}
}

// TestPlainFactsKeptAtFirstLevel: sentences with no signal word but a
// fact (a number, a name, a path) stay at the first level.
func TestPlainFactsKeptAtFirstLevel(t *testing.T) {
	srcs := []Source{entry("2025-03-02 09:00 — Infra", "The staging box runs Postgres 16.2 on port 5433.\nAnna Weber owns the billing service.\n")}
	got := bullets(srcs, LevelSignal)
	for _, want := range []string{"Postgres 16.2 on port 5433.", "Anna Weber owns the billing service."} {
		if !strings.Contains(got, want) {
			t.Errorf("lost %q: %q", want, got)
		}
	}
}

// TestReversalInstead: a later "… instead" marks the earlier choice as
// superseded and keeps itself current, at every level.
func TestReversalInstead(t *testing.T) {
	srcs := []Source{
		entry("2024-03-02 09:00 — Weekend", "The family goes swimming on Saturdays.\n"),
		entry("2024-05-11 09:00 — Weekend", "The family goes swimming on Sundays instead.\n"),
	}
	for lv := 0; lv < Levels; lv++ {
		got := bullets(srcs, lv)
		if !strings.Contains(got, "swimming on Sundays instead.") {
			t.Errorf("level %d lost the current side: %q", lv, got)
		}
		if strings.Contains(got, "on Saturdays.") && !strings.Contains(got, "on Saturdays. (superseded 2024-05-11 09:00)") {
			t.Errorf("level %d states the old side as current: %q", lv, got)
		}
	}
}

// TestChatterOnlyEntriesVanishInOtherLanguages: a German or Chinese entry
// of nothing but chatter leaves no bullet, not even its title.
func TestChatterOnlyEntriesVanishInOtherLanguages(t *testing.T) {
	srcs := []Source{
		entry("2025-02-01 10:00 — Kurzes Gespräch", "Danke, gutes Gespräch.\n"),
		entry("2025-02-02 10:00 — 闲聊", "谢谢，聊得很开心。\n"),
		entry("2025-02-03 10:00 — Allergie", "Lena ist allergisch gegen Nüsse.\n"),
	}
	got := bullets(srcs, LevelSignal)
	if strings.Contains(got, "Gespräch") || strings.Contains(got, "闲聊") {
		t.Errorf("chatter left a bullet: %q", got)
	}
	if !strings.Contains(got, "Lena ist allergisch gegen Nüsse.") {
		t.Errorf("lost the German fact: %q", got)
	}
}

// TestPeopleFileNoDates: sections per person with no dates keep every
// name and every health fact at every level.
func TestPeopleFileNoDates(t *testing.T) {
	srcs := []Source{
		entry("Omar Haddad-Ortega", "- Likes tea.\n- Allergic to peanuts; carries an EpiPen.\n"),
		entry("Mia Chen", "- Likes hiking.\n"),
		entry("Jonas Berg", "- Has asthma and keeps an inhaler in his bag.\n"),
	}
	for lv := 0; lv < Levels; lv++ {
		got := bullets(srcs, lv)
		for _, want := range []string{"Omar Haddad-Ortega", "Mia Chen", "Jonas Berg", "Allergic to peanuts; carries an EpiPen.", "Has asthma and keeps an inhaler in his bag."} {
			if !strings.Contains(got, want) {
				t.Errorf("level %d lost %q: %q", lv, want, got)
			}
		}
	}
}

// TestStatsByKind: the counts say what was kept and what went, by kind,
// and a level that drops observations counts them dropped.
func TestStatsByKind(t *testing.T) {
	srcs := []Source{
		entry("2025-01-17 10:00 — Allergy", "Omar is allergic to peanuts. Nothing more.\n"),
		entry("2025-01-18 10:00 — Infra", "The box runs Postgres 16.\n\nThe box runs Postgres 16.\n\nDecided to keep nightly backups.\n"),
		entry("2025-01-19 10:00 — Chat", "Thanks, good session!\n"),
	}
	_, st := NewCache().DistillStats(srcs, LevelSignal)
	if st.Kept[KindPriority] != 1 || st.Kept[KindObservation] != 1 || st.Kept[KindDecision] != 1 {
		t.Errorf("kept at the first level: %v", st.Kept)
	}
	if st.Dropped[KindChatter] != 2 || st.Dropped[KindDuplicate] != 1 || st.Dropped[KindPriority] != 0 {
		t.Errorf("dropped at the first level: %v", st.Dropped)
	}
	_, st = NewCache().DistillStats(srcs, LevelKeep)
	if st.Dropped[KindObservation] != 1 || st.Kept[KindPriority] != 1 || st.Kept[KindDecision] != 1 {
		t.Errorf("keep level: kept %v dropped %v", st.Kept, st.Dropped)
	}
}

// TestKeptBlockPriority: a priority fact an earlier block kept in a
// bullet beside an observation stays live at every level when the block
// is condensed again, and counts as one that must stay.
func TestKeptBlockPriority(t *testing.T) {
	srcs := []Source{
		{Text: "- 2026-01-01 09:00 — Standup 3: Omar shipped change 3 to service-3. Omar is allergic to peanuts and carries an EpiPen.\n", Kept: true},
		{Title: "## 2026-01-02 09:00 — Standup 4", Text: "## 2026-01-02 09:00 — Standup 4\n- Lena shipped change 4 to service-4.\n"},
	}
	const fact = "Omar is allergic to peanuts and carries an EpiPen."
	for lv := 0; lv < Levels; lv++ {
		bl, st := NewCache().DistillStats(srcs, lv)
		if !strings.Contains(strings.Join(bl, "\n"), fact) {
			t.Errorf("level %d dropped the kept health fact: %q", lv, bl)
		}
		if lv > 0 && st.Kept[KindPriority] == 0 {
			t.Errorf("level %d does not count the kept health fact as priority: %+v", lv, st)
		}
	}
	if mk := MustKeep(srcs); len(mk) != 1 || mk[0] != fact {
		t.Errorf("MustKeep = %q", mk)
	}
}

// TestBlockMergedByPeriod: an earlier block's month lines merge into
// their quarter, then quarters into the year; the health fact stays its
// own bullet until the year level, where it is written out on the line.
func TestBlockMergedByPeriod(t *testing.T) {
	kept := Source{Kept: true, Text: "- 2025-01 — 3 entries: A; B; C.\n- 2025-02 — 2 entries: D; E.\n- 2025-04 — 1 entry: F.\n" +
		"- 2025-02-03 09:00 — Omar: Omar is allergic to peanuts and carries an EpiPen.\n- 2025-Q3 — 2 entries: G; H.\n"}
	srcs := []Source{kept, entry("2025-09-01 09:00 — Misc", "- Looked at logs.\n")}
	got := bullets(srcs, LevelQuarter)
	want := "2025-Q1 — 5 entries: A; B; C; D; E.\n2025-Q2 — 1 entry: F.\n2025-02-03 09:00 — Omar: Omar is allergic to peanuts and carries an EpiPen.\n2025-Q3 — 3 entries: G; H; Misc."
	if got != want {
		t.Errorf("quarter level: got\n%s\nwant\n%s", got, want)
	}
	got = bullets(srcs, LevelYear)
	want = "2025 — 10 entries. Kept: Omar is allergic to peanuts and carries an EpiPen."
	if got != want {
		t.Errorf("year level: got\n%s\nwant\n%s", got, want)
	}
}
