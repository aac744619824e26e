package journal

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/testshared"
)

// treeBytes is the bytes of the regular files under dir.
func treeBytes(t testing.TB, dir string) int64 {
	t.Helper()
	var n int64
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// proseStore is a store of n entries of varied prose (as compressible as
// real notes, not a repeated line), with an index pointing at each.
func proseStore(n int, seed uint64) map[string]string {
	r := rand.New(rand.NewPCG(seed, 1))
	words := strings.Fields("the build cache key includes go sum and the version run race detector before every push sessions move to JWT in Q3 exports run nightly at UTC tag releases from main never from a branch staging deploys need approval from the on-call reviewer database migrations are applied by hand prefer table tests keep functions small")
	files := map[string]string{}
	var ix strings.Builder
	ix.WriteString("# Memory\n")
	for i := range n {
		name := fmt.Sprintf("feedback_topic_%03d.md", i)
		var b strings.Builder
		fmt.Fprintf(&b, "---\nname: topic %d\ndescription: what topic %d teaches\ntype: feedback\n---\n", i, i)
		for range 150 + r.IntN(250) {
			b.WriteString(words[r.IntN(len(words))])
			b.WriteByte(" \n"[boolInt(r.IntN(12) == 0)])
		}
		b.WriteString("\n")
		files[name] = b.String()
		fmt.Fprintf(&ix, "- [Topic %d](%s) — %s %s %s\n", i, name, words[r.IntN(len(words))], words[r.IntN(len(words))], words[r.IntN(len(words))])
	}
	files[IndexName] = ix.String()
	return files
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// consolidate does to f's store what a background consolidation did in
// the field: 30% of the entries deleted, two merged into a new one, one
// truncated, and the index rewritten shorter with its hooks reworded.
func consolidate(t testing.TB, f *fixture, files map[string]string) {
	t.Helper()
	var names []string
	for p := range files {
		if p != IndexName {
			names = append(names, p)
		}
	}
	sort.Strings(names)
	gone := map[string]bool{}
	for i, p := range names {
		if i%10 < 3 {
			os.Remove(filepath.Join(f.store, p))
			gone[p] = true
		}
	}
	a, b := names[3], names[4]
	f.write("feedback_merged.md", files[a]+files[b])
	os.Remove(filepath.Join(f.store, a))
	os.Remove(filepath.Join(f.store, b))
	gone[a], gone[b] = true, true
	f.write(names[5], files[names[5]][:len(files[names[5]])/4])
	var ix strings.Builder
	ix.WriteString("# Memory\n- [Merged](feedback_merged.md) — two topics, merged\n")
	for _, p := range names {
		if !gone[p] {
			fmt.Fprintf(&ix, "- [%s](%s) — reworded\n", strings.TrimSuffix(p, ".md"), p)
		}
	}
	f.write(IndexName, ix.String())
}

// consolidationAndFourUndos runs the field's sequence on f's store: a
// session start, a consolidation, the next session start, then four
// undos (the entries back, that undone, the whole store back, that
// undone), and returns the journal's and the store's bytes.
func consolidationAndFourUndos(t testing.TB, f *fixture, files map[string]string) (journalBytes, storeBytes int64) {
	t.Helper()
	ctx := context.Background()
	start := func(s string) {
		if _, err := SessionStart(ctx, HookRequest{Store: f.store, DataDir: f.data, Session: s, Now: f.clk.now}); err != nil {
			t.Fatal(err)
		}
	}
	start("s1")
	first, _ := mustJournal(t, f).latest()
	consolidate(t, f, files)
	start("s2")
	undo := func(req UndoRequest) string {
		req.Store, req.DataDir, req.Confirm, req.Now = f.store, f.data, yes, f.clk.now
		r, err := RunUndo(ctx, req)
		if err != nil && outcome.ReasonOf(err) != ReasonNotRestored { // a file withheld as secret
			t.Fatalf("undo %+v: %v", req, err)
		}
		return r.Safety
	}
	s := undo(UndoRequest{RemovedSince: first.ID})
	undo(UndoRequest{To: s})
	s = undo(UndoRequest{To: first.ID})
	undo(UndoRequest{To: s})
	return treeBytes(t, mustJournal(t, f).Dir), treeBytes(t, f.store)
}

// TestJournalSizeAfterConsolidationAndUndos: after a consolidation and
// four undos the journal holds at most 1.5 times the store's bytes.
func TestJournalSizeAfterConsolidationAndUndos(t *testing.T) {
	files := proseStore(80, 7)
	f := newFixture(t, files)
	jb, sb := consolidationAndFourUndos(t, f, files)
	ratio := float64(jb) / float64(sb)
	t.Logf("journal %d bytes, store %d bytes: %.2f×", jb, sb, ratio)
	if ratio > 1.5 {
		t.Errorf("journal %d bytes is %.2f× the store's %d, want at most 1.5×", jb, ratio, sb)
	}
}

// TestJournalSizeOnRealStores: the same on the real stores of the shared
// corpus that have at least 20 entries, against the store as the
// sequence leaves it (the store before the consolidation is logged too).
func TestJournalSizeOnRealStores(t *testing.T) {
	root := testshared.RealStores(t)
	ents, _ := os.ReadDir(root)
	for _, e := range ents {
		files := map[string]string{}
		dir := filepath.Join(root, e.Name())
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() && strings.HasSuffix(p, ".md") {
				raw, _ := os.ReadFile(p)
				rel, _ := filepath.Rel(dir, p)
				files[filepath.ToSlash(rel)] = string(raw)
			}
			return nil
		})
		if len(files) < 20 || files[IndexName] == "" {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			f := newFixture(t, files)
			before := treeBytes(t, f.store)
			jb, sb := consolidationAndFourUndos(t, f, files)
			t.Logf("%d files: journal %d bytes; store %d bytes before the consolidation (%.2f×), %d after (%.2f×)",
				len(files), jb, before, float64(jb)/float64(before), sb, float64(jb)/float64(sb))
			// Measured against the store after the sequence, however much
			// the consolidation cut: the journal still holds the store as
			// it was before (Warrenpoobear's 78 KB index cut to 2 KB), in
			// compressed groups, beside manifests stored as deltas.
			if float64(jb) > 1.5*float64(sb) {
				t.Errorf("journal %d bytes is %.2f× the store's %d after the sequence, want at most 1.5×", jb, float64(jb)/float64(sb), sb)
			}
		})
	}
}
