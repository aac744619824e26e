package distill

import (
	"strings"
	"testing"
)

// TestPriorityOf: each sentence's priority kind, written down beforehand
// (ground truth), in the languages of the corpus, in and out of a people
// file.
func TestPriorityOf(t *testing.T) {
	tests := []struct {
		sentence string
		people   bool // in a people file or a person's section
		want     string
	}{
		// health and safety, anywhere
		{"Omar is allergic to peanuts and carries an EpiPen.", false, PriorityHealth},
		{"Never give Mia ibuprofen: asthma.", false, PriorityHealth},
		{"Jonas hat eine Nussallergie und nimmt Cetirizin 10 mg.", false, PriorityHealth},
		{"Sofía es alérgica a la penicilina.", false, PriorityHealth},
		{"王芳对青霉素过敏。", false, PriorityHealth},
		{"佐藤さんは卵アレルギーです。", false, PriorityHealth},
		{"민준은 땅콩 알레르기가 있다.", false, PriorityHealth},
		// a person's attribute, by its own words
		{"Lena's birthday is on 14 March.", false, PriorityPerson},
		{"Dana is married to Chris.", false, PriorityPerson},
		{"Der Geburtstag von Jonas ist am 3. Mai.", false, PriorityPerson},
		{"王芳的生日是五月三日。", false, PriorityPerson},
		// a person's attribute, by its subject: a named person
		{"Omar has two kids.", false, PriorityPerson},
		{"Omar Haddad-Ortega has two kids, Sami and Noor.", false, PriorityPerson},
		{"- 2025-01-20: Lena likes tea, no sugar.", false, PriorityPerson},
		{"Priya is the tech lead for billing.", false, PriorityPerson},
		{"Chen's phone number is in the shared vault.", false, PriorityPerson},
		{"Omar: two kids, lives in Leeds", false, PriorityPerson},
		{"Jonas hat zwei Kinder.", false, PriorityPerson},
		{"Jonas ist 41 Jahre alt.", false, PriorityPerson},
		{"Sofía tiene tres hijos.", false, PriorityPerson},
		{"Marie aime le thé vert.", false, PriorityPerson},
		{"王芳有两个孩子。", false, PriorityPerson},
		{"佐藤さんは猫が好きです。", false, PriorityPerson},
		{"민준은 고양이를 좋아한다.", false, PriorityPerson},
		// a person's attribute, by its place: a people file
		{"Has two kids.", true, PriorityPerson},
		{"She prefers calls after 18:00.", true, PriorityPerson},
		{"Zwei Kinder, 41 Jahre alt.", true, PriorityPerson},
		{"Tiene dos hijos.", true, PriorityPerson},
		{"有两个孩子。", true, PriorityPerson},
		{"子供が二人いる。", true, PriorityPerson},
		{"아이가 둘 있다.", true, PriorityPerson},
		// the same words with no person as subject, outside a people file
		{"Has two kids.", false, ""},
		{"The page shows the age of each cache entry.", false, ""},
		{"The module owns the billing tables.", false, ""},
		// decisions and instructions
		{"Never deploy on Fridays.", false, PriorityDecision},
		{"We decided to pin golangci-lint v1.62.2.", false, PriorityDecision},
		{"Keine Meetings vor 10 Uhr am Montag.", false, ""},
		{"Wir haben entschieden, Go 1.23 zu nutzen.", false, PriorityDecision},
		{"No publicar nunca los viernes.", false, PriorityDecision},
		{"不要在周五合并大的改动。", false, PriorityDecision},
		{"金曜日には絶対にデプロイしない。", false, PriorityHealth},
		// plain observations and chatter
		{"The build took 4 minutes on the new runner.", false, ""},
		{"Die CI lief heute grün.", false, ""},
		{"El servidor de pruebas usa PostgreSQL 16.2.", false, ""},
		{"生产环境使用 Kubernetes 1.29。", false, ""},
		{"Thanks, that was helpful!", false, ""},
	}
	for _, tc := range tests {
		if got := PriorityOf(tc.sentence, tc.people); got != tc.want {
			t.Errorf("PriorityOf(%q, people=%v) = %q, want %q", tc.sentence, tc.people, got, tc.want)
		}
	}
}

// TestNamedSubject: a named person as subject, and look-alikes that are not.
func TestNamedSubject(t *testing.T) {
	yes := []string{"Omar has two kids.", "Dana Levi works at Acme.", "Lena's tea: no sugar", "- 2025-01-17 10:00 — Omar: two kids",
		"Sofía tiene dos hijos.", "佐藤さんは猫が好き", "민준은 고양이를 좋아한다", "王芳有两个孩子"}
	no := []string{"The module has two owners.", "It is 41 years old.", "We like tabs.", "use CI/CD: always", "v1.2 has a fix", "",
		"生产环境使用 Kubernetes", "has two kids"}
	for _, s := range yes {
		if !NamedSubject(s) {
			t.Errorf("NamedSubject(%q) = false, want true", s)
		}
	}
	for _, s := range no {
		if NamedSubject(s) {
			t.Errorf("NamedSubject(%q) = true, want false", s)
		}
	}
}

// TestPeopleFile: files and sections named for people, and others.
func TestPeopleFile(t *testing.T) {
	for name, want := range map[string]bool{"people.md": true, "memory/family.md": true, "Personen.md": true, "## Family": true,
		"家族.md": true, "가족.md": true, "team.md": true, "MEMORY.md": false, "notes/deploy.md": false, "": false} {
		if got := PeopleFile(name); got != want {
			t.Errorf("PeopleFile(%q) = %v, want %v", name, got, want)
		}
	}
}

// FuzzPriorityOf: any sentence is classified without a panic, the same way
// twice, and a sentence about a person by its place never counts less.
func FuzzPriorityOf(f *testing.F) {
	for _, s := range []string{"Omar has two kids.", "- 2025-01-17: Lena's birthday", "佐藤さんは猫が好き", "민준은", "", "**", "Ä: —"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, b := PriorityOf(s, false), PriorityOf(s, false)
		if a != b {
			t.Fatalf("PriorityOf(%q) is %q then %q", s, a, b)
		}
		if a != "" && PriorityOf(s, true) == "" {
			t.Fatalf("PriorityOf(%q) is %q alone and nothing in a people file", s, a)
		}
		_ = NamedSubject(s)
	})
}

// TestPeopleContextKeepsAttributes: in an entry about a person by its
// place (Source.People), "Has two kids." is a priority fact: it survives
// every level and is a must-keep statement; in an entry about nothing in
// particular the same words are a plain observation, gone from the keep
// level on. A named person's attribute is priority anywhere.
func TestPeopleContextKeepsAttributes(t *testing.T) {
	mk := func(people bool) []Source {
		s := entry("2025-01-18 10:00 — Omar", "Has two kids.\n\nThe cafe was closed.\n")
		s.People = people
		n := entry("2025-01-19 10:00 — Dana", "Dana Levi speaks Portuguese.\n")
		return []Source{s, n}
	}
	for lv := 0; lv < Levels; lv++ {
		got := bullets(mk(true), lv)
		if !strings.Contains(got, "Has two kids.") || !strings.Contains(got, "Dana Levi speaks Portuguese.") {
			t.Errorf("people, level %d lost an attribute: %q", lv, got)
		}
	}
	if got := bullets(mk(false), 1); strings.Contains(got, "Has two kids.") || !strings.Contains(got, "Dana Levi speaks Portuguese.") {
		t.Errorf("no people context, level 1: %q", got)
	}
	keep := strings.Join(MustKeep(mk(true)), "\n")
	if !strings.Contains(keep, "Has two kids.") || strings.Contains(keep, "The cafe was closed.") {
		t.Errorf("MustKeep with people context: %q", keep)
	}
	if keep := strings.Join(MustKeep(mk(false)), "\n"); strings.Contains(keep, "Has two kids.") {
		t.Errorf("MustKeep without people context: %q", keep)
	}
}
