package compact

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestProvenanceThreeRounds: after three compactions the block names all
// three snapshots, and every original line of every round is in the file
// or in one of them.
func TestProvenanceThreeRounds(t *testing.T) {
	text := diary(12, "\n")
	root := setup(t, "topics/tools.md", text)
	var names []string
	for i := 0; i < 3; i++ {
		o := opts(root, "topics/tools.md", 1000, 6-2*i)
		o.Explicit = true
		o.Now = now.Add(time.Duration(i) * time.Second)
		pl := Prepare(context.Background(), o)
		if pl.Report.Status != StatusCompacted {
			t.Fatalf("round %d: %s", i+1, pl.Report.Message)
		}
		if err := pl.Write(); err != nil {
			t.Fatal(err)
		}
		names = append(names, pl.Report.Snapshot)
	}
	got, _ := os.ReadFile(filepath.Join(root, "topics/tools.md"))
	prov := ""
	for _, l := range strings.Split(string(got), "\n") {
		if strings.HasPrefix(l, "*Distilled from") {
			prov = l
		}
	}
	if want := "Full detail in " + strings.Join(names, ", ") + ".*"; !strings.HasSuffix(prov, want) {
		t.Errorf("provenance %q, want it to end %q", prov, want)
	}
	checkRewrite(t, "three rounds", text, string(got), root, "", nil)
}
