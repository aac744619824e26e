package compact

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/memcompact/memcompact/internal/distill"
	"github.com/memcompact/memcompact/internal/lazyre"
	"github.com/memcompact/memcompact/internal/summarize"
)

// The meaning check reads a summary against the entries it summarizes,
// bullet by bullet, the way a careful reader would check a colleague's
// notes: every bullet must restate one entry (or a group of entries that
// say the same thing), so its names, numbers and content words are found
// there; it must not flip a negation around the same facts; it must not put
// a fact under a name the entry does not carry; it must not restate as
// current an entry a later entry of the tier reverses; and every priority
// fact of the tier (distill.PriorityOf: health and safety, a person's
// attribute, a decision or instruction not reversed later) must be carried
// by some bullet or declared dropped in a "Dropped:" bullet
// (summarize.SplitDropped) that names it. It judges
// words, not meaning in full, so it refuses what a word-level reader can
// prove wrong and lets a faithful rewording (filler dropped, a synonym
// sharing its stem) through.

// unit is a text reduced to what the check compares.
type unit struct {
	text    string
	words   []string        // content words, lower case (and CJK bigrams)
	nums    map[string]bool // numbers, dates, versions, as written
	caps    []string        // capitalized words, as written
	neg     bool            // holds a negation
	old     bool            // marks itself as past or superseded
	flips   bool            // reverses something earlier
	lowFlat string          // flat(), computed once
}

var (
	numberRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\d+(?:[.:/,-]\d+)*`)
	})
	tokenRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`[\p{L}\p{N}][\p{L}\p{N}_'’.:/-]*[\p{L}\p{N}]|[\p{L}\p{N}]`)
	})
	stopWords = sync.OnceValue(func() map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.Fields(`the a an and or but of to in on at for with by from as is are was were be been being
			it its this that these those there here he she they we you i his her their our your my me him them us
			has have had do does did will would shall should can could may might must also just very really still again
			about into over after before than then so such some any all each every more most much many other only own same
			which who whom whose what when where why how if while because since until up down out off per via
			der die das den dem des ein eine einen einem einer und oder aber zu im am um mit von für auf aus bei ist sind war
			waren wird werden hat haben er sie es wir ihr ich sich auch noch schon sehr nur dass wie als wenn
			el la los las un una unos unas y o pero de del al en con por para es son era fue ser está están lo le les se su sus
			que como muy también ya le les des du et ou mais dans sur avec pour par est sont était il elle ils nous vous je`) {
			m[w] = true
		}
		return m
	})
	negWords = sync.OnceValue(func() map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.Fields(`not no never don't doesn't didn't won't isn't aren't wasn't weren't can't cannot shouldn't
			mustn't without avoid avoids avoided stop stopped nor neither nicht kein keine keinen keinem keiner nie niemals ohne
			nunca jamás jamas sin tampoco ne pas jamais sans`) {
			m[w] = true
		}
		return m
	})
	// numberWords are the small numbers written out, in the corpus's
	// alphabetic languages, as the digits they stand for.
	numberWords = sync.OnceValue(func() map[string]string {
		m := map[string]string{}
		for i, ws := range []string{
			// 0 and 1 are left out: "one", "une", "uno", "null" are
			// pronouns, articles and code more often than numbers, as
			// "once", "elf" and "sept" are words of other languages.
			"", "", "two zwei dos deux", "three drei tres trois", "four vier cuatro quatre",
			"five fünf cinco cinq", "six sechs seis", "seven sieben siete", "eight acht ocho huit", "nine neun nueve neuf",
			"ten zehn diez dix", "eleven onze", "twelve zwölf doce douze",
		} {
			for _, w := range strings.Fields(ws) {
				m[w] = fmt.Sprint(i)
			}
		}
		return m
	})
	cjkNeg   = []string{"不", "没", "沒", "别", "別", "勿", "未", "无", "無", "ない", "ません", "なかった", "禁止", "않", "안 ", "못", "말고", "금지", "없"}
	oldWords = []string{"superseded", "formerly", "previously", "earlier", "used to", "until", "was replaced", "replaced", "reverted",
		"no longer", "→", "->", "früher", "vorher", "bisher", "antes", "anteriormente", "ya no", "auparavant", "以前", "之前", "原来",
		"これまで", "以前は", "이전", "예전"}
	flipWords = []string{"instead", "no longer", "switched", "switch to", "changed to", "reverted", "reversed", "replaced", "from now on",
		"stattdessen", "nicht mehr", "ab jetzt", "en lugar de", "en vez de", "ya no", "a partir de ahora", "au lieu de", "plus de",
		"改为", "改成", "不再", "改用", "代わりに", "もう", "에서", "대신", "더 이상"}
)

// newUnit reduces s.
func newUnit(s string) unit {
	u := unit{text: s, nums: map[string]bool{}}
	low := strings.ToLower(s)
	for _, w := range cjkNeg {
		if strings.Contains(low, w) {
			u.neg = true
		}
	}
	u.old = hasAnyOf(low, oldWords)
	u.flips = hasAnyOf(low, flipWords)
	for _, tok := range tokenRE().FindAllString(s, -1) {
		tok = strings.TrimRight(tok, ".:/-")
		lt := strings.ToLower(tok)
		if strings.HasSuffix(lt, "n't") || negWords()[lt] {
			u.neg = true
		}
		if n, ok := numberWords()[lt]; ok {
			// "two kids" and "three kids" differ as 2 and 3 do.
			u.nums[n] = true
			continue
		}
		if strings.IndexFunc(tok, unicode.IsDigit) >= 0 {
			for _, n := range numberRE().FindAllString(tok, -1) {
				u.nums[n] = true
			}
			continue
		}
		if hasCJKRune(tok) {
			u.words = append(u.words, bigrams(tok)...)
			continue
		}
		if stopWords()[lt] || negWords()[lt] || len([]rune(lt)) < 3 {
			continue
		}
		if r := []rune(tok)[0]; unicode.IsUpper(r) {
			u.caps = append(u.caps, tok)
		}
		u.words = append(u.words, lt)
	}
	return u
}

func hasAnyOf(s string, ws []string) bool {
	for _, w := range ws {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

func hasCJKRune(s string) bool {
	for _, r := range s {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
			return true
		}
	}
	return false
}

// bigrams splits a CJK run into overlapping pairs of letters (a lone
// letter stays itself), the usual unit for matching text without spaces.
func bigrams(tok string) []string {
	rs := []rune(strings.ToLower(tok))
	if len(rs) < 2 {
		return []string{string(rs)}
	}
	out := make([]string, 0, len(rs)-1)
	for i := 0; i+1 < len(rs); i++ {
		out = append(out, string(rs[i:i+2]))
	}
	return out
}

// sameStem reports whether two words are one word inflected or derived:
// equal, or sharing a prefix of at least four letters that covers the
// shorter up to two letters ("peanut"/"peanuts", "allergy"/"allergic").
func sameStem(a, b string) bool {
	if a == b {
		return true
	}
	ra, rb := []rune(a), []rune(b)
	n := 0
	for n < len(ra) && n < len(rb) && ra[n] == rb[n] {
		n++
	}
	short := min(len(ra), len(rb))
	return n >= 4 && n >= short-3 || n >= 5 || n >= 3 && n >= short-1
}

// coverage is the share of u's content words found in src's.
func coverage(u, src unit) float64 {
	if len(u.words) == 0 {
		return 0
	}
	found := 0
	for _, w := range u.words {
		for _, s := range src.words {
			if sameStem(w, s) {
				found++
				break
			}
		}
	}
	return float64(found) / float64(len(u.words))
}

// tierSource is what the meaning check reads: each entry of the tier (and
// each bullet of an earlier block, and the entries after the tier, read
// for the reversals they make), with what the check needs to know of it.
type tierSource struct {
	entries []string
	people  []bool // the entry is about a person by its place (a people file, a person's section)
	own     []bool // the entry is the tier's own: its priority facts must be carried (nil: every entry)
}

func (t tierSource) isPeople(i int) bool { return i < len(t.people) && t.people[i] }
func (t tierSource) isOwn(i int) bool    { return t.own == nil || i < len(t.own) && t.own[i] }

// plainTier is a tier of entries alone, none about a person by its place.
func plainTier(entries []string) tierSource { return tierSource{entries: entries} }

// sourceTexts are the texts the meaning check reads: each entry of the
// tier, and each bullet of an earlier block (a bullet may restate one).
// rel is the file's root-relative path: a people file makes every entry
// about a person.
func sourceTexts(srcs []distill.Source, rel string) tierSource {
	var t tierSource
	peopleFile := distill.PeopleFile(rel)
	for _, s := range srcs {
		if !s.Kept {
			t.entries = append(t.entries, s.Text)
			t.people = append(t.people, s.People || peopleFile || distill.PeopleFile(s.Parent) || personEntry(s))
			t.own = append(t.own, !s.Later)
			continue
		}
		for _, l := range strings.Split(s.Text, "\n") {
			if strings.TrimSpace(l) != "" {
				t.entries = append(t.entries, l)
				t.people = append(t.people, peopleFile)
				t.own = append(t.own, false)
			}
		}
	}
	return t
}

// personEntry reports whether an entry is about one person by its shape:
// its heading is a name and nothing else ("## Omar Haddad-Ortega"), or it
// is a list item that opens with a bold name ("- **김민지** — 동료").
func personEntry(s distill.Source) bool {
	first, _, _ := strings.Cut(strings.TrimSpace(s.Text), "\n")
	if t := strings.TrimSpace(strings.TrimLeft(first, "#")); strings.HasPrefix(first, "#") && t != "" {
		words := strings.Fields(t)
		if len(words) > 3 {
			return false
		}
		for _, w := range words {
			r := []rune(w)
			if !unicode.IsUpper(r[0]) || strings.IndexFunc(w, unicode.IsDigit) >= 0 {
				return false
			}
		}
		return true
	}
	return personItemRE().MatchString(first)
}

var personItemRE = lazyre.New(`^[-*+]\s+\*\*[^*\d]{1,40}\*\*(?:\s|$)`)

// meaningFaults checks bullets against the tier's entries and returns
// what is wrong, one line per fault, each naming its bullet. Bullets that
// declare a fact dropped ("Dropped: …") must name a fact of the tier;
// they count as carrying the priority facts they name.
func meaningFaults(t tierSource, bullets []string) []string {
	entries := t.entries
	srcs := make([]unit, len(entries))
	tierCaps := map[string]bool{}
	for i, e := range entries {
		srcs[i] = newUnit(e)
		for _, c := range srcs[i].caps {
			tierCaps[strings.ToLower(c)] = true
		}
	}
	stated, dropped := summarize.SplitDropped(bullets)
	var faults []string
	bus := make([]unit, 0, len(stated))
	for _, b := range stated {
		bu := newUnit(b)
		bus = append(bus, bu)
		if i := verbatimIn(bu, srcs); i >= 0 {
			if f := reversalFault(bu, srcs, i); f != "" {
				faults = append(faults, fmt.Sprintf("%q: %s", b, f))
			}
			continue
		}
		if len(bu.words) == 0 && len(bu.nums) == 0 {
			faults = append(faults, fmt.Sprintf("%q: says nothing the entries say", b))
			continue
		}
		for _, c := range clauses(b) {
			cu := newUnit(c)
			if len(cu.words) == 0 && len(cu.nums) == 0 {
				continue // punctuation or markup between clauses that say something
			}
			if f := bulletFault(cu, srcs, tierCaps); f != "" {
				faults = append(faults, fmt.Sprintf("%q: %s", b, f))
				break
			}
		}
	}
	if len(stated) == 0 {
		return []string{"the summary has no bullets"}
	}
	drops := make([]unit, 0, len(dropped))
	for _, d := range dropped {
		du := newUnit(d)
		drops = append(drops, du)
		if !grounded(du, srcs) {
			faults = append(faults, fmt.Sprintf("%q: declares dropped what no entry of the tier says", summarize.DroppedPrefix+" "+d))
		}
	}
	faults = append(faults, droppedPriority(t, srcs, bus, drops)...)
	return faults
}

// grounded reports whether most of u's words are one entry's.
func grounded(u unit, srcs []unit) bool {
	if len(u.words) == 0 {
		return len(u.nums) > 0
	}
	for _, s := range srcs {
		if coverage(u, s) >= 0.6 {
			return true
		}
	}
	return false
}

// bulletFault is what is wrong with one bullet, or "".
func bulletFault(u unit, srcs []unit, tierCaps map[string]bool) string {
	if i := verbatimIn(u, srcs); i >= 0 {
		// Word for word an entry's own text: its words, numbers, names
		// and negations are the entry's. Only a reversal can still make
		// it wrong, by stating as current what a later entry replaced.
		return reversalFault(u, srcs, i)
	}
	if len(u.words) == 0 && len(u.nums) == 0 {
		return "says nothing the entries say"
	}
	// The entry restated: the one holding most of the bullet's words, its
	// numbers breaking ties (a bullet of a date and a version has none).
	best, bestCov, bestScore := -1, -1.0, -1.0
	for i, s := range srcs {
		c := coverage(u, s)
		score := c
		for n := range u.nums {
			if s.nums[n] {
				score += 0.5 / float64(len(u.nums))
			}
		}
		if score > bestScore {
			best, bestCov, bestScore = i, c, score
		}
	}
	if best < 0 || len(u.words) > 0 && bestCov < 0.6 {
		return "is not grounded in any entry of the tier (its words are not there)"
	}
	src := srcs[best]
	// Numbers: in the entry restated, or in another entry saying the same
	// (a merged group lists both dates).
	for n := range u.nums {
		if src.nums[n] || yearOf(src.nums, n) {
			continue
		}
		if lo, hi, ok := strings.Cut(n, "-"); ok && !isISODate(n) && !strings.Contains(hi, "-") {
			// A range ("Notes 1-3") names its two ends.
			if f := numberFault(u, srcs, lo); f != "" {
				return f
			}
			if f := numberFault(u, srcs, hi); f != "" {
				return f
			}
			continue
		}
		if f := numberFault(u, srcs, n); f != "" {
			return f
		}
	}
	// Names: a name of the tier must be the restated entry's own, and a
	// subject the tier never mentions is invented.
	for _, c := range u.caps {
		lc := strings.ToLower(c)
		if !tierCaps[lc] {
			if isSentenceStart(u.text, c) && !inAny(srcs, lc) {
				return fmt.Sprintf("names %q, whom no entry of the tier names", c)
			}
			continue
		}
		if !containsStem(src.words, lc) && !inGroup(u, srcs, lc) {
			return fmt.Sprintf("puts the fact under %q, whom the entry it restates does not name", c)
		}
	}
	if flipped(u, src.text) {
		return "flips the entry's polarity (a negation added or removed)"
	}
	return reversalFault(u, srcs, best)
}

// reversalFault says whether u, restating entry best, states as current
// what a later entry of the tier reverses ("" when not).
func reversalFault(u unit, srcs []unit, best int) string {
	src := srcs[best]
	if !u.old && !src.flips {
		for j := best + 1; j < len(srcs); j++ {
			if srcs[j].flips && coverage(srcs[j], src) >= 0.3 && !carriesNew(u, srcs[j], src) {
				return "restates as current what a later entry reverses"
			}
		}
	}
	return ""
}

// verbatimIn is the index of the entry whose text holds u's text word for
// word (whitespace and case aside, at least three words or a number), or -1.
func verbatimIn(u unit, srcs []unit) int {
	t := strings.ToLower(strings.Join(strings.Fields(strings.Trim(u.text, " .;:,-*•")), " "))
	if len(strings.Fields(t)) < 3 && len(u.nums) == 0 || len([]rune(t)) < 12 {
		return -1
	}
	for i := range srcs {
		f := srcs[i].flat()
		for from := 0; ; {
			j := strings.Index(f[from:], t)
			if j < 0 {
				break
			}
			j += from
			if clauseEdge(f[:j], true) && clauseEdge(f[j+len(t):], false) {
				return i
			}
			from = j + 1
		}
	}
	return -1
}

// clauseEdge reports whether a match ends (before: the text before it) or
// starts (after) at the edge of a clause: the text's end, a line, a list
// marker or a punctuation mark. A match cut out of a clause could leave
// behind the "No" before it or the "しない" after it.
func clauseEdge(s string, before bool) bool {
	s = strings.Trim(s, " \t")
	if s == "" || strings.HasSuffix(s, "\n") && before || strings.HasPrefix(s, "\n") && !before {
		return true
	}
	var r rune
	if before {
		r, _ = utf8.DecodeLastRuneInString(s)
	} else {
		r, _ = utf8.DecodeRuneInString(s)
	}
	return strings.ContainsRune(".;:,!?。；：，、！？()[]（）*-—–•>\"'`", r)
}

// flat is the unit's text, lower case, each line's whitespace runs one
// space (line ends kept: a line's start is a clause's edge).
func (u *unit) flat() string {
	if u.lowFlat == "" {
		lines := strings.Split(strings.ToLower(u.text), "\n")
		for i, l := range lines {
			lines[i] = strings.Join(strings.Fields(l), " ")
		}
		u.lowFlat = strings.Join(lines, "\n")
	}
	return u.lowFlat
}

// carriesNew reports whether u says something of the reversing entry that
// the reversed one does not say: a word or a number.
func carriesNew(u, newer, older unit) bool {
	for _, w := range u.words {
		if containsStem(newer.words, w) && !containsStem(older.words, w) {
			return true
		}
	}
	for n := range u.nums {
		if newer.nums[n] && !older.nums[n] {
			return true
		}
	}
	return false
}

// inGroup reports whether name w belongs to another entry u restates as
// well (a merged group: "Chen Wei and Dana Levi run marathons").
func inGroup(u unit, srcs []unit, w string) bool {
	for _, s := range srcs {
		if containsStem(s.words, w) && coverage(u, s) >= 0.6 {
			return true
		}
	}
	return false
}

// inAny reports whether any entry has word w.
func inAny(srcs []unit, w string) bool {
	for _, s := range srcs {
		if containsStem(s.words, w) {
			return true
		}
	}
	return false
}

// clauses splits a bullet at its sentence and clause ends ("; ", ". ").
func clauses(b string) []string {
	b = strings.NewReplacer(". ", "\x00", "; ", "\x00", "；", "\x00", "。", "\x00").Replace(b)
	var out []string
	for _, c := range strings.Split(b, "\x00") {
		if strings.TrimSpace(strings.Trim(c, ".-*•() ")) != "" {
			out = append(out, c)
		}
	}
	return out
}

// flipped reports whether u's polarity is not the entry's: the entry's
// sentence closest to u has the other polarity, or u restates every word
// of an entry sentence of the other polarity.
func flipped(u unit, src string) bool {
	if u.neg != sentenceNeg(u, src) {
		return true
	}
	for _, s := range splitSentences(src) {
		su := newUnit(s)
		if su.neg != u.neg && len(su.words) >= 2 && coverage(su, u) == 1 {
			return true
		}
	}
	return false
}

// numberFault says why number n of u is not the tier's, or "": it must
// be in an entry u restates at least in part (a merged group), or, for a
// date, in any entry.
func numberFault(u unit, srcs []unit, n string) string {
	date := isISODate(n)
	for _, s := range srcs {
		if (s.nums[n] || yearOf(s.nums, n)) && (date || coverage(u, s) >= 0.3) {
			return ""
		}
	}
	return fmt.Sprintf("the number %q is not in the entry it restates", n)
}

// isISODate reports whether n is written 2026-05-03: a merged bullet may
// list the dates of every entry it merges.
func isISODate(n string) bool {
	return len(n) == 10 && n[4] == '-' && n[7] == '-'
}

// yearOf reports whether n is the year of a date among nums.
func yearOf(nums map[string]bool, n string) bool {
	if len(n) != 4 {
		return false
	}
	for m := range nums {
		if strings.HasPrefix(m, n+"-") {
			return true
		}
	}
	return false
}

func containsStem(ws []string, w string) bool {
	for _, s := range ws {
		if sameStem(s, w) {
			return true
		}
	}
	return false
}

// isSentenceStart reports whether word opens the bullet (after a date or
// a dash): capitalized there by grammar, not because it is a name.
func isSentenceStart(text, word string) bool {
	t := strings.TrimLeft(text, "-*• \t0123456789–—:.,()")
	return strings.HasPrefix(t, word)
}

// sentenceNeg is the polarity of the sentence of src closest to u.
func sentenceNeg(u unit, src string) bool {
	best, bestCov := unit{}, -1.0
	for _, s := range splitSentences(src) {
		su := newUnit(s)
		if c := coverage(u, su); c > bestCov {
			best, bestCov = su, c
		}
	}
	return best.neg
}

// statements splits text at line ends and sentence ends, not at clause
// ends: "Lena's birthday is on 14 March; she turns 41." is one fact about
// Lena. Heading lines are titles, and code and table lines are data:
// they are left out.
func statements(text string) []string {
	var out []string
	fence := ""
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		// Code and tables are kept whole or left in the snapshot, never
		// restated: their lines are not statements.
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = t[:3]
			continue
		}
		if strings.HasPrefix(t, "#") || strings.HasPrefix(t, "|") {
			continue
		}
		l = strings.NewReplacer(". ", "\x00", "。", "\x00", "! ", "\x00", "? ", "\x00", "！", "\x00", "？", "\x00").Replace(l)
		for _, c := range strings.Split(l, "\x00") {
			if strings.TrimSpace(c) != "" {
				out = append(out, c)
			}
		}
	}
	return out
}

// splitSentences splits text at line ends and sentence ends.
// Heading lines are titles, not sentences: they are left out.
func splitSentences(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		l = strings.NewReplacer(". ", "\x00", "; ", "\x00", "；", "\x00", "。", "\x00", "! ", "\x00", "? ", "\x00", "！", "\x00", "？", "\x00").Replace(l)
		for _, c := range strings.Split(l, "\x00") {
			if strings.TrimSpace(c) != "" {
				out = append(out, c)
			}
		}
	}
	return out
}

// droppedPriority names each priority fact of the tier's own entries
// (distill.PriorityOf) that no bullet carries and no "Dropped:" bullet
// names. A decision a later entry reverses is not current: it is not
// required. (A sentence that says what changed, "→ now X", is the current
// word, and is.)
func droppedPriority(t tierSource, srcs []unit, bus, drops []unit) []string {
	var out []string
	for i, e := range t.entries {
		if !t.isOwn(i) {
			continue
		}
		for _, s := range statements(e) {
			kind := distill.PriorityOf(s, t.isPeople(i))
			if kind == "" {
				continue
			}
			su := newUnit(s)
			if len(su.words) == 0 || kind == distill.PriorityDecision && reversedLater(i, srcs) {
				continue
			}
			if carriedBy(su, bus) || carriedBy(su, drops) || namedBy(su, drops) {
				continue
			}
			out = append(out, fmt.Sprintf("a priority fact of the tier (%s) is in no bullet and no %q bullet names it: %q", priorityWords(kind), summarize.DroppedPrefix, strings.TrimSpace(s)))
		}
	}
	return out
}

// priorityWords says what kind of priority fact it is, for a fault.
func priorityWords(kind string) string {
	switch kind {
	case distill.PriorityHealth:
		return "health or safety"
	case distill.PriorityPerson:
		return "a person's attribute"
	}
	return "a decision or instruction in force"
}

// reversedLater reports whether a later entry reverses entry i (as
// bulletFault reads a reversal).
func reversedLater(i int, srcs []unit) bool {
	if srcs[i].flips {
		return false
	}
	for j := i + 1; j < len(srcs); j++ {
		if srcs[j].flips && coverage(srcs[j], srcs[i]) >= 0.3 {
			return true
		}
	}
	return false
}

// carriedBy reports whether one of bs holds most of sentence su's words,
// or restates it under the same names.
func carriedBy(su unit, bs []unit) bool {
	for _, b := range bs {
		if coverage(su, b) >= 0.5 || factShare(su, b) >= 0.5 || coverage(b, su) >= 0.6 && overlapsCaps(su, b) {
			return true
		}
	}
	return false
}

// namedBy reports whether a declared drop names sentence su: at least
// three of its words (CJK pairs), nearly all of them the sentence's. A
// declaration names a fact briefly; it need not hold half of it.
func namedBy(su unit, drops []unit) bool {
	for _, d := range drops {
		if len(d.words) >= 3 && coverage(d, su) >= 0.8 {
			return true
		}
	}
	return false
}

// factShare is the share of u's content words and numbers that b holds:
// a terse bullet that keeps a sentence's numbers keeps much of its fact.
func factShare(u, b unit) float64 {
	n := len(u.words) + len(u.nums)
	if n == 0 {
		return 0
	}
	found := coverage(u, b) * float64(len(u.words))
	for x := range u.nums {
		if b.nums[x] {
			found++
		}
	}
	return found / float64(n)
}

// overlapsCaps reports whether b names everyone s names (a word
// capitalized only because it opens the sentence names no one).
func overlapsCaps(s, b unit) bool {
	for _, c := range s.caps {
		if isSentenceStart(s.text, c) {
			continue
		}
		if !containsStem(b.words, strings.ToLower(c)) {
			return false
		}
	}
	return true
}
