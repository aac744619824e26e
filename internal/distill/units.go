package distill

import (
	"strings"

	"github.com/memcompact/memcompact/internal/facts"
	"github.com/memcompact/memcompact/internal/lazyre"
)

// unitKind says what a unit of an entry is.
type unitKind int

const (
	unitText  unitKind = iota // a paragraph, or a list item with its nested items
	unitCode                  // a fenced code block, fences included
	unitTable                 // a pipe table
)

// unit is one piece of an entry. Units are never split: a paragraph, a
// list item with everything nested under it, a code block or a table
// stays whole, and a "Why:" / "How to apply:" paragraph or a paragraph
// that begins with a reason joins the unit before it.
type unit struct {
	kind    unitKind
	lines   []string // the original lines, without terminators
	section string   // the sub-heading it sits under, "" at the top
	weak    bool     // under a Context or Follow-ups sub-heading
	key     string   // Key of the text
	memo    int8     // 0 unknown; else 1 + 2*mustKeep
	chat    int      // chatter sentences taken out of it
	people  bool     // about a person by its place (Source.People)
}

// markPeople marks units as about a person by their place, before any of
// them is classified.
func markPeople(us []*unit, people bool) []*unit {
	if people {
		for _, u := range us {
			u.people = true
		}
	}
	return us
}

var (
	itemRE     = lazyre.New(`^(\s*)(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?`)
	headingRE  = lazyre.New(`^ {0,3}#{1,6}(?:\s|$)`)
	breakRE    = lazyre.New(`^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$`)
	fenceRE    = lazyre.New("^ {0,3}(`{3,}|~{3,})")
	tableRE    = lazyre.New(`^\s*\|.*\|\s*$`)
	keepMarkRE = lazyre.New(`<!--\s*keep\s*-->`)
	// groupRE begins a line that belongs to the statement before it: the
	// reason and the way to apply a rule (Claude Code's feedback memories
	// write them so), in the languages of the word lists.
	groupRE = lazyre.New(`(?i)^(?:[-*+]\s+)?(?:\*\*|__)?(?:why|how to apply|reason|warum|wie anwenden|grund|pourquoi|comment appliquer|raison|por qué|cómo aplicar|razón|为什么|如何应用|理由|適用方法|なぜ|이유|적용 방법|왜)(?:\*\*|__)?\s*[:：]`)
)

// indentOf is the width of l's leading spaces (a tab counts 4).
func indentOf(l string) int {
	n := 0
	for _, r := range l {
		switch r {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return n
		}
	}
	return n
}

// text is the unit's lines joined by single spaces, list markers and
// heading marks stripped from each.
func (u *unit) text() string {
	parts := make([]string, 0, len(u.lines))
	for _, l := range u.lines {
		if s := strip(l); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, " ")
}

// nested reports whether the unit has lines indented below its first: a
// list item with items of its own.
func (u *unit) nested() bool {
	if len(u.lines) < 2 || !itemRE().MatchString(u.lines[0]) {
		return false
	}
	base := indentOf(u.lines[0])
	for _, l := range u.lines[1:] {
		if itemRE().MatchString(l) && indentOf(l) > base {
			return true
		}
	}
	return false
}

// mustKeep reports whether the unit states a preference, a correction, a
// decision or a rule, or is marked <!-- keep -->: such a unit never leaves
// the live file.
func (u *unit) mustKeep() bool {
	if u.memo == 0 {
		u.memo = 1
		if u.computeKeep() {
			u.memo = 3
		}
	}
	return u.memo == 3
}

func (u *unit) computeKeep() bool {
	if u.kind != unitText {
		return false
	}
	for _, l := range u.lines {
		if strings.Contains(l, "<!--") && keepMarkRE().MatchString(l) {
			return true
		}
	}
	k := withoutChatter(u.proseKey())
	return has(k, classKeep) || u.priorityKey(k)
}

// proseKey is the unit's key without its data lines (longer than
// maxProseLine: a blob, minified code), in which a keep word would only
// be a chance run of letters.
func (u *unit) proseKey() string {
	long := false
	for _, l := range u.lines {
		if len(l) > maxProseLine {
			long = true
			break
		}
	}
	if !long {
		return u.key
	}
	var parts []string
	for _, l := range u.lines {
		if len(l) <= maxProseLine {
			parts = append(parts, strip(l))
		}
	}
	return Key(strings.Join(parts, " "))
}

// priority reports whether the unit is a priority fact — health and
// safety, a person's attribute — which compaction never drops silently.
func (u *unit) priority() bool {
	return u.kind == unitText && u.priorityKey(withoutChatter(u.proseKey()))
}

// priorityKey reports whether k, the unit's key, is a priority fact's:
// a health or safety word, a person's attribute by its own words, or an
// attribute whose subject is a named person ("Omar has two kids").
func (u *unit) priorityKey(k string) bool {
	if has(k, classPriority) || has(k, classPerson) || hasStem(k, healthStems) {
		return true
	}
	return has(k, classAttribute) && (u.people || NamedSubject(u.text()))
}

// withoutChatter is k with its chatter phrases blanked: "no decision" is
// chatter, not a decision.
func withoutChatter(k string) string {
	return blank(k, classChatter)
}

// signal reports whether the unit is worth a bullet: it must be kept, or
// it holds a result (a fix, a cause, a lesson).
func (u *unit) signal() bool {
	return u.kind == unitText && (u.mustKeep() || has(u.key, classResult))
}

// chatter reports whether the unit is filler, chatter, or a template's
// open question, with nothing that must be kept or that is a result.
func (u *unit) chatter() bool {
	if u.kind != unitText || u.signal() {
		return false
	}
	// Its chatter sentences were taken out when the unit was cut
	// (withoutChatterSentences): what is left of a chatter unit is nothing.
	return u.key == "" || is(u.key, classFiller)
}

// splitUnits cuts lines (an entry's body, without its heading) into units.
func splitUnits(lines []string) []*unit {
	var out []*unit
	var cur *unit
	section, weak, skip := "", false, false
	flush := func() {
		if cur != nil {
			if cur.kind == unitText {
				for i, l := range cur.lines {
					var n int
					cur.lines[i], n = withoutChatterSentences(l)
					cur.chat += n
				}
			}
			cur.key = Key(cur.text())
			if !skip {
				out = append(out, cur)
			}
			cur = nil
		}
	}
	start := func(k unitKind, l string) {
		flush()
		cur = &unit{kind: k, lines: []string{l}, section: section, weak: weak}
	}
	var fence string
	for _, l := range lines {
		l = strings.TrimRight(l, "\r\n")
		if fence != "" {
			cur.lines = append(cur.lines, l)
			if m := fenceRE().FindStringSubmatch(l); m != nil && m[1][0] == fence[0] && len(m[1]) >= len(fence) && strings.TrimSpace(l[len(m[0]):]) == "" {
				fence = ""
				flush()
			}
			continue
		}
		t := strings.TrimSpace(l)
		switch {
		case fenceRE().MatchString(l) && !(strings.HasPrefix(t, "```") && strings.Contains(strings.TrimLeft(t, "`"), "`")):
			start(unitCode, l)
			fence = fenceRE().FindStringSubmatch(l)[1]
		case headingRE().MatchString(l):
			flush()
			section = strip(l)
			k := Key(section)
			weak, skip = has(k, classWeak), has(k, classSkip)
		case t == "" || breakRE().MatchString(l):
			flush()
		case tableRE().MatchString(l):
			if cur == nil || cur.kind != unitTable {
				start(unitTable, l)
			} else {
				cur.lines = append(cur.lines, l)
			}
		case itemRE().MatchString(l):
			ind := indentOf(l)
			if cur != nil && cur.kind == unitText && itemRE().MatchString(cur.lines[0]) && ind > indentOf(cur.lines[0]) {
				cur.lines = append(cur.lines, l) // a nested item stays with its parent
				continue
			}
			if cur == nil && ind > 0 && len(out) > 0 {
				if last := out[len(out)-1]; last.kind == unitText && last.section == section && itemRE().MatchString(last.lines[0]) && ind > indentOf(last.lines[0]) {
					cur = last // a loose list: blank lines between parent and child
					out = out[:len(out)-1]
					cur.lines = append(cur.lines, l)
					continue
				}
			}
			if groupRE().MatchString(t) && cur == nil && len(out) > 0 && out[len(out)-1].kind == unitText && out[len(out)-1].section == section {
				cur = out[len(out)-1] // why / how to apply after a blank line
				out = out[:len(out)-1]
				cur.lines = append(cur.lines, l)
				continue
			}
			if groupRE().MatchString(t) && cur != nil && cur.kind == unitText {
				cur.lines = append(cur.lines, l)
				continue
			}
			start(unitText, l)
		default:
			if cur != nil && cur.kind == unitText {
				cur.lines = append(cur.lines, l) // a paragraph line, or an item's continuation
				continue
			}
			if cur == nil && len(out) > 0 && out[len(out)-1].kind == unitText && out[len(out)-1].section == section && (groupRE().MatchString(t) || startsWithReason(t)) {
				cur = out[len(out)-1]
				out = out[:len(out)-1]
				cur.lines = append(cur.lines, l)
				continue
			}
			start(unitText, l)
		}
	}
	if fence != "" && cur != nil {
		// An unclosed fence: the code runs to the end of the entry.
		fence = ""
	}
	flush()
	return out
}

// withoutChatterSentences is line l with its chatter sentences taken
// out ("Omar carries an EpiPen. Nothing more." keeps its first sentence),
// its indentation and list marker kept. A line that is all chatter
// becomes "" (a unit of nothing else is then chatter); a line with no
// chatter is returned as it is.
func withoutChatterSentences(l string) (string, int) {
	t := strings.TrimSpace(l)
	if t == "" || len(t) > maxProseLine {
		return l, 0 // a line this long is data (a blob, minified code), not chatter
	}
	prefix := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
	body := strings.TrimLeft(l, " \t")
	if m := itemRE().FindString(body); m != "" {
		prefix, body = prefix+m, body[len(m):]
	}
	ss := sentences(body)
	kept := ss[:0:0]
	for _, sn := range ss {
		if !chatterSentence(sn) {
			kept = append(kept, sn)
		}
	}
	switch {
	case len(kept) == len(ss):
		return l, 0
	case len(kept) == 0:
		return "", len(ss)
	}
	return prefix + strings.Join(kept, " "), len(ss) - len(kept)
}

// maxProseLine is the longest line read sentence by sentence for
// chatter: a longer one is kept whole, which keeps a 20 MB line linear.
const maxProseLine = 4096

// chatterSentence reports whether one sentence is filler, chatter or an
// open question with nothing in it worth keeping: no rule, result,
// priority fact, nor a literal fact (a number, a path, a version, …).
func chatterSentence(sn string) bool {
	k := Key(sn)
	if k == "" {
		return strings.TrimSpace(sn) == ""
	}
	if is(k, classFiller) {
		return true
	}
	question := strings.HasSuffix(sn, "?") || strings.HasSuffix(sn, "？")
	if !question && !has(k, classChatter) {
		return false
	}
	w := withoutChatter(k)
	if has(w, classKeep) || has(w, classPriority) || has(w, classPerson) || has(k, classResult) {
		return false
	}
	return len(facts.Extract(sn)) == 0 && !hasDigit(sn)
}

// hasDigit reports whether s holds an ASCII digit: a number is a fact.
func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// startsWithReason reports whether a line begins with a reason word
// ("Because …", "Weil …", "因为…").
func startsWithReason(t string) bool {
	k := Key(t)
	if k == "" {
		return false
	}
	m := match(k, classReason, false)
	return len(m) > 0 && m[0][0] == 0
}

// strip removes a line's list marker or heading marks, a keep marker and
// outer spaces.
func strip(l string) string {
	l = strings.TrimSpace(l)
	if m := itemRE().FindString(l); m != "" {
		l = l[len(m):]
	}
	if headingRE().MatchString(l) {
		l = strings.TrimLeft(l, "# ")
	}
	return strings.TrimSpace(l)
}
