package distill

import (
	"path"
	"strings"
	"unicode"

	"github.com/memcompact/memcompact/internal/lazyre"
)

// Kinds of priority fact: what no summary may drop silently. A summary
// keeps each, or declares it dropped; the built-in summarizer keeps each
// at every level and stops with a shortfall when the budget cannot hold
// them.
const (
	PriorityHealth   = "health"   // health and safety: an allergy, a medication, a danger
	PriorityPerson   = "person"   // a person's attribute: family, age, role, likes, birthday, contact
	PriorityDecision = "decision" // a decision, instruction, preference or rule
)

// PriorityOf classifies one sentence: a health or safety fact, a person's
// attribute, a decision or instruction, or "" for none of them. people
// says the sentence is about a person by its place (a people file, a
// person's section): then "Has two kids." is a person's attribute; outside
// one, the sentence's own subject must be a named person ("Omar has two
// kids."). Whether a decision is still current is for the tier to say (a
// later entry may reverse it): see the verifier.
func PriorityOf(sentence string, people bool) string {
	k := withoutChatter(Key(sentence))
	if k == "" {
		return ""
	}
	switch {
	case has(k, classPriority) || hasStem(k, healthStems):
		return PriorityHealth
	case has(k, classPerson):
		return PriorityPerson
	case has(k, classAttribute) && (people || NamedSubject(sentence)):
		return PriorityPerson
	case has(k, classKeep):
		return PriorityDecision
	}
	return ""
}

// healthStems are found inside words too: German and Dutch write compounds
// ("Nussallergie", "Laktoseintoleranz") that no word list can hold.
var healthStems = []string{"allerg", "alerg", "epipen", "anaphyla", "asthma", "diabet", "insulin", "epilep", "intoleran", "unverträglich"}

func hasStem(k string, stems []string) bool {
	for _, s := range stems {
		if strings.Contains(k, s) {
			return true
		}
	}
	return false
}

// peopleNames are the base names (lower case, no extension) of files that
// hold facts about people, in the corpus's languages.
var peopleNames = map[string]bool{
	"people": true, "persons": true, "person": true, "family": true, "contacts": true, "friends": true, "kids": true,
	"team": true, "colleagues": true, "household": true, "personen": true, "familie": true, "kontakte": true, "leute": true,
	"freunde": true, "kollegen": true, "personas": true, "familia": true, "contactos": true, "gente": true, "amigos": true,
	"équipe": true, "personnes": true, "famille": true, "人物": true, "家人": true, "家庭": true, "联系人": true, "人": true,
	"家族": true, "連絡先": true, "人々": true, "사람": true, "사람들": true, "가족": true, "연락처": true,
}

// PeopleFile reports whether a file (root-relative path) or a section
// (its heading text) holds facts about people by its name: people.md,
// family.md, Personen.md, ## Family, 家族.md.
func PeopleFile(name string) bool {
	base := strings.ToLower(strings.TrimSpace(strings.TrimLeft(path.Base(strings.ReplaceAll(name, "\\", "/")), "# ")))
	base = strings.TrimSuffix(base, path.Ext(base))
	base = strings.Trim(base, " -_.")
	return peopleNames[base]
}

// notNames are capitalized words that open a sentence without naming a
// person: pronouns, articles, imperatives and the like.
var notNames = map[string]bool{
	"the": true, "a": true, "an": true, "this": true, "that": true, "these": true, "those": true, "it": true, "we": true,
	"i": true, "you": true, "they": true, "he": true, "she": true, "our": true, "my": true, "your": true, "their": true,
	"his": true, "her": true, "there": true, "here": true, "everyone": true, "nobody": true, "user": true, "team": true,
	"der": true, "die": true, "das": true, "ein": true, "eine": true, "er": true, "sie": true, "es": true, "wir": true,
	"ich": true, "el": true, "la": true, "los": true, "las": true, "un": true, "una": true, "ella": true, "él": true,
	"le": true, "les": true, "il": true, "elle": true, "on": true, "nous": true,
	// labels that open a note ("Cause: …"), not names
	"cause": true, "fix": true, "note": true, "rule": true, "decision": true, "decided": true, "why": true, "how": true,
	"status": true, "context": true, "result": true, "reason": true, "update": true, "todo": true, "lesson": true,
	"problem": true, "solution": true, "corrected": true, "correction": true, "warning": true, "important": true,
	"ursache": true, "lösung": true, "ergebnis": true, "grund": true, "warum": true, "wie": true, "kontext": true,
	"regel": true, "entschieden": true, "korrigiert": true, "hinweis": true, "achtung": true, "wichtig": true,
	"causa": true, "solución": true, "resultado": true, "motivo": true, "nota": true, "regla": true, "decidido": true,
	"corregido": true, "contexto": true, "importante": true, "problema": true, "por": true, "qué": true,
	"raison": true, "résultat": true, "règle": true, "décidé": true, "corrigé": true, "contexte": true,
}

// subjectVerbs follow a named subject: "Omar has", "Lena likes",
// "Jonas hat", "Sofía tiene", "Marie aime".
var subjectVerbs = map[string]bool{
	"has": true, "have": true, "had": true, "is": true, "was": true, "likes": true, "loves": true, "hates": true,
	"prefers": true, "lives": true, "works": true, "turns": true, "turned": true, "speaks": true, "drinks": true,
	"eats": true, "owns": true, "moved": true, "got": true, "leads": true, "runs": true, "reports": true, "enjoys": true,
	"dislikes": true, "does": true, "doesn't": true, "can't": true, "cannot": true, "plays": true, "drives": true,
	"hat": true, "ist": true, "war": true, "mag": true, "liebt": true, "hasst": true, "wohnt": true, "arbeitet": true,
	"spricht": true, "trinkt": true, "isst": true, "bevorzugt": true, "wird": true, "leitet": true, "spielt": true, "fährt": true,
	"tiene": true, "vive": true, "trabaja": true, "habla": true, "prefiere": true, "odia": true, "bebe": true,
	"cumple": true, "juega": true, "maneja": true, "conduce": true, "dirige": true, "está": true,
	"a": true, "est": true, "aime": true, "habite": true, "travaille": true, "parle": true, "préfère": true, "déteste": true,
}

var (
	openerRE  = lazyre.New(`^[\s\-*+•>]*(?:\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2})?[\s:：—–-]*)?`)
	cjkNameRE = lazyre.New(`^(?:[\p{Han}]{2,4}(?:先生|女士|老师)?(?:有|是|喜欢|不喜欢|讨厌|住|在|的|今年|对|会|每天|已经|和)` +
		`|[\p{Han}\p{Katakana}ー]{1,8}(?:さん|様|君|くん|ちゃん|先生)(?:は|が|の|も)?` +
		`|[\p{Han}\p{Katakana}ー]{1,6}(?:は|が)` +
		`|[\p{Hangul}]{2,4}(?:씨|님)?(?:은|는|이|가|의))`)
)

// NamedSubject reports whether the sentence's subject is a named person:
// it opens (after a list marker or a date) with one to three capitalized
// words that are not a pronoun, an article or the like, followed by a
// verb ("Omar has", "Dana Levi works"), a possessive ("Lena's") or a
// colon or dash ("Omar: two kids"); in Chinese, Japanese and Korean, with
// a short name followed by an honorific or a topic particle ("佐藤さんは",
// "민준은", "王芳有").
func NamedSubject(sentence string) bool {
	s := strings.TrimSpace(sentence[len(openerRE().FindString(sentence)):])
	if s == "" {
		return false
	}
	if r := []rune(s)[0]; unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
		return cjkNameRE().MatchString(s)
	}
	words := strings.Fields(s)
	n := 0
	for n < len(words) && n < 3 {
		w := strings.TrimRight(words[n], ",;:—–-")
		w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
		r := []rune(w)
		if len(r) < 2 || !unicode.IsUpper(r[0]) || notNames[strings.ToLower(w)] || !isWord(w) {
			break
		}
		n++
		if last := words[n-1]; strings.HasSuffix(last, "'s") || strings.HasSuffix(last, "’s") || strings.HasSuffix(last, ":") ||
			strings.HasSuffix(last, "：") {
			return true
		}
	}
	if n == 0 || n >= len(words) {
		return false
	}
	next := strings.ToLower(strings.Trim(words[n], ",;:"))
	return subjectVerbs[next] || next == "—" || next == "–" || next == "-" || next == "y" || next == "und" || next == "and"
}

// isWord reports whether w is letters only (with inner hyphens or
// apostrophes): "Haddad-Ortega" is, "CI/CD" and "v1.2" are not.
func isWord(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) && r != '-' && r != '\'' && r != '’' {
			return false
		}
	}
	return true
}
