package compact

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/snapshot"
	"github.com/memcompact/memcompact/internal/summarize"
	"github.com/memcompact/memcompact/internal/testshared"
)

// TestLongRun saves 150 entries into a team file with a 40-line budget,
// each save compacting as it needs, and checks what a long run must hold:
// the provenance line stays short (a catalogue, not a list that grows
// each round); every snapshot taken is reachable from the block (named,
// or listed in the catalogue it names) and rebuilds; every line a save
// wrote is in the file or in such a snapshot; the file's characters stay
// under the ceiling of its lines budget; and the snapshots, stored by
// content, take at most three times the bytes the saves added.
//
// Seven hours apart the run spans six weeks; 53 hours apart, ten months,
// and the block grows until its months merge into quarters and its
// quarters into the year: each merge is named in the catalogue.
func TestLongRun(t *testing.T) {
	// -short runs the ten-month run only: it passes every level of the
	// block (month, quarter, year); the six-week one reaches months only.
	t.Run("7h apart", func(t *testing.T) {
		if testing.Short() {
			t.Skip("-short: the 53h run covers every level")
		}
		longRunTest(t, 7*time.Hour)
	})
	t.Run("53h apart", func(t *testing.T) { longRunTest(t, 53*time.Hour) })
}

func longRunTest(t *testing.T, apart time.Duration) {
	const saves = 150
	root := testshared.Tree(t, map[string]string{
		budget.PolicyRel: "| File | Budget | Newest tier | Notes |\n|---|---|---|---|\n| team.md | 40 lines | last 3 entries | n |\n",
		"team.md":        "# Team\n\n",
	})
	path := filepath.Join(root, "team.md")
	added, maxChars, maxProv, pruned := 0, 0, 0, 0
	var written []string
	start := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	for i := 0; i < saves; i++ {
		at := start.Add(time.Duration(i) * apart)
		name := []string{"Omar", "Lena", "Priya", "Jonas", "Aiko"}[i%5]
		entry := "## " + at.Format("2006-01-02 15:04") + " — Standup " + itoa(i) + "\n" +
			"- " + name + " shipped change " + itoa(i) + " to service-" + itoa(i%7) + ".\n" +
			"- Thanks everyone, good standup!\n"
		if i%10 == 3 {
			entry += "- " + name + " is allergic to peanuts and carries an EpiPen.\n"
		}
		if i%10 == 7 {
			entry += "- Decided to pin service-" + itoa(i) + " to v" + itoa(i%9) + ".2 because of the flaky migration.\n"
		}
		added += len(entry)
		written = append(written, strings.Split(strings.TrimSuffix(entry, "\n"), "\n")...)
		res, err := Save(context.Background(), SaveRequest{Root: root, File: path, Entry: []byte(entry), EntryName: "the entry",
			Timeout: summarize.DefaultTimeout, Confirmed: true, Today: at, Now: at})
		if err != nil {
			t.Fatalf("save %d: %v", i, err)
		}
		if res.Status == StatusNotSaved {
			t.Fatalf("save %d: not saved", i)
		}
		if c := res.Compaction; c != nil && c.Pruned != nil {
			pruned += len(c.Pruned.Removed)
		}
		got, _ := os.ReadFile(path)
		text := string(got)
		maxChars = max(maxChars, len(text))
		for _, l := range strings.Split(text, "\n") {
			if strings.HasPrefix(l, "*Distilled from") {
				maxProv = max(maxProv, len(l))
			}
		}
		if !strings.Contains(text, "Standup "+itoa(i)+"\n") {
			t.Fatalf("save %d: the entry is not in the file", i)
		}
	}
	text, _ := os.ReadFile(path)
	lr := longRunOf(t, root, string(text))
	// Every snapshot of the file is reachable from the block (named, or
	// listed in the catalogue it names), and rebuilds to what it was.
	for _, name := range lr.snapshots {
		if !lr.reachable[name] {
			t.Errorf("snapshot %s is named by neither the block nor its catalogue", name)
		}
	}
	if len(lr.snapshots) == 0 {
		t.Fatal("no compaction happened")
	}
	// Provenance complete: every line a save wrote is in the file or in a
	// snapshot the block reaches.
	for _, l := range written {
		if !strings.Contains(string(text), l) && !lr.inSnapshot(l) {
			t.Errorf("the line %q is in neither the file nor a snapshot the block reaches", l)
		}
	}
	// The block condensed again and again keeps the health fact live: in
	// the bullet of its first day (later repeats merge into it) while the
	// block merges months and quarters, on the year's line after.
	fact := "Standup 3: Jonas is allergic to peanuts and carries an EpiPen."
	cat, _ := os.ReadFile(filepath.Join(root, "compaction/snapshots/team-7519aa-catalogue.md"))
	if merged := strings.Contains(string(cat), "merged into 2026-Q1;"); apart > 24*time.Hour {
		fact = "Jonas is allergic to peanuts and carries an EpiPen."
		if !merged || !strings.Contains(string(cat), "merged into 2026;") {
			t.Errorf("the catalogue does not name the months and quarters merged:\n%s", cat)
		}
	} else if merged {
		t.Errorf("a six-week run merged a quarter:\n%s", cat)
	}
	if !strings.Contains(string(text), fact) {
		t.Errorf("the health fact left the live file:\n%s", text)
	}
	// So does every decision: each save's is current (no two pin the
	// same service), and none is dropped while the block merges.
	for i := 7; i < saves; i += 10 {
		if d := "Decided to pin service-" + itoa(i) + " to v" + itoa(i%9) + ".2"; !strings.Contains(string(text), d) {
			t.Errorf("the decision %q left the live file", d)
		}
	}
	if maxProv > 300 {
		t.Errorf("the provenance line grew to %d characters", maxProv)
	}
	if maxChars > 40*CharsPerLine {
		t.Errorf("the file grew to %d characters under a 40-line budget (ceiling %d)", maxChars, 40*CharsPerLine)
	}
	// Snapshots stored by content cost about the bytes that changed: the
	// whole folder (catalogue included) at most 3 times the bytes the
	// saves added (a copy of the file each round was 8.5 times).
	if ratio := float64(lr.stored) / float64(added); ratio > 3 {
		t.Errorf("the snapshots take %d bytes, %.1f times the %d bytes added", lr.stored, ratio, added)
	}
	t.Logf("%d saves, %d bytes of entries added; %d snapshots (%d stored as changes), %d bytes on disk with the catalogue (%.1fx the bytes added; %d bytes as whole copies), %d pruned; file at most %d chars (now %d); provenance line at most %d chars",
		saves, added, len(lr.snapshots), lr.deltas, lr.stored, float64(lr.stored)/float64(added), lr.whole, pruned, maxChars, len(text), maxProv)
}

// longRun is what a long run left in the snapshots folder.
type longRun struct {
	snapshots []string        // snapshot names, oldest first
	reachable map[string]bool // named by the block or the catalogue it names
	content   []string        // the snapshots' content, rebuilt
	stored    int64           // bytes on disk, the catalogue included
	whole     int64           // the snapshots' bytes as whole copies
	deltas    int
}

// longRunOf reads the snapshots folder of root, whose file holds text.
func longRunOf(t *testing.T, root, text string) *longRun {
	t.Helper()
	dir := filepath.Join(root, filepath.FromSlash(budget.SnapshotsRel))
	lr := &longRun{reachable: map[string]bool{}}
	ents, _ := os.ReadDir(dir)
	reach := text
	for _, e := range ents {
		fi, _ := e.Info()
		lr.stored += fi.Size()
		if isCatalogue(e.Name()) && strings.Contains(text, budget.SnapshotsRel+"/"+e.Name()) {
			b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
			reach += string(b)
		}
	}
	list, err := snapshot.List(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range list {
		b, err := snapshot.Read(in.Path)
		if err != nil {
			t.Fatalf("snapshot %s does not rebuild: %v", in.Name, err)
		}
		lr.snapshots = append(lr.snapshots, in.Name)
		lr.content = append(lr.content, string(b))
		lr.reachable[in.Name] = strings.Contains(reach, budget.SnapshotsRel+"/"+in.Name)
		lr.whole += int64(len(b))
		if in.Delta != "" {
			lr.deltas++
		}
	}
	return lr
}

// inSnapshot reports whether a snapshot the block reaches holds line.
func (lr *longRun) inSnapshot(line string) bool {
	for i, name := range lr.snapshots {
		if lr.reachable[name] && strings.Contains(lr.content[i], line) {
			return true
		}
	}
	return false
}
