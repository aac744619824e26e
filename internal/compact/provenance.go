package compact

import (
	"github.com/memcompact/memcompact/internal/lazyre"
	"strconv"
	"strings"

	"github.com/memcompact/memcompact/internal/textfile"
)

// A block names every snapshot its bullets were distilled from, so that
// every original line stays reachable from the file after any number of
// rounds: each round's snapshot holds that round's originals, and the
// block's one provenance line lists them all, oldest first:
//
//	*Distilled from 17 entries on 2026-05-01, 2026-06-01. Full detail in compaction/snapshots/a-2026-05-01.md, compaction/snapshots/a-2026-06-01.md.*
//
// An earlier block may hold one such line or several (one per round); all
// are read.

var (
	provRE  = lazyre.New(`^\*Distilled from (\d+) (?:more )?entr(?:y|ies)\b(.*)\*\s*$`)
	dateRE  = lazyre.New(`\b\d{4}-\d{2}-\d{2}\b`)
	snapsRE = lazyre.New(`compaction/snapshots` + `/[^\s,*]+?\.md`)
)

// provenance is what a block was distilled from.
type provenance struct {
	n         int      // entries
	dates     []string // the days of the rounds
	snapshots []string // root-relative snapshot paths, oldest first
}

// parseProvenance reads one provenance line.
func parseProvenance(line string) (provenance, bool) {
	m := provRE().FindStringSubmatch(strings.TrimSpace(line))
	if m == nil {
		return provenance{}, false
	}
	n, _ := strconv.Atoi(m[1])
	p := provenance{n: n}
	detail := m[2]
	on, _, _ := strings.Cut(detail, "Full detail")
	p.dates = dateRE().FindAllString(on, -1)
	p.snapshots = snapsRE().FindAllString(detail, -1)
	return p, true
}

// add merges q into p.
func (p *provenance) add(q provenance) {
	p.n += q.n
	p.dates = appendNew(p.dates, q.dates...)
	p.snapshots = appendNew(p.snapshots, q.snapshots...)
}

// line is the provenance line after a round that distilled n more entries
// on day into snapRel.
func (p provenance) line(n int, day, snapRel string) string {
	total := p.n + n
	dates := appendNew(append([]string(nil), p.dates...), day)
	snaps := appendNew(append([]string(nil), p.snapshots...), snapRel)
	return "*Distilled from " + strconv.Itoa(total) + " " + textfile.Plural(total, "entry", "entries") + " on " + strings.Join(dates, ", ") + ". Full detail in " + strings.Join(snaps, ", ") + ".*"
}

func appendNew(list []string, add ...string) []string {
	for _, a := range add {
		found := false
		for _, x := range list {
			if x == a {
				found = true
				break
			}
		}
		if !found && a != "" {
			list = append(list, a)
		}
	}
	return list
}
