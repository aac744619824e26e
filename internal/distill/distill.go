// Package distill turns the oldest tier of a memory file into the bullets
// of a Compacted History block, and trims the mid tier lightly.
//
// There are three interchangeable summarizers. Builtin is deterministic and
// extractive: it writes no word that was not in the entries, but for dates
// joined into one bullet and one line naming the dates of chatter. External
// pipes the tier to any command (a model CLI, a script) and reads bullets
// back. The third is an agent writing the bullets itself from a --plan; its
// file is read with ParseBullets, like External's output. Whatever wrote
// them, the compact package verifies the bullets before anything is
// written, so a summarizer is trusted with nothing.
//
// # Builtin
//
// Each entry is cut into units: a list item with its continuation lines, a
// paragraph, or one line of a fenced code block. Sub-headings, separators
// and blank lines are structure and are dropped, and so is everything under
// a "Recall Keywords" (or "Keywords", "Tags") sub-heading: search aids, not
// knowledge. Under a "Context" or "Follow-ups" sub-heading (one-off context
// and the open ends of an old entry) a unit is kept only if it holds a
// fact, a decision or preference, or a symptom (failed, error, refused…).
// Elsewhere a unit that holds a fact (see package facts) is always kept;
// filler ("ok", "none", "see above", "n/a", "nothing else to note", …), open
// questions (a template's prompts) and chatter ("Sam said thanks", "good
// session", "we talked about X for a while", "no decision") are dropped
// unless they also carry a decision, preference or lesson ("decided",
// "prefers", "never", "fixed", …); the rest is kept: an extractive
// summarizer cannot tell every lesson from chatter, so it errs on the side
// of keeping.
//
// Dates are facts, and memory files put one in front of nearly every entry,
// so a leading date stamp ("2026-04-08 14:30 — ", "- 2026-04-08: ",
// "**2026-04-08**: ") is set apart from the text it dates. A unit whose
// normalized text (lower case, letters and digits only) repeats, or is
// contained in, an earlier kept unit is a duplicate: a dated one (a list
// item, or an entry titled by a date alone) adds its date to the bullet it
// repeats ("2026-01-03, 2026-02-07: Prefers tabs."); one inside a titled
// entry is dropped, and a titled entry left with nothing new adds its date
// to the bullet its title led before. Containment is checked against the
// last 64 bullets, exact repeats against all. A titled entry's first bullet
// is prefixed with its title ("2026-04-08 14:30 — Port fix: …"), so the
// date and subject survive. The dates of dated units that held only chatter
// or filler are listed once, on a last bullet "Only chatter or filler on
// D1, D2." — the dates survive, the chatter does not.
//
// An existing block's bullets (a Source marked Kept) go first: they are
// kept word for word, and later repeats only add dates to them, so a second
// compaction merges into the first instead of restating it.
//
// Last, any fact of the tier still missing from the bullets brings back the
// line that held it, so the built-in summary never loses a fact. Apart from
// the joined dates and the chatter line, Builtin writes no word that was not
// in the entries.
package distill

import (
	"strings"
	"unicode"

	"github.com/memcompact/memcompact/internal/facts"
	"github.com/memcompact/memcompact/internal/lazyre"
)

// nearDupWindow is how many recent bullets a unit is compared with for
// containment (exact repeats are caught across the whole tier).
const nearDupWindow = 64

// Source is one entry handed to a summarizer.
type Source struct {
	Title string // the entry's heading text; "" for a list-item entry
	Text  string // the whole entry, heading included
	// Kept marks the bullets of an existing Compacted History block, one
	// per line: Builtin keeps every one of them (they are distilled
	// already) and merges later repeats into them.
	Kept bool
}

var (
	itemRE     = lazyre.New(`^(\s*)(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?`)
	headingRE  = lazyre.New(`^ {0,3}#{1,6}(?:\s|$)`)
	breakRE    = lazyre.New(`^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$`)
	fenceRE    = lazyre.New("^ {0,3}(`{3,}|~{3,})")
	keywordRE  = lazyre.New(`(?i)\b(decid\w*|decision|chose|choose|prefer\w*|always|never|must|should\w*|don't|do not|avoid\w*|instead|because|rule|policy|fix\w*|works?|worked|broke\w*|fail\w*|error\w*|learn\w*|lesson|remember|important|wants?|likes?|dislikes?|hates?|requires?|convention|default|use[sd]?|using|confirm\w*|verif\w*|caused|cause|workaround|solution|resolved)\b`)
	keywordsRE = lazyre.New(`(?i)^(recall keywords|keywords|tags)\b`)
	// contextRE names the sub-headings of one-off context (a topic
	// diary's "Context", "Follow-ups"): what prompted an old entry, and
	// its open ends, rarely outlive it. Units under them are kept only
	// with a fact, a decision or preference (signalRE), or a symptom
	// (problemRE).
	contextRE = lazyre.New(`(?i)^(context|background|follow[ -]?ups?|next steps|open questions)\b`)
	problemRE = lazyre.New(`\b(fail\w*|error\w*|crash\w*|broke\w*|refus\w*|panic\w*|timed out|timeout|denied|missing|not found|cannot|can t|won t)\b`)
	// chatterRE finds social talk and session bookkeeping in a unit's Key:
	// a unit it matches is dropped unless it holds a fact or signalRE finds
	// a decision, preference or lesson in it.
	chatterRE = lazyre.New(`\b(thanks|thank you|thanked|cheers|good (session|day|call|chat|mood|talk)|nice (chat|session|call|talk)|great (session|chat|call)|(chatted|talked|chatting|talking|joked|joking|chat|talk|chit chat|small talk)( a bit| a little| briefly| for a while| for a bit)? (about|for|on)|small talk|(was|seemed|is|felt|were) (in a (good|great|bad) mood|happy|tired|annoyed|excited|pleased|in a hurry)|nothing (else|new|more|much)( to (note|add|report))?( for now| today)?|quick check in|check again (later|next week|tomorrow)|follow up next (session|time|week)|lots of ideas|mostly chatting|just chatting|no decision)\b`)
	signalRE  = lazyre.New(`\b(decid\w*|decision|chose|prefer\w*|always|never|must|don t|do not|doesn t|does not|avoid\w*|wants?|likes?|dislikes?|hates?|fix\w*|root cause|learn\w*|lesson|remember|important|rule|requires?|convention|workaround|instead)\b`)
	fillerRE  = lazyre.New(`^(ok|okay|thanks|thank you|done|none|n a|na|tbd|todo|nothing|nothing new|nothing else|nothing further|nothing to add|nothing to note|nothing else to note|nothing else to add|nothing else for now|nothing new today|see above|as discussed|as mentioned|as mentioned above|no changes|no updates|no notes|misc|various|etc|same as above|see below|more later|to be continued)$`)
)

// bullet is one bullet being built: its stamps (the dates, with times,
// that led the units merged into it), the separator written after them,
// and the body.
type bullet struct {
	stamps []string
	sep    string
	body   string
	key    string // Key(body)
	lead   bool   // body begins with a correction or reminder ("Corrected me: …")
}

func (b *bullet) String() string {
	if len(b.stamps) == 0 {
		return b.body
	}
	return strings.Join(b.stamps, ", ") + b.sep + b.body
}

func (b *bullet) addStamp(s string) {
	if s == "" {
		return
	}
	for _, old := range b.stamps {
		if old == s {
			return
		}
	}
	b.stamps = append(b.stamps, s)
}

// Builtin distills srcs into bullets (without the "- " marker).
func Builtin(srcs []Source) []string {
	var bullets []*bullet
	exact := map[string]*bullet{}  // Key(body) -> its bullet
	cores := map[string]*bullet{}  // Key(body without a lead-in) -> its bullet
	titles := map[string]*bullet{} // Key(title) -> the bullet it first led
	var dropped []string           // stamps of units that left no bullet
	// find returns the kept bullet a unit repeats: one with the same key,
	// or one of the last nearDupWindow bullets whose key contains it (a
	// bounded window keeps the built-in summarizer linear on huge tiers).
	find := func(k string) *bullet {
		if b := exact[k]; b != nil {
			return b
		}
		if b := cores[coreKey(k)]; b != nil {
			return b
		}
		if len(k) >= 12 {
			for _, old := range bullets[max(0, len(bullets)-nearDupWindow):] {
				if strings.Contains(old.key, k) {
					return old
				}
			}
		}
		return nil
	}
	add := func(stamp, sep, body string) *bullet {
		b := &bullet{sep: sep, body: body, key: Key(body), lead: leadRE().MatchString(body)}
		b.addStamp(stamp)
		bullets = append(bullets, b)
		exact[b.key] = b
		if ck := coreKey(b.key); cores[ck] == nil {
			cores[ck] = b
		}
		return b
	}
	var chatterDates []string // dates of an earlier block's chatter line
	for _, src := range srcs {
		if src.Kept {
			for _, l := range strings.Split(src.Text, "\n") {
				u := strip(l)
				if u == "" {
					continue
				}
				if rest, ok := strings.CutPrefix(u, chatterLead); ok {
					chatterDates = append(chatterDates, dateRE().FindAllString(rest, -1)...)
					continue
				}
				stamps, sep, body := splitStamps(u)
				if old := find(Key(body)); old != nil && Key(body) != "" {
					for _, st := range stamps {
						old.addStamp(st)
					}
					continue
				}
				b := add("", sep, body)
				for _, st := range stamps {
					b.addStamp(st)
				}
				// A bullet a titled entry led reads "STAMPS — Title: …";
				// a later entry under the same title that brings nothing
				// new adds its date here. (A title may hold ": " itself,
				// so each prefix ending before one is a candidate.)
				if len(stamps) > 0 && sep != ": " {
					for i := strings.Index(body, ": "); i > 0; {
						if tk := Key(body[:i]); tk != "" && titles[tk] == nil {
							titles[tk] = b
						}
						j := strings.Index(body[i+2:], ": ")
						if j < 0 {
							break
						}
						i += 2 + j
					}
				}
			}
			continue
		}
		tStamp, tSep, tRest := splitStamp(src.Title)
		tKey := Key(tRest)
		// A list item, or an entry titled by a date alone (a daily diary),
		// is dated unit by unit: a repeated unit adds its date to the
		// bullet it repeats. An entry with a real title leads its first
		// bullet with the title; its repeated units are simply dropped.
		dated := src.Title == "" || tRest == ""
		first := true // no unit of this entry made a bullet yet
		for _, u := range units(src) {
			stamp, sep, body := splitStamp(u)
			if src.Title != "" {
				stamp, sep, body = tStamp, tSep, u
			}
			k := Key(body)
			if k == "" || !worth(body) {
				if dated && stamp != "" {
					dropped = append(dropped, stamp)
				}
				continue
			}
			if old := find(k); old != nil {
				if dated {
					old.addStamp(stamp)
					if !old.lead && leadRE().MatchString(body) && coreKey(k) == coreKey(old.key) {
						// The same preference, now as a correction: the
						// bullet says so, since a recurring correction
						// is worth more than the plain statement.
						old.body, old.key, old.lead = body, k, true
						exact[k] = old
					}
				}
				continue
			}
			switch {
			case dated:
				add(stamp, sep, body)
			case first:
				b := add(stamp, sep, tRest+": "+body)
				exact[k] = b
				if titles[tKey] == nil {
					titles[tKey] = b
				}
			default:
				add("", "", body)
			}
			first = false
		}
		if !first || dated {
			continue
		}
		// A titled entry with nothing new: its date joins the bullet its
		// title led before, else the title stands alone if it says
		// something.
		switch {
		case tKey != "" && titles[tKey] != nil:
			titles[tKey].addStamp(tStamp)
		case len(facts.Extract(tRest)) > 0 || keywordRE().MatchString(tRest) || tStamp != "":
			titles[tKey] = add(tStamp, tSep, tRest)
		}
	}
	out := make([]string, 0, len(bullets)+1)
	for _, b := range bullets {
		out = append(out, b.String())
	}

	// The guarantee: bring back the line of any fact still missing. A date
	// that only led dropped chatter is listed once, on its own bullet,
	// rather than bringing its chatter back. Line numbers of facts are
	// lines of this text, so it must be built exactly as the lines are
	// split below.
	all := TierText(srcs)
	missing := facts.Missing(facts.Extract(all), strings.Join(out, "\n"))
	if len(missing) == 0 && len(chatterDates) == 0 {
		return out
	}
	chatter := map[string]bool{} // dates that only led chatter or filler
	for _, s := range dropped {
		if d := dateRE().FindString(s); d != "" {
			chatter[d] = true
		}
	}
	dates := chatterDates
	listed := map[string]bool{}
	for _, d := range dates {
		chatter[d], listed[d] = true, true
	}
	lines := strings.Split(strings.ReplaceAll(strings.ReplaceAll(all, "\r\n", "\n"), "\r", "\n"), "\n")
	added := ""
	for _, f := range missing {
		if facts.Holds(added, f) {
			continue
		}
		if f.Kind == facts.Date && chatter[f.Text] {
			if !listed[f.Text] {
				listed[f.Text] = true
				dates = append(dates, f.Text)
			}
			continue
		}
		if f.Line-1 < len(lines) {
			b := strip(lines[f.Line-1])
			if !facts.Holds(b, f) {
				// A fenced code line: quote it whole.
				b = quoteCode(strings.TrimSpace(lines[f.Line-1]))
			}
			out = append(out, b)
			added += b + "\n"
		}
	}
	if len(dates) > 0 {
		out = append(out, chatterLead+strings.Join(dates, ", ")+".")
	}
	return out
}

// leadRE matches the lead-in of a unit that restates something as a
// correction or a reminder ("Corrected me: prefers tabs."): such a unit
// repeats the statement it restates. The list is closed on purpose: a
// lead-in like "Rejected:" changes what follows, and is not matched.
var leadRE = lazyre.New(`(?i)^(?:(?:corrected|reminded|told|warned) (?:me|us)(?: again)?|again|reminder|correction|repeated|restated|note|noted|new)\s*(?::|—|–|-|,)\s+`)

// leadKeyRE is leadRE for a Key.
var leadKeyRE = lazyre.New(`^(?:(?:corrected|reminded|told|warned) (?:me|us)(?: again)?|again|reminder|correction|repeated|restated|note|noted|new) `)

// coreKey is a Key without a correction or reminder lead-in.
func coreKey(k string) string {
	first, _, _ := strings.Cut(k, " ")
	if !leadWords[first] {
		return k // the common case, without a regular expression
	}
	return leadKeyRE().ReplaceAllString(k, "")
}

// leadWords are the first words leadKeyRE can match.
var leadWords = map[string]bool{"corrected": true, "reminded": true, "told": true, "warned": true, "again": true, "reminder": true, "correction": true, "repeated": true, "restated": true, "note": true, "noted": true, "new": true}

// chatterLead begins the one bullet that lists the dates of entries that
// held nothing but chatter or filler: the dates are facts, the chatter is
// not.
const chatterLead = "Only chatter or filler on "

// stampsRE matches a list of stamps as a bullet written by Builtin begins.
var stampsRE = lazyre.New(`^(\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?(?:, \d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?)*)(?:: | (—|–|-) )`)

// splitStamps is splitStamp for a bullet Builtin wrote, whose stamps may be
// a list ("2026-01-03, 2026-02-07: Prefers tabs.").
func splitStamps(s string) (stamps []string, sep, rest string) {
	m := stampsRE().FindStringSubmatchIndex(s)
	if m == nil {
		return nil, "", s
	}
	sep = ": "
	if m[4] >= 0 {
		sep = " " + s[m[4]:m[5]] + " "
	}
	return strings.Split(s[m[2]:m[3]], ", "), sep, s[m[1]:]
}

// stampRE matches a leading date stamp: a date, an optional time, in
// optional bold or brackets, then a separator (":", "—", "–" or "-").
var stampRE = lazyre.New(`^(?:\*\*|\[)?(\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?)(?:\*\*|\])?(?:\s*(:|—|–|-)\s+|\s*$)`)

var dateRE = lazyre.New(`\d{4}-\d{2}-\d{2}`)

// splitStamp splits "2026-04-08 14:30 — Port fix" into its stamp
// ("2026-04-08 14:30"), the separator to write after a list of stamps
// (" — " or ": ") and the rest ("Port fix"). Text without a leading date
// has no stamp.
func splitStamp(s string) (stamp, sep, rest string) {
	m := stampRE().FindStringSubmatchIndex(s)
	if m == nil {
		return "", "", s
	}
	stamp = s[m[2]:m[3]]
	rest = strings.TrimSpace(s[m[1]:])
	sep = ": "
	if m[4] >= 0 && s[m[4]:m[5]] != ":" {
		sep = " " + s[m[4]:m[5]] + " "
	}
	return stamp, sep, rest
}

// worth reports whether a unit is worth a bullet.
func worth(u string) bool {
	if len(facts.Extract(u)) > 0 {
		return true
	}
	k := Key(u)
	return k != "" && !isFiller(k) && !strings.HasSuffix(strings.TrimSpace(u), "?")
}

// units cuts an entry into list items, paragraphs and code lines.
func units(src Source) []string {
	lines := strings.Split(strings.ReplaceAll(strings.ReplaceAll(src.Text, "\r\n", "\n"), "\r", "\n"), "\n")
	if src.Title != "" && len(lines) > 0 {
		lines = lines[1:]
	}
	var out []string
	var cur []string
	weak := false // under a Context or Follow-ups sub-heading
	flush := func() {
		if len(cur) > 0 {
			u := strings.Join(cur, " ")
			if !weak || len(facts.Extract(u)) > 0 || signalRE().MatchString(Key(u)) || problemRE().MatchString(Key(u)) {
				out = append(out, u)
			}
			cur = nil
		}
	}
	var fence string
	skip := false // under a keywords sub-heading
	for _, l := range lines {
		if fence != "" {
			if m := fenceRE().FindStringSubmatch(l); m != nil && m[1][0] == fence[0] && len(m[1]) >= len(fence) && strings.TrimSpace(l[len(m[0]):]) == "" {
				fence = ""
				continue
			}
			if strings.TrimSpace(l) != "" {
				out = append(out, quoteCode(strings.TrimSpace(l)))
			}
			continue
		}
		if headingRE().MatchString(l) {
			flush()
			skip = keywordsRE().MatchString(strip(l))
			weak = contextRE().MatchString(strip(l))
		}
		if skip && len(facts.Extract(l)) == 0 {
			continue
		}
		if m := fenceRE().FindStringSubmatch(l); m != nil && !(m[1][0] == '`' && strings.Contains(l[len(m[0]):], "`")) {
			flush()
			fence = m[1]
			continue
		}
		t := strings.TrimSpace(l)
		switch {
		case t == "" || headingRE().MatchString(l) || breakRE().MatchString(l):
			flush()
		case itemRE().MatchString(l):
			flush()
			cur = append(cur, strip(l))
		default:
			cur = append(cur, t)
		}
	}
	flush()
	return out
}

// strip removes a line's list marker or heading marks and outer spaces.
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

// quoteCode wraps a code line in a code span long enough for its own
// backticks.
func quoteCode(s string) string {
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	ticks := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return ticks + " " + s + " " + ticks
	}
	return ticks + s + ticks
}

// Key is the normalized form used to spot duplicates: lower case, letters
// and digits, single spaces.
func Key(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteRune(r)
			space = false
		} else {
			space = true
		}
	}
	return b.String()
}

// TierText renders sources as the text given to an external summarizer and
// shown by --plan: the entries as they are, each ending with a newline.
func TierText(srcs []Source) string {
	var b strings.Builder
	for _, s := range srcs {
		b.WriteString(s.Text)
		if !strings.HasSuffix(s.Text, "\n") {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// ParseBullets reads a summary written by an external summarizer or an
// agent: each non-blank line is one bullet, list markers dropped; headings,
// separators and a "*Distilled from …*" line are ignored.
func ParseBullets(out string) []string {
	var bullets []string
	for _, l := range strings.Split(strings.ReplaceAll(strings.ReplaceAll(out, "\r\n", "\n"), "\r", "\n"), "\n") {
		t := strings.TrimSpace(l)
		if t == "" || headingRE().MatchString(t) || breakRE().MatchString(t) || strings.HasPrefix(t, "*Distilled from") {
			continue
		}
		bullets = append(bullets, strip(t))
	}
	return bullets
}
