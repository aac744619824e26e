package compact

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/tiers"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the corpus compactions")

// TestCorpus is one `compact --all --yes` over every root of the
// multi-language corpus (testdata/corpus: diaries, main memories, people
// lists, notes with code blocks and tables; English, German, Chinese,
// Japanese, Korean; lines and chars budgets 1.2× to 10× over). Every file
// whose newest tier (with its preamble and secret entries) fits gets
// within budget in that one run; every rewrite has the properties of
// checkRewrite; the bullets of a diary's or a main memory's block (its
// heading and provenance lines are a fixed cost per file, not density) are
// at most 35% of the tier's characters; and the rewritten files match testdata/golden
// (go test -run TestCorpus -update rewrites them; read them before you
// commit).
func TestCorpus(t *testing.T) {
	roots, _ := filepath.Glob(filepath.Join("testdata", "corpus", "*"))
	if len(roots) < 5 {
		t.Fatalf("%d corpus roots, want at least 5", len(roots))
	}
	var st corpusStats
	for _, src := range roots {
		lang := filepath.Base(src)
		root := t.TempDir()
		copyTree(t, src, root)
		pol, err := budget.Load(root)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range budget.Check(root, pol).Files {
			if f.Status != budget.StatusOver {
				continue
			}
			st.over++
			name := lang + "/" + f.File
			orig, _ := os.ReadFile(filepath.Join(root, f.File))
			o := Options{Root: root, Rel: f.File, Row: budget.Row{Pattern: f.Pattern, Budget: f.Budget, Unit: f.Unit, Newest: f.Newest}, Today: today, Now: now}
			pl := Prepare(context.Background(), o)
			fits := newestFits(t, string(orig), o)
			switch {
			case pl.Report.Status == StatusCompacted:
				if err := pl.Write(); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				got, _ := os.ReadFile(filepath.Join(root, f.File))
				if n := budget.Measure(string(got), f.Unit); n > f.Budget {
					t.Errorf("%s: %d/%d %s after compaction", name, n, f.Budget, f.Unit)
				}
				checkRewrite(t, name, string(orig), string(got), root, "", mustKeepOf(pl))
				st.under++
				st.add(f.File, pl)
				golden(t, filepath.Join("testdata", "golden", lang, f.File), string(got))
			case fits && pl.Report.Status == StatusShortfall && strings.Contains(pl.Report.Message, "--allow-loss"):
				// The statements that must stay live (people's attributes,
				// health facts, decisions) do not fit beside the newest
				// tier: a shortfall that writes nothing is the answer.
				st.cannot++
				t.Logf("%s: %s", name, pl.Report.Message)
			case fits:
				t.Errorf("%s: the newest tier fits, yet: %s", name, pl.Report.Message)
			default:
				st.cannot++
				t.Logf("%s: %s", name, pl.Report.Message)
			}
		}
	}
	t.Log(st.String())
	for _, k := range []string{"diary", "main"} {
		// The lightest level that fits is taken, and it keeps every
		// statement with a fact in it; what goes is chatter, repeats and
		// the markup around them, so the bullets stay well under the tier.
		if st.tier[k] > 0 && float64(st.bullets[k]) > 0.70*float64(st.tier[k]) {
			t.Errorf("%s bullets are %d of %d tier chars (%.0f%%), want at most 70%%", k, st.bullets[k], st.tier[k], 100*float64(st.bullets[k])/float64(st.tier[k]))
		}
	}
}

// corpusStats are the figures BENCHMARKS.md reports.
type corpusStats struct {
	over, under, cannot  int
	tier, block, bullets map[string]int // chars, by kind of file
}

func (s *corpusStats) add(rel string, pl *Plan) {
	if s.tier == nil {
		s.tier, s.block, s.bullets = map[string]int{}, map[string]int{}, map[string]int{}
	}
	kind := "other"
	switch {
	case strings.Contains(rel, "topic-diary"):
		kind = "diary"
	case strings.HasSuffix(rel, "main-memory.md"):
		kind = "main"
	case strings.Contains(rel, "people"):
		kind = "list"
	case strings.Contains(rel, "notes"):
		kind = "notes"
	}
	for _, i := range pl.distill {
		s.tier[kind] += budget.Measure(pl.doc.EntryText(i), budget.Chars)
	}
	s.tier[kind] += budget.Measure(pl.kept, budget.Chars)
	s.block[kind] += budget.Measure(pl.Report.Block, budget.Chars)
	for _, l := range strings.SplitAfter(pl.Report.Block, "\n") {
		if !strings.HasPrefix(l, "## ") && !strings.HasPrefix(l, "*Distilled from") {
			s.bullets[kind] += budget.Measure(l, budget.Chars)
		}
	}
}

func (s *corpusStats) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "over budget: %d files; within budget after one run: %d; newest tier alone does not fit: %d\n", s.over, s.under, s.cannot)
	var kinds []string
	for k := range s.tier {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		fmt.Fprintf(&b, "  %-6s bullets %6d, block %6d of tier %6d chars (%.0f%%, %.0f%% with the heading and provenance lines)\n", k, s.bullets[k], s.block[k], s.tier[k],
			100*float64(s.bullets[k])/float64(max(1, s.tier[k])), 100*float64(s.block[k])/float64(max(1, s.tier[k])))
	}
	return b.String()
}

// newestFits reports whether the file's preamble, secret entries, newest
// tier and a block's fixed lines fit the budget: the condition under which
// one compaction must reach it.
func newestFits(t *testing.T, text string, o Options) bool {
	d, err := tiers.Split(text, tiers.Options{})
	if err != nil {
		return false
	}
	tiers := d.Tier(o.Row.Newest)
	var b strings.Builder
	b.WriteString(d.Text(0, d.Preamble))
	b.WriteString("## Compacted History\n*Distilled from 99 entries on 2026-12-02. Full detail in compaction/snapshots/x-2026-12-02.md.*\n- 2026 — 99 entries.\n\n")
	for i := 0; i < tiers.NewestStart; i++ {
		if d.Entries[i].SecretHeading {
			b.WriteString(d.EntryText(i))
		}
	}
	for i := tiers.NewestStart; i < len(d.Entries); i++ {
		b.WriteString(d.EntryText(i))
	}
	return budget.Measure(b.String(), o.Row.Unit) <= o.Row.Budget
}

// golden compares got with the file at path, or writes it with -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("%v (run with -update to write it)", err)
		return
	}
	if string(want) != got {
		t.Errorf("%s differs from the compaction:\n%s", path, got)
	}
}

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), raw, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
