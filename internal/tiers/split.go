package tiers

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/memcompact/memcompact/internal/lazyre"
	"github.com/memcompact/memcompact/internal/secretheading"
	"github.com/memcompact/memcompact/internal/textfile"
)

// ErrNoEntries reports a file in which the rule finds no entries.
var ErrNoEntries = errors.New("no recognizable entries: no dated or repeated headings and no top-level list items")

// Mode says which rule found the entries.
type Mode string

// Modes.
const (
	ModeOverride Mode = "override"
	ModeDated    Mode = "dated-headings"
	ModeHeading  Mode = "repeated-headings"
	ModeList     Mode = "list-items"
)

// Options tune the split.
type Options struct {
	// EntryHeading overrides the rule: "##"-style selects a heading level,
	// anything else is a regular expression matched against each line.
	EntryHeading string
}

// Entry is one entry: lines [Start, End) of the document.
type Entry struct {
	Start, End    int
	Title         string // the heading text, or the list item's first line
	SecretHeading bool   // under (or titled) Secrets, Credentials or Tokens
}

// Lines is the number of lines of the entry.
func (e Entry) Lines() int { return e.End - e.Start }

// Block is a run of lines [Start, End).
type Block struct{ Start, End int }

// Doc is a split document.
type Doc struct {
	Lines    []string // every line with its own terminator
	Mode     Mode
	Level    int // heading level of the entries; 0 for list items and regexps
	Preamble int // lines [0, Preamble) are the preamble
	Entries  []Entry
	History  *Block // the first Compacted History block, if any
}

// Text returns lines [start, end) joined.
func (d *Doc) Text(start, end int) string {
	return strings.Join(d.Lines[start:end], "")
}

// EntryText returns entry i's text with its line endings.
func (d *Doc) EntryText(i int) string {
	return d.Text(d.Entries[i].Start, d.Entries[i].End)
}

var (
	headingRE = lazyre.New(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$`)
	datedRE   = lazyre.New(`^\*{0,2}\d{4}-\d{2}-\d{2}`)
	itemRE    = lazyre.New(`^(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]|$)`)
	breakRE   = lazyre.New(`^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$`)
	fenceRE   = lazyre.New("^ {0,3}(`{3,}|~{3,})")
	historyRE = lazyre.New(`(?i)^compacted history$`)
)

type lineInfo struct {
	level   int    // heading level, 0 if not a heading
	heading string // heading text
	fenced  bool   // inside (or delimiting) a code fence
	blank   bool
}

// Split splits text by the rule in the package doc.
func Split(text string, opt Options) (*Doc, error) {
	d := &Doc{Lines: textfile.SplitKeep(text)}
	n := len(d.Lines)
	info := make([]lineInfo, n)
	var fence string
	front := frontMatterEnd(d.Lines)
	for i, l := range d.Lines {
		p := textfile.TrimEOL(l)
		info[i].blank = strings.TrimSpace(p) == ""
		if i < front {
			info[i].fenced = true
			continue
		}
		if fence != "" {
			info[i].fenced = true
			if m := fenceRE().FindStringSubmatch(p); m != nil && m[1][0] == fence[0] && len(m[1]) >= len(fence) && strings.TrimSpace(p[len(m[0]):]) == "" {
				fence = ""
			}
			continue
		}
		if m := fenceRE().FindStringSubmatch(p); m != nil && !(m[1][0] == '`' && strings.Contains(p[len(m[0]):], "`")) {
			fence = m[1]
			info[i].fenced = true
			continue
		}
		if m := headingRE().FindStringSubmatch(p); m != nil {
			info[i].level = len(m[1])
			info[i].heading = strings.TrimSpace(strings.TrimRight(m[2], "#"))
			if m[2] == "" {
				info[i].heading = ""
			}
		}
	}

	// History blocks.
	inHistory := make([]bool, n)
	for i := 0; i < n; i++ {
		if info[i].level == 0 || !historyRE().MatchString(info[i].heading) {
			continue
		}
		end := historyEnd(d.Lines, info, i)
		if d.History == nil {
			d.History = &Block{Start: i, End: end}
		}
		for j := i; j < end; j++ {
			inHistory[j] = true
		}
		i = end - 1
	}

	starts, err := entryStarts(d, info, inHistory, opt)
	if err != nil {
		return nil, err
	}
	if len(starts) == 0 {
		return nil, ErrNoEntries
	}
	isStart := make(map[int]bool, len(starts))
	for _, s := range starts {
		isStart[s] = true
	}

	// Extents.
	for k, s := range starts {
		e := Entry{Start: s}
		if d.Mode == ModeList {
			e.Title = strings.TrimSpace(textfile.TrimEOL(d.Lines[s]))
			e.End = listEnd(d.Lines, info, inHistory, isStart, s)
		} else {
			if info[s].level > 0 {
				e.Title = info[s].heading
			} else {
				e.Title = strings.TrimSpace(textfile.TrimEOL(d.Lines[s]))
			}
			next := n
			if k+1 < len(starts) {
				next = starts[k+1]
			}
			e.End = next
			for j := s + 1; j < next; j++ {
				if inHistory[j] || endsEntry(d, info[j]) {
					e.End = j
					break
				}
			}
		}
		d.Entries = append(d.Entries, e)
	}

	// Preamble.
	d.Preamble = d.Entries[0].Start
	if d.History != nil && d.History.Start < d.Preamble {
		d.Preamble = d.History.Start
	}

	// Secret headings: the stack of headings above each line.
	var stack []int // line indexes of enclosing headings, shallowest first
	k := 0
	for i := 0; i < n && k < len(d.Entries); i++ {
		if i == d.Entries[k].Start {
			own := info[i].level > 0 && secretheading.Secret(info[i].heading) || info[i].level == 0 && secretheading.Secret(d.Entries[k].Title)
			under := false
			for _, h := range stack {
				if secretheading.Secret(info[h].heading) && (info[i].level == 0 || info[h].level < info[i].level) {
					under = true
				}
			}
			d.Entries[k].SecretHeading = own || under || d.secretSubheading(info, d.Entries[k])
			k++
		}
		if lv := info[i].level; lv > 0 && !info[i].fenced {
			for len(stack) > 0 && info[stack[len(stack)-1]].level >= lv {
				stack = stack[:len(stack)-1]
			}
			stack = append(stack, i)
		}
	}
	return d, nil
}

// entryStarts finds the first line of every entry and sets d.Mode, d.Level.
func entryStarts(d *Doc, info []lineInfo, inHistory []bool, opt Options) ([]int, error) {
	n := len(d.Lines)
	var starts []int
	headingsAt := func(level int, keep func(i int) bool) []int {
		var out []int
		for i := 0; i < n; i++ {
			if info[i].level == level && !info[i].fenced && !inHistory[i] && keep(i) {
				out = append(out, i)
			}
		}
		return out
	}
	all := func(int) bool { return true }

	if h := opt.EntryHeading; h != "" {
		d.Mode = ModeOverride
		if strings.Trim(h, "#") == "" && len(h) <= 6 {
			d.Level = len(h)
			return headingsAt(d.Level, all), nil
		}
		re, err := regexp.Compile(h)
		if err != nil {
			return nil, fmt.Errorf("bad --entry-heading %q: %v", h, err)
		}
		for i := 0; i < n; i++ {
			if !info[i].fenced && !inHistory[i] && re.MatchString(textfile.TrimEOL(d.Lines[i])) {
				starts = append(starts, i)
			}
		}
		return starts, nil
	}

	// Dated headings at the shallowest level where one occurs.
	dated := 0
	for i := 0; i < n; i++ {
		if lv := info[i].level; lv >= 2 && !info[i].fenced && !inHistory[i] && datedRE().MatchString(info[i].heading) && (dated == 0 || lv < dated) {
			dated = lv
		}
	}
	if dated > 0 {
		d.Mode, d.Level = ModeDated, dated
		return headingsAt(dated, func(i int) bool { return datedRE().MatchString(info[i].heading) }), nil
	}

	// Repeated headings.
	var count [7]int
	for i := 0; i < n; i++ {
		if lv := info[i].level; lv >= 2 && !info[i].fenced && !inHistory[i] {
			count[lv]++
		}
	}
	for lv := 2; lv <= 6; lv++ {
		if count[lv] >= 2 {
			d.Mode, d.Level = ModeHeading, lv
			return headingsAt(lv, all), nil
		}
	}

	// Top-level list items.
	d.Mode = ModeList
	for i := 0; i < n; i++ {
		p := textfile.TrimEOL(d.Lines[i])
		if !info[i].fenced && !inHistory[i] && info[i].level == 0 && itemRE().MatchString(p) && !breakRE().MatchString(p) {
			starts = append(starts, i)
		}
	}
	return starts, nil
}

// historyEnd returns the end (exclusive) of the history block starting at
// line i.
func historyEnd(lines []string, info []lineInfo, i int) int {
	lv := info[i].level
	for j := i + 1; j < len(lines); j++ {
		if info[j].fenced {
			continue
		}
		if info[j].level > 0 && info[j].level <= lv {
			return j
		}
		if breakRE().MatchString(textfile.TrimEOL(lines[j])) {
			j++
			for j < len(lines) && info[j].blank {
				j++
			}
			return j
		}
	}
	return len(lines)
}

// listEnd returns the end (exclusive) of the list entry starting at s.
func listEnd(lines []string, info []lineInfo, inHistory []bool, isStart map[int]bool, s int) int {
	end := s + 1
	for j := s + 1; j < len(lines); j++ {
		p := textfile.TrimEOL(lines[j])
		switch {
		case isStart[j] || inHistory[j] || (info[j].level > 0 && !info[j].fenced):
			return end
		case info[j].blank:
			end = j + 1
		case info[j].fenced || p[0] == ' ' || p[0] == '\t':
			end = j + 1
		case breakRE().MatchString(p):
			end = j + 1
			for end < len(lines) && info[end].blank {
				end++
			}
			return end
		default:
			return end
		}
	}
	return end
}

// frontMatterEnd returns the number of lines of a YAML front matter block
// ("---" on the first line, up to the next "---" or "..."), or 0.
func frontMatterEnd(lines []string) int {
	if len(lines) == 0 || strings.TrimRight(textfile.TrimEOL(lines[0]), " \t") != "---" {
		return 0
	}
	for i := 1; i < len(lines); i++ {
		if t := strings.TrimRight(textfile.TrimEOL(lines[i]), " \t"); t == "---" || t == "..." {
			return i + 1
		}
	}
	return 0
}

// secretSubheading reports whether a heading inside entry e (below its
// own, outside fenced code) names secrets: "### Credentials" in the body
// of a dated entry makes the whole entry secret.
func (d *Doc) secretSubheading(info []lineInfo, e Entry) bool {
	for j := e.Start + 1; j < e.End && j < len(info); j++ {
		if info[j].level > 0 && !info[j].fenced && secretheading.Secret(info[j].heading) {
			return true
		}
	}
	return false
}

// endsEntry reports whether a heading line ends the heading entry above it:
// a heading of the entries' level or shallower, except that among dated
// entries a sub-heading written at the entries' own level ("## Context"
// under "## 2026-04-08 — title") belongs to the entry above, unless it
// names a secrets section.
func endsEntry(d *Doc, li lineInfo) bool {
	if d.Level == 0 || li.level == 0 || li.fenced || li.level > d.Level {
		return false
	}
	if d.Mode == ModeDated && li.level == d.Level && !secretheading.Secret(li.heading) {
		return false
	}
	return true
}
