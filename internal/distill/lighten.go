package distill

import (
	"strconv"
	"strings"

	"github.com/memcompact/memcompact/internal/facts"
)

// Lighten is the mid tier's light pass over one entry's lines (each with
// its terminator). It removes only:
//
//   - a line that repeats an earlier line of the same entry under the same
//     parent (the same heading, or the same list item), exactly, after
//     whitespace and character width are normalized — and only when
//     nothing is nested under it;
//   - a filler line ("ok", "n/a", "see above", "特になし", …) that holds no
//     fact;
//   - a blank line following another blank line.
//
// The entry's first line, headings, separators, code blocks and tables
// are kept, and so is every line of another entry: an attribute that
// repeats one of another person's is that person's, not a duplicate.
func Lighten(lines []string) []string {
	if len(lines) == 0 {
		return lines
	}
	out := make([]string, 0, len(lines))
	seen := map[string]bool{}
	var parents []int // indexes in lines of the open list items, shallowest first
	heading := 0
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
		switch {
		case i == 0 || breakRE().MatchString(t) || tableRE().MatchString(t):
		case headingRE().MatchString(t):
			heading, parents = i, nil
		case blank:
			if prevBlank {
				continue
			}
		default:
			ind := indentOf(t)
			isItem := itemRE().MatchString(t)
			for isItem && len(parents) > 0 && indentOf(strings.TrimRight(lines[parents[len(parents)-1]], "\r\n")) >= ind {
				parents = parents[:len(parents)-1]
			}
			parent := heading
			if isItem && len(parents) > 0 {
				parent = parents[len(parents)-1]
			}
			k := strings.Join([]string{strconv.Itoa(parent), sameKey(strip(t))}, "\x00")
			key := Key(strip(t))
			drop := (seen[k] && !hasChildren(lines, i)) || (key != "" && is(key, classFiller) && len(facts.Extract(t)) == 0)
			if isItem {
				parents = append(parents, i)
			}
			if drop {
				continue
			}
			seen[k] = true
		}
		prevBlank = blank
		out = append(out, l)
	}
	return out
}

// hasChildren reports whether the line after lines[i] (skipping blanks) is
// indented deeper than it.
func hasChildren(lines []string, i int) bool {
	ind := indentOf(lines[i])
	for _, l := range lines[i+1:] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		return indentOf(l) > ind
	}
	return false
}
