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
}

var (
	itemRE     = regexp.MustCompile(`^(\s*)(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?`)
	headingRE  = regexp.MustCompile(`^ {0,3}#{1,6}(?:\s|$)`)
	breakRE    = regexp.MustCompile(`^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$`)
	fenceRE    = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})")
	keywordRE  = regexp.MustCompile(`(?i)\b(decid\w*|decision|chose|choose|prefer\w*|always|never|must|should\w*|don't|do not|avoid\w*|instead|because|rule|policy|fix\w*|works?|worked|broke\w*|fail\w*|error\w*|learn\w*|lesson|remember|important|wants?|likes?|dislikes?|hates?|requires?|convention|default|use[sd]?|using|confirm\w*|verif\w*|caused|cause|workaround|solution|resolved)\b`)
	keywordsRE = regexp.MustCompile(`(?i)^(recall keywords|keywords|tags)\b`)
	fillerRE   = regexp.MustCompile(`^(ok|okay|thanks|thank you|done|none|n a|na|tbd|todo|nothing|nothing new|nothing else|nothing to add|nothing to note|see above|as discussed|as mentioned|as mentioned above|no changes|no updates|no notes|misc|various|etc|same as above|see below|more later|to be continued)$`)
)

// Builtin distills srcs into bullets (without the "- " marker).
func Builtin(srcs []Source) []string {
	var bullets, keys []string
	exact := map[string]bool{}
	// dup reports whether k repeats a kept bullet, or is contained in one
	// of the last nearDupWindow kept bullets (a bounded window keeps the
	// built-in summarizer linear on huge tiers).
	dup := func(k string) bool {
		if exact[k] {
			return true
		}
		if len(k) >= 12 {
			for _, old := range keys[max(0, len(keys)-nearDupWindow):] {
				if strings.Contains(old, k) {
					return true
				}
			}
		}
		return false
	}
	for _, src := range srcs {
		first := true
		for _, u := range units(src) {
			k := Key(u)
			if !worth(u) || k == "" || dup(k) {
				continue
			}
			keys = append(keys, k)
			exact[k] = true
			if first && src.Title != "" {
				u = src.Title + ": " + u
			}
			first = false
			bullets = append(bullets, u)
		}
		if first && src.Title != "" && (len(facts.Extract(src.Title)) > 0 || keywordRE.MatchString(src.Title)) {
			bullets = append(bullets, src.Title)
		}
	}
	// The guarantee: bring back the line of any fact still missing.
	// Line numbers of facts are lines of this text, so it must be built
	// exactly as the lines are split below.
	all := TierText(srcs)
	missing := facts.Missing(facts.Extract(all), strings.Join(bullets, "\n"))
	if len(missing) > 0 {
		lines := strings.Split(strings.ReplaceAll(strings.ReplaceAll(all, "\r\n", "\n"), "\r", "\n"), "\n")
		added := ""
		for _, f := range missing {
			if facts.Holds(added, f) {
				continue
			}
			if f.Line-1 < len(lines) {
				b := strip(lines[f.Line-1])
				if !facts.Holds(b, f) {
					// A fenced code line: quote it whole.
					b = quoteCode(strings.TrimSpace(lines[f.Line-1]))
				}
				bullets = append(bullets, b)
				added += b + "\n"
			}
		}
	}
	return bullets
}

// worth reports whether a unit is worth a bullet.
func worth(u string) bool {
	if len(facts.Extract(u)) > 0 {
		return true
	}
	k := Key(u)
	return k != "" && !fillerRE.MatchString(k) && !strings.HasSuffix(strings.TrimSpace(u), "?")
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
