package compact

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/distill"
	"github.com/memcompact/memcompact/internal/testshared"
)

// joinWrapped joins a paragraph's wrapped lines into one bullet; off, each
// line is a bullet (front matter and wrapped prose read line by line).
const joinWrapped = false

// realTiers cuts a real memory file into tiers of up to eight entries (at
// its "## " headings) and, for each, the faithful summary that keeps every
// statement: each line of prose, list markers dropped, word for word.
func realTiers(text string) (tiers [][]string, summaries [][]string) {
	parts := strings.Split(text, "\n## ")
	for i := 1; i < len(parts); i++ {
		parts[i] = "## " + parts[i]
	}
	for start := 0; start < len(parts); start += 8 {
		entries := parts[start:min(start+8, len(parts))]
		var bullets []string
		for _, e := range entries {
			fence, startsSentence := false, true
			for _, l := range strings.Split(e, "\n") {
				t := strings.TrimSpace(l)
				if t == "" {
					startsSentence = true
				}
				if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
					fence = !fence
					continue
				}
				if fence || t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "|") || strings.HasPrefix(t, "---") {
					continue
				}
				item := strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "+ ")
				t = strings.TrimSpace(strings.TrimLeft(t, "-*+> "))
				// A wrapped line continues its paragraph or list item: a
				// summarizer restates the sentence, not the line.
				if joinWrapped && !item && !startsSentence && len(bullets) > 0 && !strings.HasPrefix(l, " ") {
					bullets[len(bullets)-1] += " " + t
				} else if len([]rune(t)) >= 3 && !label(t) {
					bullets = append(bullets, t)
				}
				startsSentence = false
			}
		}
		if len(bullets) > 0 {
			tiers, summaries = append(tiers, entries), append(summaries, bullets)
		}
	}
	return tiers, summaries
}

// TestMeaningRealStores: faithful summaries built from the real stores'
// own lines (every statement kept, word for word) are read against their
// tiers with every check, the priority check included; every refusal is
// a false one. The same summaries with one priority fact left out are
// refused (unless another line says it too), and with that fact declared dropped ("Dropped: …", its first
// words) accepted again. The rates are logged; BENCHMARKS.md records them.
func TestMeaningRealStores(t *testing.T) {
	root := testshared.RealStores(t)
	var files []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			files = append(files, p)
		}
		return nil
	})
	var tiersN, refused, dropTried, silentRefused, declaredAccepted int
	byKind := map[string]int{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil || len(b) > 300_000 {
			continue
		}
		people := distill.PeopleFile(f)
		tiers, sums := realTiers(string(b))
		for i, entries := range tiers {
			ts := tierSource{entries: entries}
			if people {
				ts.people = make([]bool, len(entries))
				for j := range ts.people {
					ts.people[j] = true
				}
			}
			tiersN++
			faults := meaningFaults(ts, sums[i])
			if len(faults) > 0 {
				refused++
				seen := map[string]bool{}
				for _, f := range faults {
					if k := faultKind(f); !seen[k] {
						seen[k] = true
						byKind[k]++
					}
				}
				if refused <= 10 {
					t.Logf("false refusal, %s tier %d: %s", filepath.Base(f), i, faults[0])
				}
				continue
			}
			// Leave out the first bullet that is a priority fact.
			for k, bl := range sums[i] {
				if distill.PriorityOf(bl, people) == "" || distill.PriorityOf(bl, people) == distill.PriorityDecision && len(strings.Fields(bl)) < 4 {
					continue
				}
				rest := append(append([]string(nil), sums[i][:k]...), sums[i][k+1:]...)
				if len(rest) == 0 || carriedBy(newUnit(bl), unitsOf(rest)) {
					// Said again by another line (a front matter's
					// description, an index line): leaving one out loses
					// nothing. Only a fact said once is tried.
					continue
				}
				dropTried++
				if len(meaningFaults(ts, rest)) > 0 {
					silentRefused++
				} else if dropTried-silentRefused <= 5 {
					t.Logf("silent drop accepted, %s tier %d: %q", filepath.Base(f), i, bl)
				}
				// A declaration per sentence of the line, by its first
				// eight words: a summarizer names each fact it drops.
				decls := append([]string(nil), rest...)
				for _, st := range statements(bl) {
					words := strings.Fields(st)
					decls = append(decls, "Dropped: "+strings.Join(words[:min(len(words), 8)], " "))
				}
				if fs := meaningFaults(ts, decls); len(fs) == 0 {
					declaredAccepted++
				} else if dropTried-declaredAccepted <= 5 {
					t.Logf("declared drop refused, %s tier %d: %s", filepath.Base(f), i, fs[0])
				}
				break
			}
		}
	}
	if tiersN == 0 {
		t.Skip("no real stores")
	}
	rate := float64(refused) / float64(tiersN)
	t.Logf("refused tiers by the checks that refused them: %v", byKind)
	t.Logf("real stores, %d files: faithful summaries of %d tiers, %d refused (%.1f%%); a priority fact left out silently: %d of %d refused; declared dropped: %d of %d accepted",
		len(files), tiersN, refused, 100*rate, silentRefused, dropTried, declaredAccepted, dropTried)
	if rate > 0.05 {
		t.Errorf("%d of %d faithful real-store summaries refused (%.1f%%), want ≤ 5%%", refused, tiersN, 100*rate)
	}
	if dropTried > 0 && float64(silentRefused) < 0.85*float64(dropTried) {
		t.Errorf("only %d of %d priority facts left out silently were refused, want ≥ 85%%", silentRefused, dropTried)
	}
	if dropTried > 0 && float64(declaredAccepted) < 0.95*float64(dropTried) {
		t.Errorf("only %d of %d declared drops were accepted, want ≥ 95%%", declaredAccepted, dropTried)
	}
}

// faultKind names the check a fault comes from, for the tallies.
func faultKind(f string) string {
	for _, k := range []string{"priority fact", "flips", "not grounded", "says nothing", "the number", "puts the fact under", "names", "restates as current", "declares dropped"} {
		if strings.Contains(f, k) {
			return k
		}
	}
	return "other"
}

// label reports whether a line is a label or markup a summarizer does
// not restate as a bullet: "**Why:**", "metadata:", "...", a fence.
func label(t string) bool {
	u := newUnit(t)
	if len(u.words) == 0 && len(u.nums) == 0 {
		return true
	}
	return strings.HasSuffix(strings.TrimRight(t, "*_ "), ":") && len(strings.Fields(t)) <= 3
}

func unitsOf(ss []string) []unit {
	out := make([]unit, len(ss))
	for i, s := range ss {
		out[i] = newUnit(s)
	}
	return out
}
