package compact

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/memcompact/memcompact/internal/lazyre"
	"github.com/memcompact/memcompact/internal/snapshot"
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
//
// A line that names every snapshot grows with every round (about 50
// characters each), so past MaxNamed snapshots the block names only the
// latest and a catalogue, one file per memory file beside the snapshots,
// that lists every snapshot, oldest first, one per line:
//
//	*Distilled from 412 entries on 2026-01-03 to 2026-12-02. Full detail in compaction/snapshots/a-2026-12-02.md; every earlier snapshot is listed in compaction/snapshots/a-1f3e9a-catalogue.md.*
//
// The catalogue is written before the file is replaced, and read back
// (its snapshots made the block's) when the block is compacted again.

// MaxNamed is how many snapshots a provenance line names before it names
// a catalogue instead.
const MaxNamed = 3

var (
	provRE  = lazyre.New(`^\*Distilled from (\d+) (?:more )?entr(?:y|ies)\b(.*)\*\s*$`)
	dateRE  = lazyre.New(`\b\d{4}-\d{2}-\d{2}\b`)
	snapsRE = lazyre.New(`compaction/snapshots` + `/[^\s,*]+?\.md`)
)

// provenance is what a block was distilled from.
type provenance struct {
	n         int      // entries
	dates     []string // the days of the rounds
	snapshots []string // root-relative paths the block names, oldest first (a catalogue among them)
	// catalogue, when set, is the catalogue the new block names, and
	// listed every snapshot it must list (the earlier ones, oldest first).
	catalogue string
	listed    []string
}

// catalogueRel is the root-relative catalogue of rel's snapshots: the
// snapshot base name and a short digest of rel (two files of one base
// name in different folders share the snapshot name sequence, not a
// catalogue).
func catalogueRel(snapDirRel, rel string) string {
	sum := sha256.Sum256([]byte(rel))
	return snapDirRel + "/" + snapshot.Base(rel) + "-" + hex.EncodeToString(sum[:3]) + "-catalogue.md"
}

// isCatalogue reports whether a root-relative path is a catalogue.
func isCatalogue(rel string) bool { return strings.HasSuffix(rel, "-catalogue.md") }

// catalogueText is the catalogue listing snaps, for the file rel, and
// the block's periods merged so far (mergedLines), oldest first.
func catalogueText(rel string, snaps, merged []string) string {
	var b strings.Builder
	b.WriteString("# Snapshots of " + rel + "\n\nEvery snapshot a Compacted History block of " + rel + " was distilled from, oldest first.\n\n")
	for _, s := range snaps {
		b.WriteString("- " + s + "\n")
	}
	if len(merged) > 0 {
		b.WriteString("\n" + mergedHeading + "\n\nThe block's lines of these periods were merged into a longer period's line; the lines as they were are in the snapshot named.\n\n")
		for _, m := range merged {
			b.WriteString(m + "\n")
		}
	}
	return b.String()
}

// mergedHeading opens a catalogue's list of the periods merged.
const mergedHeading = "## Periods merged"

// mergedLines are the merge notes of a catalogue's text.
func mergedLines(text string) []string {
	_, after, ok := strings.Cut(text, "\n"+mergedHeading+"\n")
	if !ok {
		return nil
	}
	var out []string
	for _, l := range strings.Split(after, "\n") {
		if strings.HasPrefix(l, "- ") {
			out = append(out, l)
		}
	}
	return out
}

var periodRE = lazyre.New(`^(?:- )?(\d{4}-\d{2}|\d{4}-Q[1-4]|\d{4}) — \d+ entr(?:y|ies)`)

// periods are the periods of the group lines of bullets (a block's lines,
// or bare bullets), in order.
func periods(bullets []string) []string {
	var out []string
	for _, b := range bullets {
		if m := periodRE().FindStringSubmatch(strings.TrimSpace(b)); m != nil {
			out = appendNew(out, m[1])
		}
	}
	return out
}

// mergeNotes are the notes for a round that turned the old block's
// period lines (old) into the new block's (now), on day, the old lines
// being in snap: "- DAY: 2026-01, 2026-02 merged into 2026-Q1; …".
func mergeNotes(old, now []string, day, snap string) []string {
	into := map[string][]string{}
	var order []string
	for _, p := range old {
		if contains(now, p) {
			continue
		}
		for _, c := range []string{quarterOf(p), p[:4]} {
			if c != p && contains(now, c) {
				if into[c] == nil {
					order = append(order, c)
				}
				into[c] = append(into[c], p)
				break
			}
		}
	}
	var out []string
	for _, c := range order {
		out = append(out, "- "+day+": "+strings.Join(into[c], ", ")+" merged into "+c+"; the lines as they were are in "+snap)
	}
	return out
}

// quarterOf is the quarter (YYYY-Qn) of a month (YYYY-MM), else p.
func quarterOf(p string) string {
	if len(p) != 7 || p[5] == 'Q' {
		return p
	}
	m, err := strconv.Atoi(p[5:])
	if err != nil || m < 1 || m > 12 {
		return p
	}
	return p[:4] + "-Q" + strconv.Itoa((m+2)/3)
}

// readCatalogue returns the snapshots a catalogue lists (its notes of
// periods merged name them again, and are not read here).
func readCatalogue(text string) []string {
	list, _, _ := strings.Cut(text, "\n"+mergedHeading+"\n")
	return snapsRE().FindAllString(list, -1)
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
	if p.catalogue != "" {
		on := dates[0]
		if last := dates[len(dates)-1]; last != on {
			on += " to " + last
		}
		latest := snapRel
		if latest == "" && len(p.listed) > 0 {
			latest = p.listed[len(p.listed)-1]
		}
		return "*Distilled from " + strconv.Itoa(total) + " " + textfile.Plural(total, "entry", "entries") + " on " + on + ". Full detail in " + latest + "; every earlier snapshot is listed in " + p.catalogue + ".*"
	}
	snaps := appendNew(append([]string(nil), p.snapshots...), snapRel)
	return "*Distilled from " + strconv.Itoa(total) + " " + textfile.Plural(total, "entry", "entries") + " on " + strings.Join(dates, ", ") + ". Full detail in " + strings.Join(snaps, ", ") + ".*"
}

// useCatalogue turns p into the catalogue form when the block would name
// more than MaxNamed snapshots, or already names a catalogue: every
// snapshot named so far (those a catalogue lists included, read with
// read) goes to listed, and the block names the catalogue cat.
func (p *provenance) useCatalogue(cat string, read func(rel string) (string, error)) error {
	var all []string
	named := false
	for _, s := range p.snapshots {
		if !isCatalogue(s) {
			all = appendNew(all, s)
			continue
		}
		named = true
		text, err := read(s)
		if err != nil {
			return fmt.Errorf("the history block names the catalogue %s, which cannot be read: %w", s, err)
		}
		// The catalogue lists the earlier snapshots; the one the line
		// names beside it is the latest.
		all = appendNew(readCatalogue(text), all...)
	}
	if !named && len(p.snapshots)+1 <= MaxNamed {
		return nil
	}
	p.listed, p.catalogue, p.snapshots = all, cat, []string{cat}
	// Dates: the first and the last are all the line says.
	if len(p.dates) > 2 {
		p.dates = []string{p.dates[0], p.dates[len(p.dates)-1]}
	}
	return nil
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
