package distill

import (
	"strings"

	"github.com/memcompact/memcompact/internal/facts"
)

// Lighten is the mid tier's light summarization, applied to one entry's
// lines (each with its terminator). It keeps headings, separators and code
// blocks, and drops:
//
//   - a line whose normalized text (see Key) was already seen, in this
//     entry or an earlier one given the same seen map — an exact or
//     near-duplicate (only for lines of 8 or more normalized characters);
//   - a filler line ("ok", "n/a", "see above", …) or a line of chatter
//     ("Sam said thanks.", "Good session, lots of ideas.") holding no fact
//     and no decision, preference or lesson;
//   - a blank line following another blank line.
//
// A list-item entry's first line goes only with the whole entry, when every
// line of it would go. It never drops a line that holds a fact no kept line
// holds.
func Lighten(lines []string, seen map[string]bool) []string {
	if len(lines) == 0 {
		return lines
	}
	if first := strings.TrimRight(lines[0], "\r\n"); !headingRE().MatchString(first) {
		// Try the whole entry first. The trial only reads seen: copying it
		// for every entry made a file of many one-line entries quadratic.
		all := true
		for _, l := range lines {
			t := strings.TrimRight(l, "\r\n")
			if strings.TrimSpace(t) == "" {
				continue
			}
			k := Key(strip(t))
			dup := len(k) >= 8 && seen[k]
			filler := isFiller(k) && len(facts.Extract(t)) == 0
			if !dup && !filler {
				all = false
				break
			}
		}
		if all {
			return nil
		}
	}
	return lighten(lines, seen)
}

func lighten(lines []string, seen map[string]bool) []string {
	out := make([]string, 0, len(lines))
	var fence string
	prevBlank := false
	for i, l := range lines {
		t := strings.TrimRight(l, "\r\n")
		if fence != "" {
			if m := fenceRE().FindStringSubmatch(t); m != nil && m[1][0] == fence[0] && len(m[1]) >= len(fence) && strings.TrimSpace(t[len(m[0]):]) == "" {
				fence = ""
			}
			out = append(out, l)
			prevBlank = false
			continue
		}
		if m := fenceRE().FindStringSubmatch(t); m != nil && !(m[1][0] == '`' && strings.Contains(t[len(m[0]):], "`")) {
			fence = m[1]
			out = append(out, l)
			prevBlank = false
			continue
		}
		blank := strings.TrimSpace(t) == ""
		structural := i == 0 || headingRE().MatchString(t) || breakRE().MatchString(t)
		if i == 0 && !blank {
			if k := Key(strip(t)); len(k) >= 8 {
				seen[k] = true
			}
		}
		switch {
		case structural:
		case blank:
			if prevBlank {
				continue
			}
		default:
			k := Key(strip(t))
			if len(k) >= 8 && seen[k] {
				continue
			}
			if isFiller(k) && len(facts.Extract(t)) == 0 {
				continue
			}
			if len(k) >= 8 {
				seen[k] = true
			}
		}
		prevBlank = blank
		out = append(out, l)
	}
	return out
}

// isFiller reports whether a Key is filler, or chatter without a decision,
// preference or lesson in it.
func isFiller(k string) bool {
	return fillerRE().MatchString(k) || (chatterRE().MatchString(k) && !signalRE().MatchString(strings.ReplaceAll(k, "no decision", "")))
}
