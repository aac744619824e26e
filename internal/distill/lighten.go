package distill

import (
	"strings"

	"github.com/memcompact/memcompact/internal/facts"
)

// Lighten is the mid tier's light summarization, applied to one entry's
// lines (each with its terminator). It keeps the entry's first line,
// headings, separators and code blocks, and drops:
//
//   - a line whose normalized text (see Key) was already seen, in this
//     entry or an earlier one given the same seen map — an exact or
//     near-duplicate (only for lines of 8 or more normalized characters);
//   - a filler line ("ok", "n/a", "see above", …) holding no fact;
//   - a blank line following another blank line.
//
// It never drops a line that holds a fact no kept line holds.
func Lighten(lines []string, seen map[string]bool) []string {
	out := make([]string, 0, len(lines))
	var fence string
	prevBlank := false
	for i, l := range lines {
		t := strings.TrimRight(l, "\r\n")
		if fence != "" {
			if m := fenceRE.FindStringSubmatch(t); m != nil && m[1][0] == fence[0] && len(m[1]) >= len(fence) && strings.TrimSpace(t[len(m[0]):]) == "" {
				fence = ""
			}
			out = append(out, l)
			prevBlank = false
			continue
		}
		if m := fenceRE.FindStringSubmatch(t); m != nil && !(m[1][0] == '`' && strings.Contains(t[len(m[0]):], "`")) {
			fence = m[1]
			out = append(out, l)
			prevBlank = false
			continue
		}
		blank := strings.TrimSpace(t) == ""
		structural := i == 0 || headingRE.MatchString(t) || breakRE.MatchString(t)
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
			if fillerRE.MatchString(k) && len(facts.Extract(t)) == 0 {
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
