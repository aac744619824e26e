package snapshot

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// pruneRoot is a memory root with a live file t.md and the snapshots of
// t.md taken at the given times, each holding its own content.
type pruneRoot struct {
	root, dir string
	names     []string
	content   map[string]string
}

func newPruneRoot(t *testing.T, live string, snaps []string, at []time.Time) *pruneRoot {
	t.Helper()
	root := t.TempDir()
	pr := &pruneRoot{root: root, dir: filepath.Join(root, "compaction", "snapshots"), content: map[string]string{}}
	if err := os.MkdirAll(pr.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "t.md"), []byte(live), 0o644)
	for i, s := range snaps {
		pr.take(t, s, at[i])
	}
	return pr
}

func (pr *pruneRoot) take(t *testing.T, data string, at time.Time) string {
	t.Helper()
	want, err := Next(pr.dir, "t.md", at, at)
	if err != nil {
		t.Fatal(err)
	}
	p, err := TakeStored(pr.dir, "t.md", want, []byte(data), at, at)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(p)
	pr.names = append(pr.names, name)
	pr.content[name] = data
	return name
}

// check fails unless every snapshot left rebuilds to what it was taken
// with.
func (pr *pruneRoot) check(t *testing.T) []string {
	t.Helper()
	l, err := List(pr.dir, "t")
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, in := range l {
		got, err := Read(in.Path)
		if err != nil || string(got) != pr.content[in.Name] {
			t.Fatalf("%s no longer rebuilds (%v): %q, want %q", in.Name, err, got, pr.content[in.Name])
		}
		left = append(left, in.Name)
	}
	return left
}

// body is a file of n long shared lines and the extra lines.
func body(extra ...string) string {
	var b strings.Builder
	b.WriteString("# T\n\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "- shared line %02d that every version of the file holds\n", i)
	}
	for _, e := range extra {
		b.WriteString(e + "\n")
	}
	return b.String()
}

func TestPruneRule(t *testing.T) {
	now := time.Date(2026, 12, 4, 12, 0, 0, 0, time.Local)
	old := func(days int) time.Time { return now.Add(-time.Duration(days) * 24 * time.Hour) }
	rule := Retention{KeepLast: 2, KeepDays: 7, KeepWeeks: 8, CapBytes: 1 << 20}
	tests := []struct {
		name  string
		live  string
		snaps []string
		at    []time.Time
		// named: indexes of snapshots a block (in the live file) or a
		// catalogue names; block says which of the two.
		named   []int
		block   bool
		rule    Retention
		removed []int
		skipped bool
	}{
		{name: "old and redundant: pruned", live: body("x"), snaps: []string{body("x"), body("x"), body("x"), body("x")},
			at: []time.Time{old(400), old(300), old(2), old(1)}, rule: rule, removed: []int{0, 1}},
		{name: "named by the catalogue: kept", live: body("x"), snaps: []string{body("x"), body("x"), body("x"), body("x")},
			at: []time.Time{old(400), old(300), old(2), old(1)}, named: []int{0}, rule: rule, removed: []int{1}},
		{name: "named by a block: kept", live: body("x"), snaps: []string{body("x"), body("x"), body("x"), body("x")},
			at: []time.Time{old(400), old(300), old(2), old(1)}, named: []int{1}, block: true, rule: rule, removed: []int{0}},
		{name: "a line found nowhere else: kept", live: body("x"), snaps: []string{body("gone 1"), body("x"), body("x"), body("x")},
			at: []time.Time{old(400), old(300), old(2), old(1)}, rule: rule, removed: []int{1}},
		{name: "two holding the same lost line: the older kept, the newer pruned", live: body("x"), snaps: []string{body("gone"), body("gone"), body("x"), body("x")},
			at: []time.Time{old(400), old(300), old(2), old(1)}, rule: rule, removed: []int{1}},
		{name: "the newest N: kept", live: body("x"), snaps: []string{body("x"), body("x")},
			at: []time.Time{old(400), old(300)}, rule: rule},
		{name: "restore points of recent days and weeks: kept", live: body("x"), snaps: []string{body("x"), body("x"), body("x"), body("x"), body("x"), body("x")},
			at: []time.Time{old(400), old(20), old(20).Add(time.Hour), old(3), old(2), old(1)}, rule: rule, removed: []int{0, 1}},
		{name: "past the cap: restore points go, what must stay stays", live: body("x"), snaps: []string{body("a"), body("x"), body("x"), body("x"), body("x")},
			at: []time.Time{old(400), old(4), old(3), old(2), old(1)}, rule: Retention{KeepLast: 1, KeepDays: 7, KeepWeeks: 8, CapBytes: 10}, removed: []int{1, 2, 3}},
		{name: "a delta on a pruned base is stored again", live: body("x", "y"), snaps: []string{body("x"), body("x", "y"), body("x", "y", "z"), body("x", "y")},
			at: []time.Time{old(400), old(300), old(200), old(1)}, named: []int{2}, rule: Retention{KeepLast: 1}, removed: []int{0, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pr := newPruneRoot(t, tt.live, tt.snaps, tt.at)
			var names []string
			for _, i := range tt.named {
				names = append(names, "compaction/snapshots/"+pr.names[i])
			}
			if tt.block {
				os.WriteFile(filepath.Join(pr.root, "t.md"), []byte(tt.live+"\n## Compacted History\n*Distilled from 3 entries on 2026-01-01. Full detail in "+strings.Join(names, ", ")+".*\n"), 0o644)
			} else if len(names) > 0 {
				os.WriteFile(filepath.Join(pr.dir, "t-abcdef-catalogue.md"), []byte("# Snapshots of t.md\n\n- "+strings.Join(names, "\n- ")+"\n"), 0o644)
			}
			res, err := Prune(pr.root, "t.md", now, tt.rule)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, i := range tt.removed {
				want = append(want, pr.names[i])
			}
			if !slices.Equal(res.Removed, want) {
				t.Errorf("removed %v, want %v (%+v)", res.Removed, want, res)
			}
			left := pr.check(t)
			if len(left)+len(res.Removed) != len(tt.snaps) || res.Kept != len(left) {
				t.Errorf("%d left, %d removed, %d kept reported, of %d", len(left), len(res.Removed), res.Kept, len(tt.snaps))
			}
			if res.Named != len(tt.named) {
				t.Errorf("%d named, want %d", res.Named, len(tt.named))
			}
		})
	}
}

// TestPruneCannotJudge: a snapshot that does not rebuild stops the prune.
func TestPruneCannotJudge(t *testing.T) {
	now := time.Date(2026, 12, 4, 12, 0, 0, 0, time.Local)
	pr := newPruneRoot(t, body("x"), []string{body("x"), body("x"), body("x", "y")}, []time.Time{now.Add(-9000 * time.Hour), now.Add(-8000 * time.Hour), now.Add(-1 * time.Hour)})
	// Damage the delta in the middle: its base is changed by hand.
	os.WriteFile(filepath.Join(pr.dir, pr.names[0]), []byte(body("edited by hand")), 0o644)
	res, err := Prune(pr.root, "t.md", now, Retention{KeepLast: 1})
	if err != nil || len(res.Removed) != 0 || !strings.Contains(res.Skipped, "cannot be rebuilt") {
		t.Fatalf("prune with a damaged snapshot: %+v, %v", res, err)
	}
	if l, _ := List(pr.dir, "t"); len(l) != 3 {
		t.Errorf("%d snapshots left, want all 3", len(l))
	}
}

// TestPruneProperty runs random sequences of rewrites (each snapshotting
// the file first, as compaction does), namings and prunes, and checks
// after every prune that every snapshot left, each one named among them,
// rebuilds byte for byte, and that every line the file or a snapshot ever
// held is still in the file or a snapshot.
func TestPruneProperty(t *testing.T) {
	seeds := 12
	if testing.Short() {
		seeds = 4
	}
	for seed := 0; seed < seeds; seed++ {
		rng := rand.New(rand.NewSource(int64(seed)))
		now := time.Date(2025, 1, 1, 9, 0, 0, 0, time.Local)
		pr := newPruneRoot(t, "", nil, nil)
		live := strings.Split(strings.TrimSuffix(body(), "\n"), "\n")
		ever := map[string]bool{}
		var named []string
		for step := 0; step < 60; step++ {
			now = now.Add(time.Duration(1+rng.Intn(72)) * time.Hour)
			for _, l := range live {
				ever[l] = true
			}
			text := strings.Join(live, "\n") + "\n"
			os.WriteFile(filepath.Join(pr.root, "t.md"), []byte(text), 0o644)
			switch rng.Intn(3) {
			case 0, 1: // a rewrite: snapshot, then change the file
				name := pr.take(t, text, now)
				if rng.Intn(2) == 0 {
					named = append(named, "compaction/snapshots/"+name)
					os.WriteFile(filepath.Join(pr.dir, "t-abcdef-catalogue.md"), []byte(strings.Join(named, "\n")+"\n"), 0o644)
				}
				for n := rng.Intn(4); n > 0 && len(live) > 3; n-- {
					i := 2 + rng.Intn(len(live)-2)
					live = append(live[:i], live[i+1:]...)
				}
				for n := rng.Intn(4); n > 0; n-- {
					live = append(live, fmt.Sprintf("- seed %d step %d line %d", seed, step, n))
				}
			case 2:
				rule := Retention{KeepLast: rng.Intn(3), KeepDays: rng.Intn(8), KeepWeeks: rng.Intn(4), CapBytes: int64(rng.Intn(4000))}
				if _, err := Prune(pr.root, "t.md", now, rule); err != nil {
					t.Fatalf("seed %d step %d: %v", seed, step, err)
				}
				left := pr.check(t)
				have := map[string]bool{}
				for _, l := range live {
					have[l] = true
				}
				for _, n := range left {
					for _, l := range strings.Split(pr.content[n], "\n") {
						have[l] = true
					}
				}
				for _, n := range named {
					if !slices.Contains(left, filepath.Base(n)) {
						t.Fatalf("seed %d step %d: the named %s was pruned", seed, step, n)
					}
				}
				for l := range ever {
					if !have[l] {
						t.Fatalf("seed %d step %d: the line %q is in no snapshot left and not in the file", seed, step, l)
					}
				}
			}
		}
	}
}

// TestPruneCatalogueShortcut: candidates all named by the catalogue are
// kept (the root's other files unread), and the count of named ones says
// so.
func TestPruneCatalogueShortcut(t *testing.T) {
	now := time.Date(2026, 12, 4, 12, 0, 0, 0, time.Local)
	pr := newPruneRoot(t, body("x"), []string{body("x"), body("x"), body("x")}, []time.Time{now.Add(-9000 * time.Hour), now.Add(-8000 * time.Hour), now.Add(-1 * time.Hour)})
	os.WriteFile(filepath.Join(pr.dir, "t-abcdef-catalogue.md"), []byte("- compaction/snapshots/"+pr.names[0]+"\n- compaction/snapshots/"+pr.names[1]+"\n"), 0o644)
	res, err := Prune(pr.root, "t.md", now, Retention{KeepLast: 1})
	if err != nil || len(res.Removed) != 0 || res.Named != 2 || res.Kept != 3 {
		t.Fatalf("prune: %+v, %v", res, err)
	}
	pr.check(t)
}
