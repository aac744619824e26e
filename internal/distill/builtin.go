package distill

import (
	"strconv"

	"github.com/memcompact/memcompact/internal/facts"
	"strings"
)

// Levels of the built-in summarizer, from the lightest. Compaction tries
// them in order, each with the oldest tier grown as far as it may go,
// until the file fits its budget.
const (
	// LevelSignal keeps, per entry, the statements that carry a decision,
	// a preference, a correction, a rule or a result (with their reasons);
	// per list item, every distinct fact under its own parent.
	LevelSignal = iota
	// LevelKeep keeps only what must stay live: preferences,
	// corrections, decisions, rules and <!-- keep --> lines.
	LevelKeep
	// LevelMonth also folds every bullet with nothing to keep into one
	// line per month that names the entries' titles.
	LevelMonth
	// LevelQuarter folds them (and an earlier block's month lines) into
	// one line per quarter, "2026-Q1 — 40 entries: titles.": a block that
	// grows is merged by period, month, then quarter, then year, and what
	// must stay live stays in its own bullet until the year level.
	LevelQuarter
	// LevelYear folds them into one line per year that only counts them.
	LevelYear
	// Levels is the number of levels.
	Levels
	// LevelLoss is past the last level, used only when the user allows
	// the loss: every entry folds into its year's count, the statements
	// that must stay live included (they stay in the snapshot).
	LevelLoss = Levels
)

// Source is one entry handed to a summarizer, with its parent.
type Source struct {
	Title string // the entry's heading text; "" for a list-item entry
	Text  string // the whole entry, heading included
	// Parent is the section heading the entry sits under ("" for none).
	// Statements are merged only under one parent.
	Parent string
	// Kept marks the body of an existing Compacted History block: its
	// bullets are distilled already and are kept, condensed further only
	// at the higher levels. Its Parent, when set, is the one parent every
	// bullet of it came from (the file has one section): a new list item
	// that repeats one of its one-line bullets then merges into it, as
	// repeats within a round do.
	Kept bool
	// Later marks an entry that follows the tier (mid or newest): it is
	// not summarized, only read to mark the statements it reverses.
	Later bool // People marks an entry about a person by its place (a people file,
	// a person's section or heading): a word that is a person's attribute
	// only with a person as subject ("Has two kids.") makes a priority
	// fact in it, as it does in a sentence about a named person anywhere.
	People bool
}

// Builtin distills srcs at LevelSignal into bullets (without the "- "
// marker). A bullet may span lines: its nested lines follow a "\n" and are
// indented relative to the bullet's text.
func Builtin(srcs []Source) []string { return Distill(srcs, LevelSignal) }

// Distill distills srcs at the given level; see the package doc.
func Distill(srcs []Source, level int) []string { return NewCache().Distill(srcs, level) }

// Cache keeps what the built-in summarizer read from each entry, so that
// a compaction trying many tiers and levels over one file reads each entry
// once. It is not safe for concurrent use.
type Cache struct {
	entries map[Source]*parsedEntry
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{entries: map[Source]*parsedEntry{}} }

// parsedEntry is what one entry gave: its item (nil if it vanishes), the
// key under which it merges with a repeat (list statements), and, for an
// entry after the tier, its statements.
type parsedEntry struct {
	it       *item
	chatter  int // chatter sentences and units left out
	repeats  int // statements that repeat one of the same entry
	mergeKey string
	stamp    string
	after    []stmt
}

// Distill distills srcs at the given level, reading each entry through
// the cache.
func (c *Cache) Distill(srcs []Source, level int) []string {
	return c.run(srcs, level).render()
}

// run reads srcs into one run of the summarizer, reversals marked, ready
// to render.
func (c *Cache) run(srcs []Source, level int) *builtin {
	b := &builtin{level: level, merged: map[string]*item{}, earlier: map[string]*item{}}
	for _, s := range srcs {
		if s.Kept {
			b.kept(s)
			continue
		}
		pe := c.entries[s]
		if pe == nil {
			pe = parseEntry(s)
			c.entries[s] = pe
		}
		if s.Later {
			b.after = append(b.after, pe.after...)
			continue
		}
		b.stats.drop(KindChatter, pe.chatter)
		b.stats.drop(KindDuplicate, pe.repeats)
		if pe.it == nil {
			continue
		}
		if pe.mergeKey != "" {
			// The same statement under the same parent: one bullet, every
			// date — an earlier round's bullet included.
			if old := b.mergeTarget(pe.mergeKey); old != nil {
				old.addStamp(pe.stamp)
				b.stats.drop(KindDuplicate, 1)
				continue
			}
		}
		it := pe.it.clone()
		if pe.mergeKey != "" {
			b.merged[pe.mergeKey] = it
		}
		b.items = append(b.items, it)
	}
	b.supersede()
	return b
}

// DistillStats is Distill with the count of statements kept and dropped
// at the level, by kind (see Stats).
func (c *Cache) DistillStats(srcs []Source, level int) ([]string, Stats) {
	b := c.run(srcs, level)
	out := b.render()
	return out, b.stats
}

// mergeTarget is the item a list statement with merge key k merges into:
// one of this round, or an earlier block's bullet, which then stops being
// kept as it was written and is rendered again with the new date.
func (b *builtin) mergeTarget(k string) *item {
	if it := b.merged[k]; it != nil {
		return it
	}
	it := b.earlier[k]
	if it == nil {
		return nil
	}
	delete(b.earlier, k)
	if it.raw != "" {
		pb, _ := parseBullet(it.raw)
		it.raw, it.sep, it.head, it.stated = "", pb.sep, pb.head, true
		for _, st := range pb.stamps {
			it.addStamp(st)
		}
		it.index()
	}
	b.merged[k] = it
	return it
}

// parseEntry reads one entry.
func parseEntry(s Source) *parsedEntry {
	switch {
	case s.Later:
		return &parsedEntry{after: laterStatements(s)}
	case s.Title == "":
		return listEntry(s)
	}
	it, chat, reps := headingEntry(s)
	return &parsedEntry{it: it, chatter: chat, repeats: reps}
}

// clone copies an item and its parts, which a run marks.
func (it *item) clone() *item {
	c := *it
	c.stamps = append([]string(nil), it.stamps...)
	c.parts = make([]*part, len(it.parts))
	for i, p := range it.parts {
		pc := *p
		c.parts[i] = &pc
	}
	return &c
}

// builtin is one run of the built-in summarizer.
type builtin struct {
	level  int
	items  []*item
	merged map[string]*item // parent + "\x00" + sameKey of a list statement -> its item
	// earlier are an earlier block's one-line bullets, by the same key,
	// when the block's parent is known; a repeat turns one back into an
	// item it merges into.
	earlier map[string]*item
	after   []stmt          // statements of later entries, for reversals
	said    map[string]bool // parent + sameKey of every statement written
	stats   Stats
}

// stmt is a statement of a later entry.
type stmt struct {
	stamp, key, subj string
	rev              bool // says it replaces an earlier statement
}

// item is one bullet being built.
type item struct {
	stamps []string
	sep    string // written after the stamps
	head   string // the title, or a list item's statement
	stated bool   // head is a statement (a list item), not a title
	parts  []*part
	notes  []string // code blocks and tables left in the snapshot
	raw    string   // a bullet of an earlier block kept as it was
	parent string   // the section the entry sits under
	month  string   // YYYY-MM of the first stamp
	keep   bool     // head must stay live
	prio   bool     // head is a priority fact
	rev    bool     // head says it replaces an earlier statement
	sup    string   // set when a later statement reverses the head
	fkey   string   // firstKey(head), for a stated head
	subj   string   // subjectKey(fkey)
}

// part is one statement of a bullet.
type part struct {
	text   string   // on the bullet's line
	nested []string // or, for a list item with items of its own, lines below it
	keep   bool
	signal bool
	prio   bool   // a priority fact: health and safety, a person's attribute
	code   bool   // nested is a code block or a table, whole
	rev    bool   // says it replaces an earlier statement ("… instead")
	sup    string // the stamp of a later statement that reverses this one
	fkey   string // firstKey(text)
	subj   string // subjectKey(fkey)
}

func (it *item) hasKeep() bool {
	if it.keep {
		return true
	}
	for _, p := range it.parts {
		if p.keep {
			return true
		}
	}
	return false
}

func (it *item) addStamp(s string) {
	if s == "" {
		return
	}
	for _, old := range it.stamps {
		if old == s {
			return
		}
	}
	it.stamps = append(it.stamps, s)
	if it.month == "" && len(s) >= 7 {
		it.month = s[:7]
	}
}

// headingEntry distills a heading entry: its title leads one bullet that
// carries the entry's kept statements. It also counts the chatter and the
// repeats it left out.
func headingEntry(s Source) (it *item, chat, reps int) {
	lines := splitLines(s.Text)
	stamp, sep, title := splitStamp(strings.TrimSpace(s.Title))
	it = &item{sep: sep, head: title, parent: s.Parent}
	it.addStamp(stamp)
	us := markPeople(splitUnits(lines[1:]), s.People)
	content, codes, tables := false, 0, 0
	seen := map[string]bool{}
	for _, u := range us {
		switch u.kind {
		case unitCode:
			codes++
			it.parts = append(it.parts, &part{nested: blockLines(u.lines), code: true})
			continue
		case unitTable:
			tables++
			it.parts = append(it.parts, &part{nested: blockLines(u.lines), code: true})
			continue
		}
		chat += u.chat
		if u.chatter() {
			if u.chat == 0 {
				chat++
			}
			continue
		}
		content = true
		sk := sameKey(u.text())
		if seen[sk] {
			reps++
			continue // an exact repeat inside the entry
		}
		seen[sk] = true
		if u.weak && !u.signal() && !u.priority() && len(facts.Extract(u.text())) == 0 {
			chat++
			continue // one-off context with no fact in it
		}
		p := &part{keep: u.mustKeep(), signal: u.signal(), prio: u.priority(), rev: has(u.key, classReversal)}
		if u.nested() {
			p.nested = relLines(u.lines)
		} else {
			p.text = u.text()
		}
		it.parts = append(it.parts, p)
	}
	if !content && codes == 0 && tables == 0 {
		tu := &unit{kind: unitText, lines: []string{title}, key: Key(title)}
		if len(us) > 0 || tu.chatter() {
			return nil, max(chat, 1), reps // chatter only: the entry vanishes (its text stays in the snapshot)
		}
	}
	if codes > 0 {
		it.notes = append(it.notes, count(codes, "code block", "code blocks"))
	}
	if tables > 0 {
		it.notes = append(it.notes, count(tables, "table", "tables"))
	}
	it.index()
	return it, chat, reps
}

// blockLines is a code block's or a table's lines, their common
// indentation removed, to be nested whole under a bullet.
func blockLines(lines []string) []string {
	least := -1
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			if n := len(l) - len(strings.TrimLeft(l, " ")); least < 0 || n < least {
				least = n
			}
		}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		out[i] = strings.TrimRight(l[max(least, 0):], " \t")
	}
	return out
}

// listEntry distills a list item: its statement, and its nested items
// each under it.
func listEntry(s Source) *parsedEntry {
	text, rest := listHead(splitLines(s.Text))
	stamp, sep, body := splitStamp(text)
	hu := &unit{kind: unitText, lines: []string{body}, key: Key(body), people: s.People}
	it := &item{sep: sep, head: body, stated: true, keep: hu.mustKeep(), prio: hu.priority(), rev: has(hu.key, classReversal), parent: s.Parent}
	it.addStamp(stamp)
	codes, tables := 0, 0
	seen := map[string]bool{}
	pe := &parsedEntry{}
	for _, u := range markPeople(splitUnits(dedent(rest)), s.People) {
		switch u.kind {
		case unitCode:
			codes++
			it.parts = append(it.parts, &part{nested: blockLines(u.lines), code: true})
			continue
		case unitTable:
			tables++
			it.parts = append(it.parts, &part{nested: blockLines(u.lines), code: true})
			continue
		}
		pe.chatter += u.chat
		if u.chatter() {
			if u.chat == 0 {
				pe.chatter++
			}
			continue
		}
		sk := sameKey(u.text())
		if seen[sk] {
			pe.repeats++
			continue
		}
		seen[sk] = true
		it.parts = append(it.parts, &part{nested: relLines(u.lines), keep: u.mustKeep(), signal: true, prio: u.priority()})
	}
	if codes > 0 {
		it.notes = append(it.notes, count(codes, "code block", "code blocks"))
	}
	if tables > 0 {
		it.notes = append(it.notes, count(tables, "table", "tables"))
	}
	it.index()
	if len(it.parts) == 0 && len(it.notes) == 0 {
		if hu.key == "" || is(hu.key, classFiller) || chatterSentence(body) {
			pe.chatter++
			return pe
		}
		pe.it, pe.mergeKey, pe.stamp = it, s.Parent+"\x00"+sameKey(body), stamp
		return pe
	}
	pe.it = it
	return pe
}

// index computes the keys supersede compares.
func (it *item) index() {
	if it.stated {
		it.fkey = firstKey(it.head)
		it.subj = subjectKey(it.fkey)
	}
	for _, p := range it.parts {
		if p.text != "" {
			p.fkey = firstKey(p.text)
			p.subj = subjectKey(p.fkey)
		}
	}
}

// laterStatements are a later entry's statements.
func laterStatements(s Source) []stmt {
	var out []stmt
	lines := splitLines(s.Text)
	stamp := ""
	if s.Title != "" {
		stamp, _, _ = splitStamp(strings.TrimSpace(s.Title))
		lines = lines[1:]
	}
	for _, l := range lines {
		t := strip(l)
		st, _, body := splitStamp(t)
		if st == "" {
			st = stamp
		}
		if k := firstKey(body); k != "" {
			out = append(out, stmt{stamp: st, key: k, subj: subjectKey(k), rev: has(k, classReversal)})
		}
	}
	return out
}

// supersede marks every statement that a later one reverses: the same
// subject with a negation added or taken away. The newer statement stands;
// the older stays, marked, never merged into it.
func (b *builtin) supersede() {
	type ref struct {
		it   *item
		p    *part
		key  string
		subj string
		rev  bool
	}
	var all []ref
	for _, it := range b.items {
		if it.raw != "" {
			continue
		}
		if it.stated {
			all = append(all, ref{it: it, key: it.fkey, subj: it.subj, rev: it.rev})
		}
		for _, p := range it.parts {
			if p.text != "" {
				all = append(all, ref{it: it, p: p, key: p.fkey, subj: p.subj, rev: p.rev})
			}
		}
	}
	stampOf := func(it *item) string {
		if len(it.stamps) > 0 {
			return it.stamps[len(it.stamps)-1]
		}
		return ""
	}
	mark := func(r ref, by string) {
		if by == "" {
			by = "later"
		}
		if r.p != nil {
			r.p.sup = by
		} else {
			r.it.sup = by
		}
	}
	// Statements grouped by subject, in order: only a group with more
	// than one distinct key holds a reversal.
	bySubj := map[string][]int{}
	for i, r := range all {
		if len(r.subj) >= 6 {
			bySubj[r.subj] = append(bySubj[r.subj], i)
		}
	}
	afterBy := map[string][]stmt{}
	for _, s := range b.after {
		if bySubj[s.subj] != nil {
			afterBy[s.subj] = append(afterBy[s.subj], s)
		}
	}
	for subj, idx := range bySubj {
		for x, i := range idx {
			r := all[i]
			for _, j := range idx[x+1:] {
				if n := all[j]; n.key != r.key {
					mark(r, stampOf(n.it))
					// The reversal corrects the earlier statement: it is
					// kept whatever its words.
					if n.p != nil {
						n.p.keep, n.p.signal = true, true
					} else {
						n.it.keep = true
					}
				}
			}
			for _, s := range afterBy[subj] {
				if s.key != r.key {
					mark(r, s.stamp)
				}
			}
		}
	}
	// A statement that says it replaces another ("… on Sundays instead",
	// "nicht mehr …", "改为…") supersedes an earlier one under the same
	// parent that shares most of its words.
	for j, n := range all {
		if !n.rev {
			continue
		}
		for _, r := range all[:j] {
			if r.key != n.key && r.it.parent == n.it.parent && replaces(n.key, r.key) {
				mark(r, stampOf(n.it))
				if n.p != nil {
					n.p.keep, n.p.signal = true, true
				} else {
					n.it.keep = true
				}
			}
		}
	}
	for _, s := range b.after {
		if !s.rev {
			continue
		}
		for _, r := range all {
			if r.key != s.key && replaces(s.key, r.key) {
				mark(r, s.stamp)
			}
		}
	}
}

// replaces reports whether the statement of key newer, which says it
// replaces something, replaces the one of key older: at least two of
// older's words (or, in Chinese, Japanese and Korean, pairs of letters)
// and at least half of them are in newer.
func replaces(newer, older string) bool {
	ow, nw := wordSet(older), wordSet(newer)
	if len(ow) == 0 {
		return false
	}
	shared := 0
	for w := range ow {
		if nw[w] {
			shared++
		}
	}
	return shared >= 2 && 2*shared >= len(ow)
}

// wordSet is the words of a Key of three letters or more, and the letter
// pairs of its CJK words.
func wordSet(k string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(k) {
		if hasCJK(w) {
			rs := []rune(w)
			for i := 0; i+1 < len(rs); i++ {
				out[string(rs[i:i+2])] = true
			}
			continue
		}
		if len(w) >= 3 {
			out[w] = true
		}
	}
	return out
}

// firstKey is the Key of a statement's first sentence: a reason that
// follows it does not change what it says.
func firstKey(s string) string {
	if ss := sentences(s); len(ss) > 0 {
		return Key(ss[0])
	}
	return Key(s)
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// listHead splits a list entry into its item's own text (the first line
// and its continuation lines, joined) and the lines nested under it.
func listHead(lines []string) (head string, rest []string) {
	parts := []string{strip(lines[0])}
	i := 1
	for ; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], "\r\n")
		if strings.TrimSpace(l) == "" || itemRE().MatchString(l) || fenceRE().MatchString(l) || tableRE().MatchString(l) || breakRE().MatchString(l) {
			break
		}
		parts = append(parts, strings.TrimSpace(l))
	}
	return strings.Join(parts, " "), lines[i:]
}
