package sweepact

import (
	"bytes"
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

// finishedRE finds an entry's own word that its work is over, in the
// languages the real stores are written in. "supersedes" is deliberately
// absent: the entry that supersedes is the live one.
var finishedRE = lazyre.New(`(?i)\b(resolved|completed?|closed|superseded|obsolete|deprecated|retired|fixed|merged|shipped|landed|erledigt|abgeschlossen|behoben|termin[ée]|r[ée]solu|ferm[ée]|resuelto|cerrado|completado|conclu[ií]do|resolvido)\b|완료|해결됨|종료|폐기|머지 ?완료|完了|解決済|解决|已完成|已关闭|終了|廃止`)

// criticalRE finds the index's own emphasis that an entry must load.
var criticalRE = lazyre.New(`(?i)🚨|⚠️|⛔|\bcritical\b|read (first|before)|\bimportant\b|중요|필독|必読|重要`)

// criticalMark is criticalRE's first match in line, or "". Most lines
// hold none of the pattern's words, and Go's regexp costs about as much to
// say so as to find one (it tries each start position), while doctor and
// the session-start hook plan a sweep of every cut index on each run; so a
// line that holds none of the pattern's literals, as strings.ToLower
// spells them, is answered without it. The letters of those words fold to
// ASCII letters only, which ToLower maps alike, so the shortcut never
// hides a match (TestCriticalMarkShortcut).
//
// The test runs once per subject of a cut index, so it allocates nothing:
// each mark outside ASCII is looked for as it is spelled (the pattern
// folds none of them), and each word ignoring ASCII case alone (no other
// letter folds to theirs).
func criticalMark(line string) string {
	if !containsAnyOf(line, criticalMarks) {
		if !containsFoldASCII(line, "critical") && !containsFoldASCII(line, "read f") && !containsFoldASCII(line, "read b") && !containsFoldASCII(line, "important") {
			return ""
		}
	}
	return criticalRE().FindString(line)
}

// criticalMarks are the marks outside ASCII criticalRE finds.
var criticalMarks = []string{"🚨", "⚠", "⛔", "중", "필", "必", "重"}

// containsAnyOf reports whether s holds one of subs.
func containsAnyOf(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// containsFoldASCII reports whether s holds w (lower-case ASCII) ignoring
// ASCII case.
func containsFoldASCII(s, w string) bool {
	for i := 0; i+len(w) <= len(s); i++ {
		j := 0
		for j < len(w) && lowerASCII(s[i+j]) == w[j] {
			j++
		}
		if j == len(w) {
			return true
		}
	}
	return false
}

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
			Recalls: s.recalls[e.Name], LoadsNow: e.Population == sweep.PopPointer && !past[e.Line]}
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
			proposeByText(&sub, text, b, asOf)
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
// is one, else a proposal the apply appends when the subject is acted on.
func assess(s *store, sub *Subject, line string, b *body, asOf records.Date) {
	if r := s.slate.Current(sub.Identity, records.TrackCritical); r != nil {
		sub.Critical, sub.CriticalWhy = r.Value, r.Detail
		return
	}
	sub.Assess = true
	if m := criticalMark(line); m != "" {
		sub.Critical = "yes"
		sub.CriticalWhy = fmt.Sprintf("the index marks it %q: assessed critical at the sweep of %s", m, asOf)
		return
	}
	sub.Critical = "no"
	sub.CriticalWhy = fmt.Sprintf("assessed at the sweep of %s: the index gives it no critical mark", asOf)
	if !b.Exists {
		sub.CriticalWhy = fmt.Sprintf("assessed at the sweep of %s: its body is gone, only the pointer line is left", asOf)
	}
}

// proposeByText proposes from the entry's own words: finished or
// superseded → demote; a standing rule → promote; the rest keep.
func proposeByText(sub *Subject, text string, b *body, asOf records.Date) {
	if d, ok := oldestDate(text); ok {
		sub.Evidence = append(sub.Evidence, "dated "+d)
	}
	if sub.Recalls > 0 {
		sub.Evidence = append(sub.Evidence, fmt.Sprintf("read %d time(s) since recall counting began", sub.Recalls))
	}
	finished := finishedWord(text)
	switch {
	case finished != "" && sub.Critical != "yes":
		sub.Disposition = "demote"
		sub.Reason = fmt.Sprintf("its own text marks it finished or superseded (%q)", finished)
		sub.Evidence = append(sub.Evidence, fmt.Sprintf("says %q", finished))
		demoteDestination(sub, b)
	case finished != "":
		sub.Reason = fmt.Sprintf("marked finished (%q) but critical: keep until its lesson has landed elsewhere", finished)
	case strings.EqualFold(b.Front["type"], "feedback") && ruleRE().MatchString(b.Front["description"]+" "+b.Lesson):
		sub.Disposition = "promote"
		sub.Reason = "a standing rule, general beyond this store: it belongs in a permanent instruction file"
		sub.Destination = "CLAUDE.md"
		sub.LessonProbe = b.Lesson
		sub.Evidence = append(sub.Evidence, "type feedback, worded as a rule: "+b.Lesson)
	default:
		sub.Reason = "nothing marks it finished, duplicated or dangling"
	}
}

// finishedWord is the first of finishedRE's words in text that says the
// entry's work is over: not one inside a hyphenated word ("self-closed"
// tags, "auto-merged") and not one negated by any of the three words
// before it ("not yet resolved", "has not been fixed", "noch nicht
// behoben"); "" when there is none.
//
// It runs the pattern line by line, and only on a line that holds one of
// its words as finishedLiterals spell them: the sweep figure reads every
// entry of a cut index on a first session start, most lines say nothing
// finished, and Go's regexp costs about as much to say so as to find a
// word. A match never spans a line, and a line's ends are word
// boundaries as the line break was, and a negation stops at a line
// break: line by line finds what the whole text does
// (TestFinishedWordByLine).
func finishedWord(text string) string {
	var lower []byte // one buffer for every line's lower case
	for len(text) > 0 {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		if lower = appendLowerASCII(lower[:0], line); !mayBeFinished(line, lower) {
			continue
		}
		for _, m := range finishedRE().FindAllStringIndex(line, -1) {
			if m[0] > 0 && line[m[0]-1] == '-' {
				continue
			}
			if negated(line[:m[0]]) {
				continue
			}
			return line[m[0]:m[1]]
		}
	}
	return ""
}

// finishedLiterals are spelled, lower case, in every match of
// finishedRE: a stem of each of its words.
var finishedLiterals = func() [][]byte {
	var out [][]byte
	for _, w := range []string{"resolv", "complet", "closed", "supersed", "obsolet", "deprecat", "retired", "fixed", "merged",
		"shipped", "landed", "erledigt", "abgeschlossen", "behoben", "termin", "solu", "ferm", "resuelto", "cerrado", "conclu",
		"완료", "해결됨", "종료", "폐기", "完了", "解決済", "解决", "已完成", "已关闭", "終了", "廃止"} {
		out = append(out, []byte(w))
	}
	return out
}()

// mayBeFinished reports whether finishedRE could match in line: lower,
// line with its ASCII letters lowered, holds one of finishedLiterals, or
// line holds a long s (ſ) or a Kelvin sign (K), the letters outside ASCII
// the pattern's case folding matches as s and k.
func mayBeFinished(line string, lower []byte) bool {
	if strings.Contains(line, "ſ") || strings.Contains(line, "\u212a") {
		return true
	}
	for _, w := range finishedLiterals {
		if bytes.Contains(lower, w) {
			return true
		}
	}
	return false
}

// appendLowerASCII appends s to dst with its ASCII letters lowered.
func appendLowerASCII(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		dst = append(dst, lowerASCII(s[i]))
	}
	return dst
}

// negators are the words that, among the three before a finished word,
// turn it around, in the languages finishedRE reads.
var negators = map[string]bool{"not": true, "never": true, "no": true, "isn't": true, "wasn't": true, "aren't": true,
	"hasn't": true, "haven't": true, "won't": true, "didn't": true, "nicht": true, "kein": true, "pas": true, "jamais": true, "non": true}

// negated reports whether a negator stands among the last three words of
// before's last clause (a negation does not reach past ".", ";", ",", a
// dash or a line end: "Not a regression; fixed in v2" is fixed).
func negated(before string) bool {
	if i := strings.LastIndexAny(before, ".;:,!?|\n—–"); i >= 0 {
		_, n := utf8.DecodeRuneInString(before[i:])
		before = before[i+n:]
	}
	words := strings.Fields(strings.ToLower(before))
	for i := len(words) - 1; i >= 0 && i >= len(words)-3; i-- {
		w := strings.Trim(words[i], ".,;:!?()[]\"'`")
		if negators[w] || strings.HasSuffix(w, "n't") {
			return true
		}
	}
	return false
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
// safest until the index fits the target: finished first, then the oldest
// by the date its name or hook carries, project notes before references
// before rules, least recalled first, earliest line first. A critical
// entry, an unassessed-by-marker one, one read often, an orphan and one
// whose removal would trim a hook (R1) or fold subjects (R2) are never
// candidates.
func reachTarget(s *store, pl *Plan, asOf records.Date) {
	if f, _ := after(s, pl); f.WithinTarget {
		return
	}
	r := newReach(s, pl)
	recallFloor := recallThreshold(s.recalls)
	for _, i := range r.candidates() {
		sub := &pl.Subjects[i]
		if recallFloor > 0 && sub.Recalls >= recallFloor {
			continue
		}
		prev := *sub
		r.tried = append(r.tried, tried{at: i, prev: prev, acceptedBefore: len(r.accepted)})
		sub.Disposition = "demote"
		sub.Reason = fmt.Sprintf("to bring the index within the target (%d lines, %d units): among the oldest, least recalled subjects that are not critical", pl.Target.Lines, pl.Target.Units)
		demoteDestination(sub, s.bodies[sub.Name])
		if err := r.hookCheck(sub.Name); err != nil {
			*sub = prev
			sub.Evidence = append(sub.Evidence, "not demoted to reach the target: "+err.Error())
			continue
		}
		r.accept(sub.Name)
		if len(r.accepted) >= r.nextMeasure {
			if r.within(len(r.accepted)) {
				r.stopAtFirstWithin()
				return
			}
			r.knownOver, r.nextMeasure = len(r.accepted), 2*len(r.accepted)
		}
	}
	if len(r.accepted) > r.knownOver && r.within(len(r.accepted)) {
		r.stopAtFirstWithin()
	}
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
// demote to, oldest and least recalled first. A dedupe's survivor carries
// the folded subjects' lessons: it stays.
func (r *reach) candidates() []int {
	survivor := map[string]bool{}
	for _, sub := range r.pl.Subjects {
		if sub.Disposition == "dedupe-into" {
			survivor[sub.Into] = true
		}
	}
	var cands []int
	for i, sub := range r.pl.Subjects {
		if sub.Population == sweep.PopPointer && sub.Disposition == Keep && sub.Critical != "yes" && r.s.bodies[sub.Name].Exists && !survivor[sub.Identity] {
			cands = append(cands, i)
		}
	}
	slices.SortStableFunc(cands, func(a, b int) int { return compareCandidates(&r.pl.Subjects[a], &r.pl.Subjects[b]) })
	return cands
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

func compareCandidates(a, b *Subject) int {
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
	if ka, kb := kindRank(a.Name), kindRank(b.Name); ka != kb {
		return ka - kb
	}
	if a.Recalls != b.Recalls {
		return a.Recalls - b.Recalls
	}
	return a.Line - b.Line
}

// kindRank orders entry kinds from most to least ephemeral.
func kindRank(name string) int {
	switch {
	case strings.HasPrefix(name, "project"):
		return 0
	case strings.HasPrefix(name, "reference"):
		return 1
	case strings.HasPrefix(name, "feedback"), strings.HasPrefix(name, "user"):
		return 3
	}
	return 2
}

// recallThreshold is the read count at and above which an entry counts as
// used: the upper quartile of the entries that were read at all. With no
// recall evidence it is 0 (no entry is protected by reads).
func recallThreshold(r map[string]int) int {
	var n []int
	for _, c := range r {
		if c > 0 {
			n = append(n, c)
		}
	}
	if len(n) < 4 {
		return 0
	}
	slices.Sort(n)
	return n[len(n)*3/4]
}
