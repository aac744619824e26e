package sweepact

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/loadcut"
	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/sweep"
)

// reachOneByOne is reachTarget as first written: demote one candidate,
// rebuild the whole index, judge its hooks and measure it, and stop at the
// first demotion that fits. reachTarget must decide exactly as it does.
func reachOneByOne(s *store, pl *Plan, asOf records.Date) {
	if f, _ := after(s, pl); f.WithinTarget {
		return
	}
	r := newReach(s, pl)
	for _, i := range r.candidates(asOf, false) {
		sub := &pl.Subjects[i]
		prev := *sub
		sub.Disposition = "demote"
		sub.Reason = fmt.Sprintf("to bring the index within the target (%d lines, %d units): among the oldest, least recalled subjects that are not critical", pl.Target.Lines, pl.Target.Units)
		demoteDestination(sub, s.bodies[sub.Name])
		lines, _ := rebuild(s.parsed(), slotsOf(s, pl))
		if err := judgeHooks(s.parsed()).check(index.Parse(lines)); err != nil {
			*sub = prev
			sub.Evidence = append(sub.Evidence, "not demoted to reach the target: "+err.Error())
			continue
		}
		if f, _ := figures(lines, pl.Target); f.WithinTarget {
			return
		}
	}
}

// randomStore writes an index of n pointer subjects in sections, some
// lines carrying two or three subjects (with and without their own
// hooks, some under one shared note), most with a body.
func randomStore(t *testing.T, rng *rand.Rand, n int) string {
	dir := t.TempDir()
	var ix strings.Builder
	ix.WriteString("# Memory\n")
	kinds := []string{"project", "reference", "feedback", "user", "note"}
	for i := 0; i < n; {
		if rng.IntN(8) == 0 {
			fmt.Fprintf(&ix, "\n## Section %d\n", i)
		}
		per := 1
		if rng.IntN(4) == 0 {
			per = 2 + rng.IntN(2)
		}
		var segs []string
		for j := 0; j < per && i < n; j++ {
			name := fmt.Sprintf("%s_%d_2026-%02d-%02d", kinds[rng.IntN(len(kinds))], i, 1+rng.IntN(12), 1+rng.IntN(28))
			if rng.IntN(10) != 0 {
				body := fmt.Sprintf("---\nname: %s\ndescription: lesson %d\n---\nLesson %d: retry three times, then back off.\n", name, i, i)
				if err := os.WriteFile(filepath.Join(dir, name+".md"), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			switch rng.IntN(4) {
			case 0:
				segs = append(segs, fmt.Sprintf("[%s](%s.md)", name, name))
			default:
				segs = append(segs, fmt.Sprintf("[Lesson %d](%s.md) — what lesson %d teaches about retries and backoff", i, name, i))
			}
			i++
		}
		line := "- " + strings.Join(segs, "; ")
		if per > 1 && rng.IntN(2) == 0 {
			line += " — both about flaky network calls"
		}
		ix.WriteString(line + "\n")
	}
	index := filepath.Join(dir, "MEMORY.md")
	if err := os.WriteFile(index, []byte(ix.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return index
}

// TestReachTargetDecidesAsOneByOne: the measured-by-doubling reach makes
// the same demotions, reasons and evidence as demoting and measuring one
// candidate at a time, on random indexes with shared lines and notes.
func TestReachTargetDecidesAsOneByOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	asOf, _ := records.ParseDate("2026-12-02")
	trials := 12
	if testing.Short() {
		trials = 2 // both demote; the third and fourth were most of the time
	}
	demoted := 0
	for trial := range trials {
		n := 120 + rng.IntN(200)
		index := randomStore(t, rng, n)
		targets := []int{0, 4000 + rng.IntN(12000)}
		for _, units := range targets {
			plans := [2]*Plan{}
			for k := range plans {
				s, err := readStore(index, asOf, nil)
				if err != nil {
					t.Fatal(err)
				}
				pl := &Plan{Target: Target{Lines: 200, Units: 25000}, Notes: []string{}}
				if units > 0 {
					pl.Target.Units = units
				}
				var loaded = figuresLoaded(s, pl)
				propose(s, pl, asOf, loaded)
				if k == 0 {
					reachTarget(s, pl, asOf)
				} else {
					reachOneByOne(s, pl, asOf)
				}
				plans[k] = pl
			}
			if !reflect.DeepEqual(plans[0].Subjects, plans[1].Subjects) {
				for i := range plans[0].Subjects {
					a, b := plans[0].Subjects[i], plans[1].Subjects[i]
					if !reflect.DeepEqual(a, b) {
						t.Fatalf("trial %d (n=%d units=%d): subject %s differs:\nfast: %s %q %q\nslow: %s %q %q", trial, n, units, a.Name, a.Disposition, a.Reason, a.Evidence, b.Disposition, b.Reason, b.Evidence)
					}
				}
			}
			for _, s := range plans[0].Subjects {
				if s.Disposition == "demote" && s.Population == sweep.PopPointer {
					demoted++
				}
			}
		}
	}
	if demoted == 0 {
		t.Fatal("no trial demoted anything: the comparison proved nothing")
	}
}

func figuresLoaded(s *store, pl *Plan) (r0 loadcut.Result) {
	pl.Before, r0 = figures(s.lines, pl.Target)
	return r0
}
