package distill

import (
	"github.com/memcompact/memcompact/internal/lazyre"
	"strconv"
	"strings"
)

// groupLineRE matches a bullet that folds entries: "2026-01 — 3 entries:
// Title A; Title B; Title C." (LevelMonth, entries with nothing to keep;
// "2026-Q1 — …" at LevelQuarter) or
// "2025 — 14 entries. Kept: S1 S2" (LevelYear, every entry, the
// statements that must stay written out).
var groupLineRE = lazyre.New(`^(\d{4}-\d{2}|\d{4}-Q[1-4]|\d{4}|Undated) — (\d+) entr(?:y|ies)(?:: (.*?))?\.(?: Kept: (.*))?$`)

// group is one folded bullet being built.
type group struct {
	label  string
	n      int
	titles []string
	kept   []string
}

// render writes the bullets at b.level.
func (b *builtin) render() []string {
	b.said = map[string]bool{}
	var out []string
	groups := map[string]*group{}
	slot := map[string]int{} // label -> index in out
	fold := func(label string, n int, kept []string, titles ...string) {
		g := groups[label]
		if g == nil {
			g = &group{label: label}
			groups[label] = g
			slot[label] = len(out)
			out = append(out, "")
		}
		g.n += n
		g.kept = append(g.kept, kept...)
		if b.level < LevelYear || label == "Undated" {
			g.titles = append(g.titles, titles...)
		}
	}
	for _, it := range b.items {
		if it.raw != "" {
			if m := groupLineRE().FindStringSubmatch(it.raw); m != nil && b.level >= LevelMonth {
				n, _ := strconv.Atoi(m[2])
				var titles []string
				if m[3] != "" {
					titles = strings.Split(m[3], "; ")
				}
				var kept []string
				if m[4] != "" && b.level < LevelLoss {
					kept = []string{m[4]}
				}
				fold(b.label(m[1]), n, kept, titles...)
				continue
			}
			out = append(out, it.raw)
			continue
		}
		// At the month level only an entry with nothing that must stay
		// live folds; at the year level every entry does, its must-keep
		// statements written out on the year's line ("Kept: …"), so a year
		// never becomes a bare count while a fact of it must stay live.
		if (b.level >= LevelMonth && !it.hasKeep()) || b.level >= LevelYear {
			title := strings.TrimSpace(it.head)
			if title == "" && len(it.stamps) > 0 {
				title = it.stamps[0]
			}
			label := b.label(it.month)
			if b.level >= LevelYear && (label != "Undated" || it.stated) {
				// The year level counts; only an undated heading entry's
				// title stays, for it names who or what the entry is
				// about (a people file's sections).
				fold(label, 1, b.keptOf(it))
				continue
			}
			fold(label, 1, b.keptOf(it), strings.ReplaceAll(title, "; ", ", "))
			continue
		}
		if s := b.line(it); s != "" {
			out = append(out, s)
		}
	}
	for label, g := range groups {
		s := label + " — " + count(g.n, "entry", "entries")
		if len(g.titles) > 0 {
			s += ": " + strings.Join(g.titles, "; ")
		}
		s += "."
		if len(g.kept) > 0 {
			s += " Kept: " + strings.Join(uniqueKept(g.kept), " ")
		}
		out[slot[label]] = s
	}
	return out
}

// keptOf is what of item it must stay live, as statements for a group
// line: a nested item named with its parent.
func (b *builtin) keptOf(it *item) []string {
	var out []string
	sup := func(t, by string) string {
		if by != "" {
			return t + " (superseded " + by + ")"
		}
		return t
	}
	loss := b.level >= LevelLoss
	if it.stated && it.keep && !loss {
		out = append(out, sup(it.head, it.sup))
		b.stats.keep(headKind(it), 1)
	} else if it.stated {
		b.stats.drop(headKind(it), 1)
	}
	for _, p := range it.parts {
		if !p.keep || loss {
			b.stats.drop(kindOf(p), 1)
			continue
		}
		b.stats.keep(kindOf(p), 1)
		if p.text != "" {
			k := it.parent + "\x00" + sameKey(p.text)
			if b.said[k] && p.sup == "" {
				continue
			}
			b.said[k] = p.sup == ""
			out = append(out, sup(p.text, p.sup))
			continue
		}
		for _, n := range p.nested {
			if t := strip(n); t != "" {
				out = append(out, strings.TrimSpace(it.head)+": "+t)
			}
		}
	}
	return out
}

// label is the group an entry of month m (YYYY-MM, or "") folds into,
// or an earlier group line of period m (YYYY-MM, YYYY-Qn, YYYY) merges
// into: its month below the quarter level, its quarter at it, its year
// above.
func (b *builtin) label(m string) string {
	switch {
	case m == "" || m == "Undated":
		return "Undated"
	case b.level >= LevelYear && len(m) >= 4:
		return m[:4]
	case b.level >= LevelQuarter && len(m) == 7 && m[5] != 'Q':
		mo, _ := strconv.Atoi(m[5:])
		if mo >= 1 && mo <= 12 {
			return m[:4] + "-Q" + strconv.Itoa((mo+2)/3)
		}
	}
	return m
}

// line renders one item at b.level, or "" when nothing of it is left.
func (b *builtin) line(it *item) string {
	var inline []string
	var nested []string
	if it.stated {
		b.stats.keep(headKind(it), 1)
	}
	for _, p := range it.parts {
		if !b.wants(it, p) {
			b.stats.drop(kindOf(p), 1)
			continue
		}
		if p.text != "" {
			// A statement an earlier bullet under the same parent already
			// made is not made again, unless either was reversed.
			k := it.parent + "\x00" + sameKey(p.text)
			if b.said[k] && p.sup == "" {
				b.stats.drop(KindDuplicate, 1)
				continue
			}
			t := p.text
			if p.sup != "" {
				t += " (superseded " + p.sup + ")"
			} else {
				b.said[k] = true
			}
			inline = append(inline, t)
		}
		b.stats.keep(kindOf(p), 1)
		nested = append(nested, p.nested...)
	}
	if it.head == "" && len(inline) == 0 && len(nested) == 0 {
		return "" // a date alone says nothing
	}
	var s strings.Builder
	if len(it.stamps) > 0 {
		s.WriteString(strings.Join(it.stamps, ", "))
		if it.head != "" || len(inline) > 0 {
			s.WriteString(it.sep)
		}
	}
	s.WriteString(it.head)
	if it.sup != "" {
		s.WriteString(" (superseded " + it.sup + ")")
	}
	if len(inline) > 0 {
		switch {
		case it.head == "" && len(it.stamps) == 0:
		case it.head == "":
		case strings.HasSuffix(it.head, ":") || strings.HasSuffix(it.head, "："):
			s.WriteString(" ")
		default:
			s.WriteString(": ")
		}
		s.WriteString(strings.Join(inline, " "))
	}
	if b.level >= LevelKeep && len(it.notes) > 0 {
		s.WriteString(" (" + strings.Join(it.notes, ", ") + " in the snapshot)")
	}
	if strings.TrimSpace(s.String()) == "" && len(nested) == 0 {
		return ""
	}
	for _, n := range nested {
		s.WriteString("\n" + n)
	}
	return s.String()
}

// wants reports whether part p of item it is written at b.level.
func (b *builtin) wants(it *item, p *part) bool {
	if b.level >= LevelKeep {
		return p.keep
	}
	return true
}

// kept reads the body of an existing block into items: a bullet written
// by this summarizer is parsed back into its stamps, title and
// statements, so that the higher levels can condense it; anything else is
// kept as it is.
func (b *builtin) kept(s Source) {
	for _, bl := range splitBullets(s.Text) {
		pb, ok := parseBullet(bl)
		// A one-line statement bullet can take a later repeat's date.
		oneLine := ok && s.Parent != "" && pb.stated && len(pb.nested) == 0
		if !ok || b.level == LevelSignal {
			it := &item{raw: bl, keep: keepTextIn(bl, s.People), parent: s.Parent}
			if oneLine {
				b.earlier[s.Parent+"\x00"+sameKey(pb.head)] = it
			}
			b.items = append(b.items, it)
			continue
		}
		it := &item{sep: pb.sep, head: pb.head, stated: pb.stated, keep: pb.stated && keepTextIn(pb.head, s.People), prio: pb.stated && priorityTextIn(pb.head, s.People), parent: s.Parent}
		if oneLine {
			b.earlier[s.Parent+"\x00"+sameKey(pb.head)] = it
		}
		for _, st := range pb.stamps {
			it.addStamp(st)
		}
		for _, sn := range pb.parts {
			it.parts = append(it.parts, &part{text: sn, keep: keepTextIn(sn, s.People), prio: priorityTextIn(sn, s.People), signal: true})
		}
		for _, g := range nestedGroups(pb.nested) {
			if g.code {
				it.parts = append(it.parts, &part{nested: g.lines, code: true})
				continue
			}
			n := g.lines[0]
			it.parts = append(it.parts, &part{nested: []string{n}, keep: keepTextIn(n, s.People), prio: priorityTextIn(n, s.People), signal: true})
		}
		it.index()
		b.items = append(b.items, it)
	}
}

// parsed is a bullet of an earlier block, read back.
type parsed struct {
	stamps []string
	sep    string
	head   string
	stated bool     // head is a statement, not a title
	parts  []string // the statements after the title
	nested []string // the lines nested under the bullet
}

// parseBullet reads back a bullet this summarizer wrote; ok is false for
// any other (no leading date, or a folded group line).
func parseBullet(bl string) (p parsed, ok bool) {
	first, rest, _ := strings.Cut(bl, "\n")
	stamps, sep, body := splitStamps(first)
	if len(stamps) == 0 || groupLineRE().MatchString(first) {
		return p, false
	}
	p.stamps, p.sep = stamps, sep
	if i := strings.Index(body, ": "); sep != ": " && i > 0 {
		p.head = body[:i]
		p.parts = sentences(body[i+2:])
	} else {
		p.head, p.stated = body, true
	}
	if rest != "" {
		p.nested = strings.Split(rest, "\n")
	}
	return p, true
}

// keepText reports whether a statement must stay live: as for a unit of
// an entry (unit.mustKeep), a decision or rule, or a priority fact — so a
// health fact an earlier block kept stays live when the block is
// condensed again.
func keepText(s string) bool { return keepTextIn(s, false) }

// keepTextIn is keepText for a statement about a person by its place
// (people: see Source.People).
func keepTextIn(s string, people bool) bool {
	if len(s) > maxProseLine {
		return keepMarkRE().MatchString(s) // data, not a statement (see unit.proseKey), unless marked
	}
	k := withoutChatter(Key(s))
	return keepMarkRE().MatchString(s) || has(k, classKeep) || priorityTextIn(s, people)
}

// priorityTextIn reports whether a statement is a priority fact (health
// and safety, a person's attributes), as unit.priority does for an
// entry's; people says it is about a person by its place (Source.People).
func priorityTextIn(s string, people bool) bool {
	if len(s) > maxProseLine {
		return false
	}
	u := &unit{kind: unitText, lines: []string{s}, key: Key(s), people: people}
	return u.priorityKey(withoutChatter(u.key))
}

// splitBullets cuts a block body into bullets: a "- " line and the
// indented lines after it, the marker and the indentation of the first
// nesting level removed.
func splitBullets(text string) []string {
	var out []string
	for _, l := range splitLines(text) {
		l = strings.TrimRight(l, "\r\n")
		switch {
		case strings.TrimSpace(l) == "":
		case strings.HasPrefix(l, "- "):
			out = append(out, l[2:])
		case len(out) > 0 && (strings.HasPrefix(l, "  ") || strings.HasPrefix(l, "\t")):
			out[len(out)-1] += "\n" + strings.TrimPrefix(strings.TrimPrefix(l, "  "), "\t")
		default:
			out = append(out, l)
		}
	}
	return out
}

// sentences splits a bullet's text after ". ", "! ", "? " and their
// full-width forms; a "(superseded …)" mark stays with its sentence. A
// day or ordinal written with a period ("am 14. März", "3. Oktober") ends
// no sentence: split there, the date's month would stand alone and be
// lost as a sentence that says nothing. Not splitting can only join two
// sentences, which loses nothing.
func sentences(s string) []string {
	var out []string
	start := 0
	rs := []rune(s)
	for i, r := range rs {
		end := false
		switch r {
		case '。', '！', '？':
			end = true
		case '.':
			end = i+1 < len(rs) && rs[i+1] == ' ' && !ordinalBefore(rs, i)
		case '!', '?':
			end = i+1 < len(rs) && rs[i+1] == ' '
		}
		if end {
			out = append(out, strings.TrimSpace(string(rs[start:i+1])))
			start = i + 1
		}
	}
	if t := strings.TrimSpace(string(rs[start:])); t != "" {
		out = append(out, t)
	}
	var merged []string
	for _, sn := range out {
		if strings.HasPrefix(sn, "(superseded") && len(merged) > 0 {
			merged[len(merged)-1] += " " + sn
			continue
		}
		merged = append(merged, sn)
	}
	return merged
}

// ordinalBefore reports whether the period at rs[i] follows a number of
// one or two digits standing alone as a word: a day or an ordinal.
func ordinalBefore(rs []rune, i int) bool {
	j := i
	for j > 0 && j > i-3 && rs[j-1] >= '0' && rs[j-1] <= '9' {
		j--
	}
	return j < i && i-j <= 2 && (j == 0 || rs[j-1] == ' ')
}

// uniqueKept is the statements of a year's "Kept:" list, less those that
// say again what one before them says (an earlier block's list, read back
// whole, and the statements of the entries folded now often repeat a fact:
// a people file restates it). Each statement stays as it was written: a
// must-keep statement is looked for in the new file as it stands.
func uniqueKept(kept []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, k := range kept {
		if seen[sameKey(k)] {
			continue
		}
		out = append(out, k)
		seen[sameKey(k)] = true
		for _, sn := range sentences(k) {
			seen[sameKey(sn)] = true
		}
	}
	return out
}

// nestedGroup is a line nested under a bullet, or a code block or table
// nested there, whole.
type nestedGroup struct {
	lines []string
	code  bool
}

// nestedGroups cuts a bullet's nested lines into single lines and whole
// code blocks and tables, so that condensing never splits one.
func nestedGroups(lines []string) []nestedGroup {
	var out []nestedGroup
	fence := ""
	for _, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case fence != "":
			g := &out[len(out)-1]
			g.lines = append(g.lines, l)
			if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				fence = ""
			}
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			fence = t[:3]
			out = append(out, nestedGroup{lines: []string{l}, code: true})
		case tableRE().MatchString(l) && len(out) > 0 && out[len(out)-1].code && tableRE().MatchString(out[len(out)-1].lines[0]):
			g := &out[len(out)-1]
			g.lines = append(g.lines, l)
		case tableRE().MatchString(l):
			out = append(out, nestedGroup{lines: []string{l}, code: true})
		default:
			out = append(out, nestedGroup{lines: []string{l}})
		}
	}
	return out
}
