package compact

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/summarize"
	"github.com/memcompact/memcompact/internal/testshared"
)

// TestLongRun saves 150 entries into a team file with a 40-line budget,
// each save compacting as it needs, and checks what a long run must hold:
// the provenance line stays short (a catalogue, not a list that grows
// each round); every snapshot taken is reachable from the block (named,
// or listed in the catalogue it names); the file's characters stay
// bounded; and it reports the snapshots' bytes against the bytes the
// saves added.
func TestLongRun(t *testing.T) {
	const saves = 150
	root := testshared.Tree(t, map[string]string{
		budget.PolicyRel: "| File | Budget | Newest tier | Notes |\n|---|---|---|---|\n| team.md | 40 lines | last 3 entries | n |\n",
		"team.md":        "# Team\n\n",
	})
	path := filepath.Join(root, "team.md")
	added, maxChars, maxProv := 0, 0, 0
	start := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	for i := 0; i < saves; i++ {
		at := start.Add(time.Duration(i) * 7 * time.Hour)
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
		res, err := Save(context.Background(), SaveRequest{Root: root, File: path, Entry: []byte(entry), EntryName: "the entry",
			Timeout: summarize.DefaultTimeout, Confirmed: true, Today: at, Now: at})
		if err != nil {
			t.Fatalf("save %d: %v", i, err)
		}
		if res.Status == StatusNotSaved {
			t.Fatalf("save %d: not saved", i)
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
	// Every snapshot of the file is reachable from the block.
	snapDir := filepath.Join(root, filepath.FromSlash(budget.SnapshotsRel))
	ents, _ := os.ReadDir(snapDir)
	reach := string(text)
	var snapBytes int64
	nsnaps := 0
	for _, e := range ents {
		if isCatalogue(e.Name()) {
			b, _ := os.ReadFile(filepath.Join(snapDir, e.Name()))
			if strings.Contains(string(text), budget.SnapshotsRel+"/"+e.Name()) {
				reach += string(b)
			}
		}
	}
	for _, e := range ents {
		if isCatalogue(e.Name()) {
			continue
		}
		nsnaps++
		if fi, err := e.Info(); err == nil {
			snapBytes += fi.Size()
		}
		if !strings.Contains(reach, budget.SnapshotsRel+"/"+e.Name()) {
			t.Errorf("snapshot %s is named by neither the block nor its catalogue", e.Name())
		}
	}
	if nsnaps == 0 {
		t.Fatal("no compaction happened")
	}
	if maxProv > 300 {
		t.Errorf("the provenance line grew to %d characters", maxProv)
	}
	if maxChars > 40*200 {
		t.Errorf("the file grew to %d characters under a 40-line budget", maxChars)
	}
	t.Logf("%d saves, %d bytes of entries added; %d snapshots, %d bytes (%.1fx the bytes added); file at most %d chars (now %d); provenance line at most %d chars",
		saves, added, nsnaps, snapBytes, float64(snapBytes)/float64(added), maxChars, len(text), maxProv)
}
