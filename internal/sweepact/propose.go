package sweepact

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/lazyre"
	"github.com/memcompact/memcompact/internal/loadcut"
	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/sweep"
	"github.com/memcompact/memcompact/internal/textfile"
)

// criticalRE finds the index's own emphasis that an entry must load.
var criticalRE = lazyre.New(`(?i)🚨|⚠️|⛔|\bcritical\b|read (first|before)|\bimportant\b|중요|필독|必読|重要`)

// criticalMark is criticalRE's first match in line, or "". Most lines
// hold none of the pattern's words, and Go's regexp costs about as much to
// say so as to find one (it tries each start position, having no literal
// prefix to skip to), while doctor and the session-start hook plan a sweep
// of every cut index. Every match begins with one of the pattern's
// literals as ASCII case folding spells them: the letters of its words
// fold to ASCII letters only (TestCriticalMarkShortcut), and its marks
// outside ASCII fold to nothing. So one pass looks for those literals
// (criticalStart, behind a table of their first bytes), and the pattern
// runs only where one starts, on a window around it: the rune before (for
// \b) and past the longest match. TestCriticalMarkWindows holds it to
// criticalRE's own answer.
func criticalMark(line string) string {
	for p := 0; p < len(line); p++ {
		if !criticalLead[line[p]] || !criticalStart(line[p:]) {
			continue
		}
		lo := p
		if p > 0 {
			_, n := utf8.DecodeLastRuneInString(line[:p])
			lo = p - n
		}
		hi := min(len(line), p+criticalWindow)
		if m := criticalRE().FindStringIndex(line[lo:hi]); m != nil && lo+m[0] == p {
			return line[p : lo+m[1]]
		}
	}
	return ""
}

// criticalWindow is how far past a match's start criticalMark lets the
// pattern look: its longest match ("read before", or "read first" with a
// long s, 12 bytes), the rune after it (for \b) and room to spare.
const criticalWindow = 32

// criticalLead holds the first bytes of criticalStart's literals: a byte
// outside it starts none, and is passed over at the cost of one lookup.
var criticalLead = func() (lead [256]bool) {
	for _, w := range []string{"critical", "read f", "read b", "important"} {
		lead[w[0]], lead[w[0]-'a'+'A'] = true, true
	}
	for _, m := range criticalMarks {
		lead[m[0]] = true
	}
	return lead
}()

// criticalStart reports whether s begins with one of criticalRE's literals
// as criticalMark's shortcut spells them: every match begins so.
//
// It looks at the first byte once to pick the one word that can follow
// ("i" and "r" start a good share of English words, and each was tried
// against all four).
func criticalStart(s string) bool {
	if s == "" {
		return false
	}
	word := func(w string) bool { return len(s) >= len(w) && foldASCIIEqual(s[:len(w)], w) }
	switch lowerASCII(s[0]) {
	case 'c':
		return word("critical")
	case 'r':
		return word("read f") || word("read b")
	case 'i':
		return word("important")
	}
	for _, m := range criticalMarks {
		if strings.HasPrefix(s, m) {
			return true
		}
	}
	return false
}

// foldASCIIEqual reports whether s equals w (lower-case ASCII) ignoring
// ASCII case.
func foldASCIIEqual(s, w string) bool {
	for i := 0; i < len(w); i++ {
		if lowerASCII(s[i]) != w[i] {
			return false
		}
	}
	return true
}

// criticalMarks are the marks outside ASCII criticalRE finds.
var criticalMarks = []string{"🚨", "⚠", "⛔", "중", "필", "必", "重"}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// ruleRE finds a standing rule's wording: the general lessons that belong
// in a permanent instruction surface rather than in recall.
var ruleRE = lazyre.New(`(?i)\b(always|never|must|do not|don't)\b|항상|절대|금지|必ず|禁止`)

// dateRE finds a date in a name or a hook.
var dateRE = lazyre.New(`(20\d\d)[-_.](\d\d)[-_.](\d\d)`)

// propose fills pl.Subjects: one per corpus subject, incomplete
// dispositions first, each with its disposition, reason and evidence.
func propose(s *store, pl *Plan, asOf records.Date, loaded loadcut.Result) {
	ix := s.parsed()
	lineText := map[int]string{}
	for i := range ix.Lines {
		lineText[ix.Lines[i].Num] = ix.Lines[i].Text
	}
	past := map[int]bool{}
	for _, p := range loaded.PastCut {
		past[p.Line] = true
	}
	segUnits := segmentUnits(ix)
	incomplete := map[string]sweep.Incomplete{}
	for _, in := range s.incomp {
		incomplete[in.Identity] = in
	}
	seen := map[string]int{} // name → index in pl.Subjects
	type nd struct{ name, desc string }
	byND := map[nd]string{}
	for _, e := range s.corpus.Entries {
		if i, dup := seen[e.Name]; dup && e.Population == sweep.PopPointer {
			pl.Subjects[i].DuplicateLines = append(pl.Subjects[i].DuplicateLines, e.Line)
			pl.Subjects[i].Evidence = append(pl.Subjects[i].Evidence, fmt.Sprintf("a second pointer to the same file on line %d; apply drops it and keeps every hook on line %d", e.Line, pl.Subjects[i].Line))
			continue
		}
		b := s.bodies[e.Name]
		sub := Subject{Identity: e.Identity, Name: e.Name, Population: e.Population, Line: e.Line,
			Disposition: Keep, Decision: Pending, Evidence: []string{}, Units: segUnits[e.Name],
			Recalls: s.recalls[e.Name].n, LastRead: s.recalls[e.Name].last, LoadsNow: e.Population == sweep.PopPointer && !past[e.Line]}
		assess(s, &sub, lineText[e.Line], b, asOf)
		text := lineText[e.Line] + "\n" + e.Name + "\n" + b.Front["name"] + "\n" + b.Front["description"] + "\n" + b.Front["status"]
		switch {
		case incomplete[e.Identity].Identity != "":
			in := incomplete[e.Identity]
			r, _ := s.ledger.ExitInForce(e.Identity)
			sub.Disposition = Complete
			sub.Reason = fmt.Sprintf("interrupted: %s; complete the recorded '%s' (no second record), or change this to restore", in.Why, in.Disposition)
			sub.Evidence = append(sub.Evidence, fmt.Sprintf("%s:%d: %s", s.ledger.Path(), r.Line, r.Raw))
		case e.Population == sweep.PopOrphan:
			sub.Reason = "an orphan body: no pointer loads it; it stays an orphan, assessed at this sweep"
		case !b.Exists && e.Reach != sweep.ReachFile:
			sub.Reason = "its link leads outside the store (or is a web address), so the sweep has no body of its own to judge and removes nothing"
			sub.Evidence = append(sub.Evidence, fmt.Sprintf("line %d links outside the store; %s.md is not beside the index", e.Line, e.Name))
		case !b.Exists && sub.Critical != "yes" && criticalMark(lineText[e.Line]) != "":
			m := criticalMark(lineText[e.Line])
			sub.Reason = fmt.Sprintf("dangling, but its pointer line is all that is left and the index marks it %q: kept; recover the body, or remove it by hand", m)
			sub.Evidence = append(sub.Evidence, fmt.Sprintf("line %d points at %s, which does not exist", e.Line, relBody(s, e)))
		case !b.Exists && sub.Critical == "yes":
			sub.Reason = "dangling, but critical: its pointer is all that is left of a critical lesson; recover the body, or remove it by hand"
			sub.Evidence = append(sub.Evidence, fmt.Sprintf("line %d points at %s, which does not exist", e.Line, relBody(s, e)))
		case !b.Exists:
			sub.Disposition = "remove-obsolete"
			sub.Reason = "dangling: the pointer names a file that is not there"
			sub.Evidence = append(sub.Evidence, fmt.Sprintf("line %d points at %s, which does not exist", e.Line, relBody(s, e)))
			sub.Destination = "ARCHIVE.md (the pointer line; no body to keep)"
		case b.Front["description"] != "" && byND[nd{b.Front["name"], b.Front["description"]}] != "":
			into := byND[nd{b.Front["name"], b.Front["description"]}]
			sub.Disposition, sub.Into = "dedupe-into", into
			sub.Reason = "the same name and description as " + into
			sub.Evidence = append(sub.Evidence, "description: "+b.Front["description"])
			sub.Destination = records.EntryName(strings.SplitN(into, "@", 2)[0]) + ".md (the surviving entry)"
			sub.LessonProbe = b.Front["description"]
		default:
			l := &ix.Lines[e.Line-1]
			fin, finished := finishedCall(s.ledger, e.Identity, l.Text, l.Links, ownLinks(l, e.Name), b)
			if fin.rule != "" && !finished {
				if s.active == nil {
					s.active = map[string]bool{}
				}
				s.active[e.Name] = true
			}
			proposeByText(&sub, text, fin, finished, b, asOf)
		}
		if b.Front["description"] != "" {
			if _, ok := byND[nd{b.Front["name"], b.Front["description"]}]; !ok {
				byND[nd{b.Front["name"], b.Front["description"]}] = e.Identity
			}
		}
		seen[e.Name] = len(pl.Subjects)
		pl.Subjects = append(pl.Subjects, sub)
	}
	// Interrupted dispositions first, then critical, then the rest in
	// corpus order: the procedure's order of attention.
	slices.SortStableFunc(pl.Subjects, func(a, b Subject) int { return rank(a) - rank(b) })
}

// relBody is the body a pointer names, relative to the store.
func relBody(s *store, e sweep.Entry) string {
	if rel, err := filepath.Rel(s.paths.Dir, e.Body); err == nil && e.Body != "" {
		return filepath.ToSlash(rel)
	}
	return e.Name + ".md"
}

func rank(s Subject) int {
	switch {
	case s.Disposition == Complete:
		return 0
	case s.Critical == "yes":
		return 1
	}
	return 2
}

// assess fills the critical assessment: the slate's current row when there
// is one, else a proposal the apply appends when the subject is acted on,
// made by structure (criticalCall): the entry's frontmatter or its pin.
// The index line's own emphasis is prose and makes no call (judge.go).
func assess(s *store, sub *Subject, line string, b *body, asOf records.Date) {
	if r := s.slate.Current(sub.Identity, records.TrackCritical); r != nil {
		sub.Critical, sub.CriticalWhy = r.Value, "slate: "+r.Detail
		return
	}
	sub.Assess = true
	if c, ok := criticalCall(b); ok {
		sub.Critical = "yes"
		sub.CriticalWhy = fmt.Sprintf("%s: assessed critical at the sweep of %s", c, asOf)
		return
	}
	sub.Critical = "no"
	sub.CriticalWhy = fmt.Sprintf("assessed at the sweep of %s: no slate row, frontmatter or pin marks it critical", asOf)
	if !b.Exists {
		sub.CriticalWhy = fmt.Sprintf("assessed at the sweep of %s: its body is gone, only the pointer line is left", asOf)
	}
	if m := criticalMark(line); m != "" {
		sub.CriticalWhy += fmt.Sprintf("; the index line's own %q is prose, so it only puts the subject last among demotions", m)
	}
}

// proposeByText proposes from the entry's own record (finishedCall):
// finished or superseded → demote, unless it is critical, or it loads
// today and was read recently (kept: the cost would fall on a subject in
// use); a standing rule → promote; the rest keep.
func proposeByText(sub *Subject, text string, fin call, finished bool, b *body, asOf records.Date) {
	if d, ok := oldestDate(text); ok {
		sub.Evidence = append(sub.Evidence, "dated "+d)
	}
	if sub.Recalls > 0 {
		sub.Evidence = append(sub.Evidence, fmt.Sprintf("read %d time(s) since recall counting began, last on %s", sub.Recalls, sub.LastRead))
	}
	if fin.rule != "" && !finished {
		sub.Evidence = append(sub.Evidence, "not finished: "+fin.String())
	}
	if finished {
		sub.FinishedBy = fin.String()
	}
	switch {
	case finished && sub.Critical == "yes":
		sub.Reason = fmt.Sprintf("finished (%s) but critical: keep until its lesson has landed elsewhere", fin)
	case finished && readRecently(sub, asOf):
		sub.Reason = fmt.Sprintf("finished (%s), but it loads today and was read in the last %d days (%d time(s), last on %s): kept", fin, RecentDays, sub.Recalls, sub.LastRead)
	case finished:
		sub.Disposition = "demote"
		sub.Reason = fmt.Sprintf("finished or superseded by its own record (%s)", fin)
		demoteDestination(sub, b)
	case strings.EqualFold(b.Front["type"], "feedback") && ruleRE().MatchString(b.Front["description"]+" "+b.Lesson):
		sub.Disposition = "promote"
		sub.Reason = "a standing rule, general beyond this store: it belongs in a permanent instruction file"
		sub.Destination = promotionDestination("")
		sub.LessonProbe = b.Lesson
		sub.Evidence = append(sub.Evidence, "type feedback, worded as a rule: "+b.Lesson)
	default:
		sub.Reason = "nothing marks it finished, duplicated or dangling"
	}
}

// RecentDays is how far back a read counts as recent: a subject that loads
// today and was read within it is in use, and a plan keeps it.
const RecentDays = 30

// readRecently reports whether a subject loads today and the recall log
// records a read of it within RecentDays of asOf.
func readRecently(sub *Subject, asOf records.Date) bool {
	return sub.LoadsNow && sub.LastRead != "" && sub.LastRead >= addDays(asOf, -RecentDays).String()
}

func demoteDestination(sub *Subject, b *body) {
	sub.Destination = "ARCHIVE.md (body kept at " + sub.Name + ".md)"
	sub.LessonProbe = b.Lesson
}

// oldestDate returns the oldest yyyy-MM-dd date in text.
func oldestDate(text string) (string, bool) {
	best := ""
	for _, m := range dateRE().FindAllStringSubmatch(text, -1) {
		d := m[1] + "-" + m[2] + "-" + m[3]
		if _, err := time.Parse("2006-01-02", d); err != nil {
			continue
		}
		if best == "" || d < best {
			best = d
		}
	}
	return best, best != ""
}

// segmentUnits is what each subject's pointer segments cost, in units.
func segmentUnits(ix *index.Index) map[string]int {
	out := map[string]int{}
	for i := range ix.Lines {
		l := &ix.Lines[i]
		subs := l.Subjects()
		if len(subs) == 0 {
			continue
		}
		segs := segments(l.Text, subs)
		for n, k := range subs {
			u := textfile.Units(segs[n])
			if len(subs) == 1 {
				u = textfile.Units(l.Text) + 1
			}
			out[records.LinkName(k)] += u
		}
	}
	return out
}

// reachTarget demotes, from the subjects the plan keeps, the fewest and
// safest until the index fits the target. Recall evidence first: never
// read before read long ago; then the oldest by the date its name or hook
// carries, project notes before references before rules, subjects the
// index line emphasizes last, earliest line first. A critical entry, an
// orphan, one whose removal would trim a hook (R1) or fold subjects (R2),
// and one that loads today and was read in the last RecentDays are never
// candidates. When the target cannot be reached without those read
// recently, nothing is chosen for the owner: the plan says so and shows
// the trade (tradeFor).
func reachTarget(s *store, pl *Plan, asOf records.Date) {
	if f, _ := after(s, pl); f.WithinTarget {
		return
	}
	r := newReach(s, pl)
	if len(s.recalls) == 0 {
		pl.Notes = append(pl.Notes, fmt.Sprintf("no recall evidence (%s is empty or absent): the demotions that reach the target are chosen by kind and date alone, not by what sessions read; the post-read hook ('memcompact hooks') keeps the count", RecallRel))
	}
	if r.run(r.candidates(asOf, false)) {
		return
	}
	protected := r.candidates(asOf, true)
	if len(protected) == 0 {
		return
	}
	trade, ok := tradeFor(s, pl, protected)
	if !ok {
		trade = nil
	}
	var names []string
	for _, i := range protected {
		names = append(names, pl.Subjects[i].Identity)
	}
	pl.Cost.Kept = names
	pl.Cost.Trade = trade
	note := fmt.Sprintf("the target (%d lines, %d units) is not reached without demoting subjects that load today and were read in the last %d days, that the index emphasizes or that are marked active; the plan keeps them (%s)", pl.Target.Lines, pl.Target.Units, RecentDays, strings.Join(names, ", "))
	if len(trade) > 0 {
		note += fmt.Sprintf("; the trade that would reach it: demote %s (change their disposition to demote at review to take it)", strings.Join(trade, ", "))
	}
	pl.Notes = append(pl.Notes, note)
}

// run demotes candidates in order until the index is within the target;
// it reports whether it got there.
func (r *reach) run(cands []int) bool {
	pl := r.pl
	for _, i := range cands {
		sub := &pl.Subjects[i]
		prev := *sub
		r.tried = append(r.tried, tried{at: i, prev: prev, acceptedBefore: len(r.accepted)})
		sub.Disposition = "demote"
		sub.Reason = fmt.Sprintf("to bring the index within the target (%d lines, %d units): among the oldest, least recalled subjects that are not critical", pl.Target.Lines, pl.Target.Units)
		demoteDestination(sub, r.s.bodies[sub.Name])
		if err := r.hookCheck(sub.Name); err != nil {
			*sub = prev
			sub.Evidence = append(sub.Evidence, "not demoted to reach the target: "+err.Error())
			continue
		}
		r.accept(sub.Name)
		if len(r.accepted) >= r.nextMeasure {
			if r.within(len(r.accepted)) {
				r.stopAtFirstWithin()
				return true
			}
			r.knownOver, r.nextMeasure = len(r.accepted), 2*len(r.accepted)
		}
	}
	if len(r.accepted) > r.knownOver && r.within(len(r.accepted)) {
		r.stopAtFirstWithin()
		return true
	}
	return false
}

// tradeFor is the fewest of the protected subjects (in their order) whose
// demotion, on top of the plan's, would bring the index within the
// target, found on a copy of the plan; ok is false when even all of them
// would not.
func tradeFor(s *store, pl *Plan, protected []int) ([]string, bool) {
	cp := *pl
	cp.Subjects = slices.Clone(pl.Subjects)
	cp.Notes = nil
	r := newReach(s, &cp)
	if !r.run(protected) {
		return nil, false
	}
	var out []string
	for _, i := range protected {
		if cp.Subjects[i].Disposition == "demote" {
			out = append(out, cp.Subjects[i].Identity)
		}
	}
	return out, true
}

// reach demotes candidates in their order until the index is within the
// target, with the outcome of demoting them one at a time and measuring
// after each, at a cost that does not grow with the square of the index
// (a cut index of 10,000 pointers took minutes). Two facts make it cheap.
// A subject whose pointers sit on lines of their own cannot trim another
// subject's hook or fold a note when it goes, so once the index passes the
// hook check only subjects sharing a line are checked against it rebuilt.
// And going within the target is monotone in the demotions, so the index
// is measured after 1, 2, 4 … demotions and the first count that fits is
// found by bisection, the demotions tried after it put back as they were.
type reach struct {
	s           *store
	pl          *Plan
	ix          *index.Index
	slots       map[string][]Slot // entry name → its subject links
	solo        map[string]bool   // entry name → every line holding it holds nothing else
	base        map[Slot]bool     // what the plan already takes out
	drop        map[Slot]bool     // base and every accepted demotion
	before      hookState
	passes      bool     // the index with drop rebuilt passes the hook check
	accepted    []string // entry names demoted, in order
	tried       []tried
	knownOver   int // a count of demotions known to leave the index over the target
	nextMeasure int
}

type tried struct {
	at             int
	prev           Subject
	acceptedBefore int
}

func newReach(s *store, pl *Plan) *reach {
	ix := s.parsed()
	r := &reach{s: s, pl: pl, ix: ix, slots: slotsByName(ix), solo: map[string]bool{}, base: slotsOf(s, pl), nextMeasure: 1}
	for name, slots := range r.slots {
		r.solo[name] = true
		for _, sl := range slots {
			for _, k := range ix.Lines[sl.Line-1].Subjects() {
				if records.LinkName(k) != name {
					r.solo[name] = false
				}
			}
		}
	}
	r.drop = maps.Clone(r.base)
	r.before = judgeHooks(ix)
	lines, _ := rebuild(ix, r.drop)
	r.passes = r.before.check(index.Parse(lines)) == nil
	return r
}

// candidates are the kept, non-critical pointer subjects with a body to
// demote to, in the order reachTarget demotes them. With protected false
// they are the ones a plan may choose; with protected true, the ones it
// never chooses silently (the trade): those that load today and were read
// in the last RecentDays, those whose index line or section the owner
// emphasized (🚨, "READ FIRST" — prose, so no critical call, but not the
// sweep's to demote unasked), and those a structural rule found still in
// work (status: active, [active], open work in a status line). A dedupe's survivor carries the folded
// subjects' lessons: it stays.
func (r *reach) candidates(asOf records.Date, protected bool) []int {
	survivor := map[string]bool{}
	for _, sub := range r.pl.Subjects {
		if sub.Disposition == "dedupe-into" {
			survivor[sub.Into] = true
		}
	}
	var cands []int
	for i, sub := range r.pl.Subjects {
		if sub.Population != sweep.PopPointer || sub.Disposition != Keep || sub.Critical == "yes" || !r.s.bodies[sub.Name].Exists || survivor[sub.Identity] {
			continue
		}
		if (readRecently(&r.pl.Subjects[i], asOf) || r.emphasized(sub.Line) != "" || r.s.active[sub.Name]) != protected {
			continue
		}
		cands = append(cands, i)
	}
	kinds := map[string]int{}
	for _, i := range cands {
		sub := &r.pl.Subjects[i]
		kinds[sub.Name] = kindRank(sub.Name, r.s.bodies[sub.Name].Front["type"])
	}
	slices.SortStableFunc(cands, func(a, b int) int {
		return compareCandidates(&r.pl.Subjects[a], &r.pl.Subjects[b], kinds)
	})
	return cands
}

// emphasized is the emphasis the index gives line (1-based) or the section
// it sits under: criticalMark of the line, else of its heading; "".
func (r *reach) emphasized(line int) string {
	if line <= 0 || line > len(r.ix.Lines) {
		return ""
	}
	if m := criticalMark(r.ix.Lines[line-1].Text); m != "" {
		return m
	}
	for i := line - 2; i >= 0; i-- {
		if t := r.ix.Lines[i].Text; strings.HasPrefix(t, "#") {
			return criticalMark(t)
		}
	}
	return ""
}

// hookCheck judges demoting name on top of every accepted demotion.
func (r *reach) hookCheck(name string) error {
	if r.solo[name] && r.passes {
		return nil
	}
	trial := maps.Clone(r.drop)
	for _, sl := range r.slots[name] {
		trial[sl] = true
	}
	lines, _ := rebuild(r.ix, trial)
	return r.before.check(index.Parse(lines))
}

func (r *reach) accept(name string) {
	for _, sl := range r.slots[name] {
		r.drop[sl] = true
	}
	r.accepted = append(r.accepted, name)
	r.passes = true
}

// within reports whether the first n accepted demotions bring the index
// within the target.
func (r *reach) within(n int) bool {
	drop := maps.Clone(r.base)
	for _, name := range r.accepted[:n] {
		for _, sl := range r.slots[name] {
			drop[sl] = true
		}
	}
	lines, _ := rebuild(r.ix, drop)
	f, _ := figures(lines, r.pl.Target)
	return f.WithinTarget
}

// stopAtFirstWithin finds the fewest accepted demotions that fit (all of
// them do) and puts back every candidate tried after the last of those.
func (r *reach) stopAtFirstWithin() {
	lo, hi := r.knownOver, len(r.accepted) // over at lo, within at hi
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if r.within(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	for _, t := range r.tried {
		if t.acceptedBefore >= hi {
			r.pl.Subjects[t.at] = t.prev
		}
	}
	r.accepted = r.accepted[:hi]
}

// compareCandidates orders demotion candidates: recall evidence first
// (never read, then read longest ago), then the most ephemeral kind
// (project notes before references before rules), the oldest date, the
// earliest line.
func compareCandidates(a, b *Subject, kinds map[string]int) int {
	if a.LastRead != b.LastRead {
		return strings.Compare(a.LastRead, b.LastRead) // "" (never read) first
	}
	if ka, kb := kinds[a.Name], kinds[b.Name]; ka != kb {
		return ka - kb
	}
	da, aok := oldestDate(strings.Join(a.Evidence, " "))
	db, bok := oldestDate(strings.Join(b.Evidence, " "))
	switch {
	case aok && !bok:
		return -1
	case !aok && bok:
		return 1
	case aok && bok && da != db:
		return strings.Compare(da, db)
	}
	if a.Recalls != b.Recalls {
		return a.Recalls - b.Recalls
	}
	return a.Line - b.Line
}

// kindRank orders entry kinds from most to least ephemeral, by the
// entry's frontmatter type, else its name's prefix.
func kindRank(name, typ string) int {
	k := strings.ToLower(typ)
	if k == "" {
		k = name
	}
	switch {
	case strings.HasPrefix(k, "project"):
		return 0
	case strings.HasPrefix(k, "reference"):
		return 1
	case strings.HasPrefix(k, "feedback"), strings.HasPrefix(k, "user"):
		return 3
	}
	return 2
}
