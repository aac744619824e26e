package compact

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memcompact/memcompact/internal/distill"
	"github.com/memcompact/memcompact/internal/lazyre"
	"github.com/memcompact/memcompact/internal/tiers"
)

// A summarizer other than the built-in one may move a statement to the
// wrong parent: "Allergic to nuts." under the person listed next to its
// owner, a decision under another section's heading. Where the file makes
// that checkable, misplaced finds it. A parent is an entry's subject (a
// person's bold name, a heading that is not a date) or the section heading
// it sits under. A statement (a line of a distilled entry, two words or
// more) belongs to the parents of every entry of the file that says it. In
// a bullet, a statement is attributed to the names written closest before
// it (or, with none before, closest after it); a name the statement itself
// holds does not count. A name that is not one of its parents is a wrong
// attribution. A bullet that names no parent is not checked.

var (
	boldNameRE = lazyre.New(`^\*\*([^*]+)\*\*`)
	datedRE    = lazyre.New(`^\W*\d{4}-\d{2}-\d{2}`)
)

// owners is who owns what in the file, in Key form.
type owners struct {
	display map[string]string // name key → the name as written
	subject map[string]bool   // name keys that are an entry's subject (not a section)
	names   []string          // every name key, longest first
	of      [][]string        // per entry: its parents' keys
	texts   []string          // per entry: the Key of its text
}

// owners reads the file's parents once.
func (pl *Plan) owners() *owners {
	if pl.own != nil {
		return pl.own
	}
	d := pl.doc
	ow := &owners{display: map[string]string{}, subject: map[string]bool{}, of: make([][]string, len(d.Entries)), texts: make([]string, len(d.Entries))}
	add := func(i int, name string, subject bool) {
		k := distill.Key(name)
		if k == "" {
			return
		}
		ow.subject[k] = ow.subject[k] || subject
		if _, ok := ow.display[k]; !ok {
			ow.display[k] = strings.TrimSpace(name)
			ow.names = append(ow.names, k)
		}
		ow.of[i] = append(ow.of[i], k)
	}
	for i, e := range d.Entries {
		ow.texts[i] = distill.Key(d.EntryText(i))
		add(i, subjectOf(e.Title, d.Mode == tiers.ModeList), true)
		add(i, strings.TrimLeft(pl.parents[i], "# "), false)
	}
	sort.Slice(ow.names, func(i, j int) bool { return len(ow.names[i]) > len(ow.names[j]) })
	pl.own = ow
	return ow
}

// subjectOf is whom or what an entry is about, from its title: a bold
// name at its start, else the words before a dash, colon or parenthesis
// when they are one to four words; "" for a dated entry (a diary's) or a
// longer title.
func subjectOf(title string, list bool) string {
	t := strings.TrimSpace(title)
	if list {
		for _, m := range []string{"- ", "* ", "+ "} {
			t = strings.TrimPrefix(t, m)
		}
		t = strings.TrimSpace(strings.TrimPrefix(t, "[ ] "))
	}
	if m := boldNameRE().FindStringSubmatch(t); m != nil {
		return m[1]
	}
	if datedRE().MatchString(t) {
		return ""
	}
	for _, sep := range []string{" — ", " – ", " - ", ": ", "：", " ("} {
		if i := strings.Index(t, sep); i > 0 {
			t = t[:i]
		}
	}
	if n := len(strings.Fields(distill.Key(t))); n < 1 || n > 4 {
		return ""
	}
	return t
}

// misplaced returns, for bullets written for the tier's entries
// ([0, pl.k) that are not secret), each statement attributed to a parent
// it does not belong to, worded for a repair message and a report.
func (pl *Plan) misplaced(bullets []string) []string {
	ow := pl.owners()
	if len(ow.names) < 2 {
		return nil // one parent: nothing can move
	}
	keys := make([]string, len(bullets))
	for i, b := range bullets {
		keys[i] = distill.Key(b)
	}
	var out []string
	seen := map[string]bool{}
	for i := 0; i < pl.k && i < len(pl.doc.Entries); i++ {
		if _, s := pl.secret[i]; s || len(ow.of[i]) == 0 {
			continue
		}
		e := pl.doc.Entries[i]
		for _, line := range pl.doc.Lines[e.Start+1 : e.End] {
			st := distill.Key(line)
			if seen[st] || len(strings.Fields(st)) < 2 {
				continue
			}
			seen[st] = true
			if wrong := ow.wrongNames(st, keys); len(wrong) > 0 {
				out = append(out, fmt.Sprintf("%q is under %s in the bullets, but in the file it belongs to %s",
					strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "-*+ ")), ow.list(wrong), ow.list(ow.holders(st))))
			}
		}
	}
	return out
}

// holders are the parents of every entry that says st.
func (ow *owners) holders(st string) []string {
	var out []string
	has := map[string]bool{}
	for j, t := range ow.texts {
		if len(wordIndex(t, st)) == 0 {
			continue
		}
		for _, n := range ow.of[j] {
			if !has[n] {
				has[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}

// wrongNames are the names the bullets attribute st to that are not its
// holders.
func (ow *owners) wrongNames(st string, bullets []string) []string {
	var holders map[string]bool
	var out []string
	for _, b := range bullets {
		for _, p := range wordIndex(b, st) {
			for _, n := range ow.attributed(b, p, p+len(st), st) {
				if holders == nil {
					holders = map[string]bool{}
					for _, h := range ow.holders(st) {
						holders[h] = true
					}
				}
				if !holders[n] && !contains(out, n) {
					out = append(out, n)
				}
			}
		}
	}
	return out
}

// nameAt is one name written in a bullet.
type nameAt struct {
	key        string
	start, end int
}

// attributed are the names of bullet b that the statement st at [p, q)
// is attributed to: the run of names closest before it (names separated
// by at most one word, "Anna and Ben"), else the run closest after it.
func (ow *owners) attributed(b string, p, q int, st string) []string {
	var at []nameAt
	taken := make([]bool, len(b))
	for _, n := range ow.names {
		if len(wordIndex(st, n)) > 0 {
			continue // the statement names it itself
		}
		for _, i := range wordIndex(b, n) {
			if i < q && i+len(n) > p || taken[i] || taken[i+len(n)-1] {
				continue
			}
			for j := i; j < i+len(n); j++ {
				taken[j] = true
			}
			at = append(at, nameAt{n, i, i + len(n)})
		}
	}
	if len(at) == 0 {
		return nil
	}
	sort.Slice(at, func(i, j int) bool { return at[i].start < at[j].start })
	near := func(a, c nameAt) bool { return len(strings.Fields(b[a.end:c.start])) <= 1 }
	last := -1
	for i, a := range at {
		if a.end <= p {
			last = i
		}
	}
	var run []string
	if last >= 0 {
		i := last
		for i > 0 && near(at[i-1], at[i]) {
			i--
		}
		for ; i <= last; i++ {
			run = append(run, at[i].key)
		}
		return run
	}
	run = append(run, at[0].key)
	for i := 1; i < len(at) && near(at[i-1], at[i]); i++ {
		run = append(run, at[i].key)
	}
	return run
}

// list names keys for a message: the entries' subjects among them when
// there are any (the person, not also the section the list sits in).
func (ow *owners) list(keys []string) string {
	var s, sections []string
	for _, k := range keys {
		if ow.subject[k] {
			s = append(s, ow.display[k])
		} else {
			sections = append(sections, ow.display[k])
		}
	}
	if len(s) == 0 {
		s = sections
	}
	if len(s) == 0 {
		return "no parent"
	}
	return strings.Join(s, ", ")
}

// wordIndex returns where needle occurs in hay (both Keys) as whole
// words; CJK text has no spaces between words, so a CJK end is a
// boundary of its own.
func wordIndex(hay, needle string) []int {
	var out []int
	if needle == "" {
		return nil
	}
	for from := 0; from+len(needle) <= len(hay); {
		j := strings.Index(hay[from:], needle)
		if j < 0 {
			break
		}
		i := from + j
		e := i + len(needle)
		first, _ := utf8.DecodeRuneInString(needle)
		last, _ := utf8.DecodeLastRuneInString(needle)
		okL := i == 0 || hay[i-1] == ' ' || cjkRune(first)
		okR := e == len(hay) || hay[e] == ' ' || cjkRune(last)
		if okL && okR {
			out = append(out, i)
		}
		from = i + 1
	}
	return out
}

// cjkRune reports whether r is a Han, Hiragana, Katakana or Hangul letter.
func cjkRune(r rune) bool {
	return r >= 0x1100 && unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

func contains(ss []string, s string) bool {
	for _, v := range ss {
		if v == s {
			return true
		}
	}
	return false
}
