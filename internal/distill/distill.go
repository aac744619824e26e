// Package distill turns the oldest tier of a memory file into the bullets
// of a Compacted History block, and trims the mid tier lightly.
//
// There are three interchangeable summarizers. The built-in one, here, is
// deterministic and extractive. summarize.External pipes the tier to any
// command (a model CLI, a script) and reads bullets back. The third is an
// agent writing the bullets itself from a --plan; its file is read with
// ParseBullets, like an external command's output. Whatever wrote them, the compact
// package verifies the bullets before anything is written, so a
// summarizer is trusted with nothing: MustKeep names the lines that must
// stay in the live file.
//
// # The built-in summarizer
//
// Each entry is cut into units that are never split: a paragraph, a list
// item with everything nested under it, a fenced code block, a table. A
// "Why:" or "How to apply:" line, or a paragraph that begins with a
// reason ("Because …", "Weil …", "因为…"), joins the unit before it.
// Sub-headings are structure; units under a "Recall Keywords" (or
// "Keywords", "Tags") sub-heading are search aids and are dropped.
//
// The word lists (words/*.txt: English, German, French, Spanish, Chinese,
// Japanese, Korean) sort statements. Chatter and filler go sentence by
// sentence ("Omar carries an EpiPen. Nothing more." keeps its first
// sentence); a sentence with a rule, a result, a priority fact or a
// literal fact (a number, a path, a version) is never chatter. A unit that
// states a preference, a correction, a decision or a rule, a priority fact
// (health and safety, a person's attributes), or carries a <!-- keep -->
// marker, must be kept at every level; every other statement (an
// observation) is kept at the first level and dropped from the keep level
// on (it stays in the snapshot, counted in Stats). An entry of nothing but
// chatter leaves no bullet at all. A line past 4 KB is data, read whole.
//
// A heading entry becomes one bullet: its date and title, then its
// statements word for word, a list item with items of its own as nested
// lines under it. Code blocks and tables are nested whole under the bullet
// at the first level; from the keep level on they stay in the snapshot,
// and the bullet names them ("(1 code block in the snapshot)"). A
// list-item entry (a people list, a list of preferences) becomes one
// bullet: the item, and its nested items, each still under it — one
// bullet per distinct fact, never moved to another parent.
//
// Nothing is merged that says something different. Two list items under
// the same parent merge only when they are the same after whitespace,
// character width, the leading date and its separator are normalized; the
// bullet then carries both dates. A repeat inside one entry is dropped.
// When a later statement (in the tier, or later in the file) says the
// opposite of an earlier one — the same words with a negation added or
// taken away — or says it replaces it ("… on Sundays instead", sharing
// most of its words), the earlier is marked "(superseded DATE)", never
// merged, and the later one is kept as current at every level.
//
// An existing block's bullets are kept as they are at the first level; at
// the higher levels they are parsed back and condensed like the new ones.
package distill

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memcompact/memcompact/internal/lazyre"
	"github.com/memcompact/memcompact/internal/textfile"
)

// stampsRE matches a list of stamps as a bullet written by the built-in
// summarizer begins ("2026-01-03, 2026-02-07: Prefers tabs.").
var stampsRE = lazyre.New(`^(\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?(?:, \d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?)*)(?:[:：] ?| (—|–|-) )`)

// splitStamps is splitStamp for a bullet whose stamps may be a list.
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
// optional bold or brackets, then a separator (":", "：", "—", "–" or "-").
var stampRE = lazyre.New(`^(?:\*\*|\[)?(\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?)(?:\*\*|\])?(?:\s*(:|：|—|–|-)\s*|\s*$)`)

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
	if m[4] >= 0 && s[m[4]:m[5]] != ":" && s[m[4]:m[5]] != "：" {
		sep = " " + s[m[4]:m[5]] + " "
	}
	return stamp, sep, rest
}

// sameKey is the form in which two statements must agree to be merged:
// full-width characters narrowed, whitespace collapsed, a leading date
// and its separator removed. Case, words and punctuation must match.
func sameKey(s string) string {
	s = Narrow(s)
	if _, _, rest := splitStamp(strings.TrimSpace(s)); rest != "" {
		s = rest
	}
	return strings.Join(strings.Fields(s), " ")
}

// Narrow maps full-width ASCII forms (U+FF01–U+FF5E) and the ideographic
// space to their narrow forms.
func Narrow(s string) string { return strings.Map(narrowRune, s) }

// narrowRune is Narrow for one rune.
func narrowRune(r rune) rune {
	switch {
	case r >= 0xFF01 && r <= 0xFF5E:
		return r - 0xFEE0
	case r == 0x3000:
		return ' '
	}
	return r
}

// Flat is the form in which a must-keep line is looked for in the new
// file: narrowed, whitespace collapsed.
func Flat(s string) string { return strings.Join(strings.Fields(Narrow(s)), " ") }

// MustKeep returns the statements of srcs that must stay in the live
// file, each as one line of text (list marker stripped): preferences,
// corrections, decisions, rules and <!-- keep --> lines of the tier, and
// the like statements of an existing block.
func MustKeep(srcs []Source) []string {
	var out []string
	for _, s := range srcs {
		switch {
		case s.Later:
		case s.Kept:
			for _, bl := range splitBullets(s.Text) {
				if m := groupLineRE().FindStringSubmatch(bl); m != nil {
					for _, sn := range sentences(m[4]) {
						if keepTextIn(sn, s.People) {
							out = append(out, sn)
						}
					}
					continue
				}
				pb, ok := parseBullet(bl)
				if !ok {
					if keepTextIn(bl, s.People) {
						out = append(out, strip(bl))
					}
					continue
				}
				if pb.stated && keepTextIn(pb.head, s.People) {
					out = append(out, pb.head)
				}
				for _, t := range append(pb.parts, pb.nested...) {
					if keepTextIn(t, s.People) {
						out = append(out, strip(t))
					}
				}
			}
		case s.Title == "":
			head, rest := listHead(splitLines(s.Text))
			if _, _, body := splitStamp(head); keepTextIn(head, s.People) {
				out = append(out, body)
			}
			out = append(out, keepUnits(dedent(rest), s.People)...)
		default:
			out = append(out, keepUnits(splitLines(s.Text)[1:], s.People)...)
		}
	}
	return out
}

// keepUnits returns the lines of the must-keep units of lines.
func keepUnits(lines []string, people bool) []string {
	var out []string
	for _, u := range markPeople(splitUnits(lines), people) {
		if !u.mustKeep() {
			continue
		}
		for _, l := range u.lines {
			if t := strip(l); t != "" {
				if _, _, rest := splitStamp(t); rest != "" {
					t = rest
				}
				out = append(out, t)
			}
		}
	}
	return out
}

// splitLines splits text at line ends by textfile's one rule, terminators
// dropped, without the blank lines at the end; the empty text is one
// empty line, so a source always has a first line.
func splitLines(text string) []string {
	if lines := textfile.Lines(strings.TrimRight(text, "\r\n")); lines != nil {
		return lines
	}
	return []string{""}
}

// dedent removes the indentation common to the non-blank lines.
func dedent(lines []string) []string {
	least := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if n := len(l) - len(strings.TrimLeft(l, " \t")); least < 0 || n < least {
			least = n
		}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		if len(l) >= least && least > 0 {
			out[i] = l[min(least, len(l)-len(strings.TrimLeft(l, " \t"))):]
		} else {
			out[i] = strings.TrimLeft(l, " \t")
		}
	}
	return out
}

// relLines is a unit's lines with the first line's indentation removed
// from all, so that nesting survives wherever the lines are written.
func relLines(lines []string) []string {
	base := indentOf(lines[0])
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		cut := min(base, len(l)-len(strings.TrimLeft(l, " \t")))
		out = append(out, strings.TrimRight(l[cut:], " \t"))
	}
	if len(out) > 0 && !itemRE().MatchString(out[0]) {
		out[0] = "- " + out[0]
	}
	return out
}

// Key is the normalized form used to compare texts: lower case, letters
// and digits, single spaces. Full-width forms count as their narrow ones
// (see Narrow). ASCII is handled byte by byte: keys are taken of every
// unit, and a unit can be a 20 MB line.
func Key(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); {
		var r rune
		if c := s[i]; c < utf8.RuneSelf {
			r = rune(c)
			i++
		} else {
			var n int
			r, n = utf8.DecodeRuneInString(s[i:])
			i += n
			r = narrowRune(r)
		}
		switch {
		case 'a' <= r && r <= 'z' || '0' <= r && r <= '9':
		case 'A' <= r && r <= 'Z':
			r += 'a' - 'A'
		case r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			r = unicode.ToLower(r)
		default:
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		if r < utf8.RuneSelf {
			b.WriteByte(byte(r))
		} else {
			b.WriteRune(r)
		}
		space = false
	}
	return b.String()
}

// TierText renders sources as the text given to an external summarizer and
// shown by --plan: the entries as they are, each ending with a newline.
func TierText(srcs []Source) string {
	var b strings.Builder
	for _, s := range srcs {
		if s.Later {
			continue
		}
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
	for _, l := range textfile.Lines(out) {
		t := strings.TrimSpace(l)
		if t == "" || headingRE().MatchString(t) || breakRE().MatchString(t) || strings.HasPrefix(t, "*Distilled from") {
			continue
		}
		bullets = append(bullets, strip(t))
	}
	return bullets
}
