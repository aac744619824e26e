// Package distill turns the oldest tier of a memory file into the bullets
// of a Compacted History block, and trims the mid tier lightly.
//
// There are three interchangeable summarizers. Builtin is deterministic and
// extractive: it never writes a word that was not in the entries. External
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
// knowledge. A unit that holds a fact (see package facts) is always kept.
// Otherwise filler ("ok", "none", "see above", "n/a", …) and open questions
// (a template's prompts, "What prompted this?") are dropped, and the rest is
// kept: an extractive summarizer cannot tell a lesson from chatter, so it
// errs on the side of keeping. A unit whose normalized text (lower case,
// letters and digits only) repeats, or is contained in, an earlier kept
// unit is dropped as a duplicate (containment is checked against the last 64
// kept bullets, exact repeats against all). A heading entry's first bullet is
// prefixed with its title ("2026-04-08 14:30 — Port fix: …"), so the date
// survives. Last, any fact of the tier still missing from the bullets brings
// back the line that held it, so the built-in summary never loses a fact.
package distill

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/memcompact/memcompact/internal/facts"
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
	itemRE     = regexp.MustCompile(`^(\s*)(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?`)
	headingRE  = regexp.MustCompile(`^ {0,3}#{1,6}(?:\s|$)`)
	breakRE    = regexp.MustCompile(`^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$`)
	fenceRE    = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})")
	keywordRE  = regexp.MustCompile(`(?i)\b(decid\w*|decision|chose|choose|prefer\w*|always|never|must|should\w*|don't|do not|avoid\w*|instead|because|rule|policy|fix\w*|works?|worked|broke\w*|fail\w*|error\w*|learn\w*|lesson|remember|important|wants?|likes?|dislikes?|hates?|requires?|convention|default|use[sd]?|using|confirm\w*|verif\w*|caused|cause|workaround|solution|resolved)\b`)
	keywordsRE = regexp.MustCompile(`(?i)^(recall keywords|keywords|tags)\b`)
	// chatterRE finds social talk and session bookkeeping in a unit's Key:
	// a unit it matches is dropped unless it holds a fact or signalRE finds
	// a decision, preference or lesson in it.
	chatterRE = regexp.MustCompile(`\b(thanks|thank you|thanked|cheers|good (session|day|call|chat|mood|talk)|nice (chat|session|call|talk)|great (session|chat|call)|(chatted|talked|chatting|talking|joked|joking|chat|talk|chit chat|small talk)( a bit| a little| briefly| for a while| for a bit)? (about|for|on)|small talk|(was|seemed|is|felt|were) (in a (good|great|bad) mood|happy|tired|annoyed|excited|pleased|in a hurry)|nothing (else|new|more|much)( to (note|add|report))?( for now| today)?|quick check in|check again (later|next week|tomorrow)|follow up next (session|time|week)|lots of ideas|mostly chatting|just chatting|no decision)\b`)
	signalRE  = regexp.MustCompile(`\b(decid\w*|decision|chose|prefer\w*|always|never|must|don t|do not|doesn t|does not|avoid\w*|wants?|likes?|dislikes?|hates?|fix\w*|root cause|learn\w*|lesson|remember|important|rule|requires?|convention|workaround|instead)\b`)
	fillerRE  = regexp.MustCompile(`^(ok|okay|thanks|thank you|done|none|n a|na|tbd|todo|nothing|nothing new|nothing else|nothing to add|nothing to note|see above|as discussed|as mentioned|as mentioned above|no changes|no updates|no notes|misc|various|etc|same as above|see below|more later|to be continued)$`)
)

// bullet is one bullet being built: its stamps (the dates, with times,
// that led the units merged into it), the separator written after them,
// and the body.
type bullet struct {
	stamps []string
	sep    string
	body   string
	key    string // Key(body)
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
	titles := map[string]*bullet{} // Key(title) -> the bullet it first led
	var dropped []string           // stamps of units that left no bullet
	// find returns the kept bullet a unit repeats: one with the same key,
	// or one of the last nearDupWindow bullets whose key contains it (a
	// bounded window keeps the built-in summarizer linear on huge tiers).
	find := func(k string) *bullet {
		if b := exact[k]; b != nil {
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
		b := &bullet{sep: sep, body: body, key: Key(body)}
		b.addStamp(stamp)
		bullets = append(bullets, b)
		exact[b.key] = b
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
					chatterDates = append(chatterDates, dateRE.FindAllString(rest, -1)...)
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
		case len(facts.Extract(tRest)) > 0 || keywordRE.MatchString(tRest) || tStamp != "":
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
		if d := dateRE.FindString(s); d != "" {
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

// chatterLead begins the one bullet that lists the dates of entries that
// held nothing but chatter or filler: the dates are facts, the chatter is
// not.
const chatterLead = "Only chatter or filler on "

// stampsRE matches a list of stamps as a bullet written by Builtin begins.
var stampsRE = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?(?:, \d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?)*)(?:: | (—|–|-) )`)

// splitStamps is splitStamp for a bullet Builtin wrote, whose stamps may be
// a list ("2026-01-03, 2026-02-07: Prefers tabs.").
func splitStamps(s string) (stamps []string, sep, rest string) {
	m := stampsRE.FindStringSubmatchIndex(s)
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
var stampRE = regexp.MustCompile(`^(?:\*\*|\[)?(\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?)(?:\*\*|\])?(?:\s*(:|—|–|-)\s+|\s*$)`)

var dateRE = regexp.MustCompile(`\d{4}-\d{2}-\d{2}`)

// splitStamp splits "2026-04-08 14:30 — Port fix" into its stamp
// ("2026-04-08 14:30"), the separator to write after a list of stamps
// (" — " or ": ") and the rest ("Port fix"). Text without a leading date
// has no stamp.
func splitStamp(s string) (stamp, sep, rest string) {
	m := stampRE.FindStringSubmatchIndex(s)
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
	if k == "" || fillerRE.MatchString(k) || strings.HasSuffix(strings.TrimSpace(u), "?") {
		return false
	}
	return !chatterRE.MatchString(k) || signalRE.MatchString(strings.ReplaceAll(k, "no decision", ""))
}

// units cuts an entry into list items, paragraphs and code lines.
func units(src Source) []string {
	lines := strings.Split(strings.ReplaceAll(strings.ReplaceAll(src.Text, "\r\n", "\n"), "\r", "\n"), "\n")
	if src.Title != "" && len(lines) > 0 {
		lines = lines[1:]
	}
	var out []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.Join(cur, " "))
			cur = nil
		}
	}
	var fence string
	skip := false // under a keywords sub-heading
	for _, l := range lines {
		if fence != "" {
			if m := fenceRE.FindStringSubmatch(l); m != nil && m[1][0] == fence[0] && len(m[1]) >= len(fence) && strings.TrimSpace(l[len(m[0]):]) == "" {
				fence = ""
				continue
			}
			if strings.TrimSpace(l) != "" {
				out = append(out, quoteCode(strings.TrimSpace(l)))
			}
			continue
		}
		if headingRE.MatchString(l) {
			skip = keywordsRE.MatchString(strip(l))
		}
		if skip && len(facts.Extract(l)) == 0 {
			continue
		}
		if m := fenceRE.FindStringSubmatch(l); m != nil && !(m[1][0] == '`' && strings.Contains(l[len(m[0]):], "`")) {
			flush()
			fence = m[1]
			continue
		}
		t := strings.TrimSpace(l)
		switch {
		case t == "" || headingRE.MatchString(l) || breakRE.MatchString(l):
			flush()
		case itemRE.MatchString(l):
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
	if m := itemRE.FindString(l); m != "" {
		l = l[len(m):]
	}
	if headingRE.MatchString(l) {
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
		if t == "" || headingRE.MatchString(t) || breakRE.MatchString(t) || strings.HasPrefix(t, "*Distilled from") {
			continue
		}
		bullets = append(bullets, strip(t))
	}
	return bullets
}
