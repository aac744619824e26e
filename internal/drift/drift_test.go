package drift

import (
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/testshared"
	"github.com/memcompact/memcompact/internal/textfile"
)

// writeStore lays out files (name → content; a name ending in "/" is a
// directory) in a fresh directory and returns it.
func writeStore(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestCompute(t *testing.T) {
	tests := []struct {
		name     string
		files    map[string]string
		orphans  []string
		dangling []string // "line:target"
	}{
		{
			name:  "clean",
			files: map[string]string{"MEMORY.md": "- [a](a.md) — hook\n", "a.md": "a"},
		},
		{
			name:     "orphan and dangling",
			files:    map[string]string{"MEMORY.md": "# M\n- [a](a.md) — hook\n- [b](b.md) — hook\n", "a.md": "a", "c.md": "c"},
			orphans:  []string{"c.md"},
			dangling: []string{"3:b.md"},
		},
		{
			name: "store files are not entries, in any case",
			files: map[string]string{"MEMORY.md": "- [a](a.md) — h\n", "a.md": "",
				"ledger.md": "", "Slate.md": "", "ARCHIVE.md": "", "policy.MD": ""},
		},
		{
			name: "the policy file the stanza names is not an entry",
			files: map[string]string{
				"MEMORY.md":      "<!-- memory-policy-stanza-begin: house-rules.md -->\nrules\n<!-- memory-policy-stanza-end -->\n\n## Notes\n- [a](a.md) — h\n",
				"a.md":           "",
				"house-rules.md": "policy",
			},
		},
		{
			name:    "hidden files, sub-folders and other extensions are not entries",
			files:   map[string]string{"MEMORY.md": "", ".draft.md": "", "sub/x.md": "", "notes.txt": "", "UPPER.MD": ""},
			orphans: []string{"UPPER.MD"},
		},
		{
			name:  "names match without regard to case; links anywhere count",
			files: map[string]string{"MEMORY.md": "- [A](A.md) — h\n| [t](t.md) |\nSee [p](dir/p.md).\n", "a.md": "", "t.md": "", "p.md": ""},
			// A.md does not exist on a case-sensitive file system; a.md
			// is not an orphan either way.
			dangling: danglingIfCaseSensitive("1:A.md"),
		},
		{
			name:     "targets: anchors, escapes, URLs, directories",
			files:    map[string]string{"MEMORY.md": "- [a](a.md#part) — h\n- [s](my%20note.md) — h\n- [w](https://x.test/y.md) — h\n- [d](d.md) — h\n- [<n>](<n.md>) — h\n", "a.md": "", "my note.md": "", "d.md/": "", "n.md": ""},
			dangling: []string{"4:d.md"},
		},
		{
			name:  "CRLF and a BOM",
			files: map[string]string{"MEMORY.md": "\ufeff- [a](a.md) — h\r\n- [b](b.md) — h\r\n", "a.md": "", "b.md": ""},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeStore(t, tc.files)
			res, err := Compute(dir, records.MaxDate)
			if err != nil {
				t.Fatal(err)
			}
			orphans, dangling := findings(res, false)
			if !slices.Equal(orphans, tc.orphans) {
				t.Errorf("orphans = %q, want %q", orphans, tc.orphans)
			}
			if !slices.Equal(dangling, tc.dangling) {
				t.Errorf("dangling = %q, want %q", dangling, tc.dangling)
			}
			if res.Drifted() != (len(tc.orphans)+len(tc.dangling) > 0) {
				t.Errorf("Drifted = %v", res.Drifted())
			}
		})
	}
}

func danglingIfCaseSensitive(d string) []string {
	dir, err := os.MkdirTemp("", "case")
	if err != nil {
		return nil
	}
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "a"), nil, 0o644)
	if _, err := os.Stat(filepath.Join(dir, "A")); err == nil {
		return nil
	}
	return []string{d}
}

func TestComputeErrors(t *testing.T) {
	dir := writeStore(t, map[string]string{"x.md": ""})
	if _, err := Compute(dir, records.MaxDate); !errors.Is(err, ErrNoIndex) {
		t.Errorf("store without index: err = %v, want ErrNoIndex", err)
	}
	dir = writeStore(t, map[string]string{"MEMORY.md/": ""})
	if _, err := Compute(filepath.Join(dir, "MEMORY.md"), records.MaxDate); err == nil {
		t.Errorf("index that is a directory: no error")
	}
	// An index file named otherwise is its own store's index.
	dir = writeStore(t, map[string]string{"INDEX.md": "- [a](a.md) — h\n", "a.md": "", "MEMORY.md": ""})
	res, err := Compute(filepath.Join(dir, "INDEX.md"), records.MaxDate)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Orphans) != 1 || res.Orphans[0].File != "MEMORY.md" {
		t.Errorf("orphans = %+v, want MEMORY.md (not this index)", res.Orphans)
	}
}

// TestExitInForce checks that only an exit in force excuses an orphan.
func TestExitInForce(t *testing.T) {
	entry := func(admitted string) string {
		return "---\nmetadata:\n  node_type: memory\n  admitted: " + admitted + "\n---\nbody\n"
	}
	ledger := "# Ledger\n\n<!-- memory-ledger-begin -->\n" +
		"2026-02-01 | executed | demote | gone@2026-01-05 | archived | ARCHIVE.md\n" +
		"2026-02-01 | proposed | remove-obsolete | maybe@2026-01-05 | stale | none (accepted recall loss)\n" +
		"2026-02-01 | executed | promote | reborn@2026-01-05 | landed | guide\n"
	dir := writeStore(t, map[string]string{
		"MEMORY.md": "", "LEDGER.md": ledger,
		"gone.md": entry("2026-01-05"), "maybe.md": entry("2026-01-05"),
		"reborn.md": entry("2026-03-01"), // a later life of the name: its exit is not this life's
	})
	res, err := Compute(dir, records.MaxDate)
	if err != nil {
		t.Fatal(err)
	}
	var orphans, exited []string
	for _, o := range res.Orphans {
		orphans = append(orphans, o.Identity)
	}
	for _, o := range res.Exited {
		exited = append(exited, o.Identity+" "+o.Exit)
	}
	if want := []string{"maybe@2026-01-05", "reborn@2026-03-01"}; !slices.Equal(orphans, want) {
		t.Errorf("orphans = %q, want %q", orphans, want)
	}
	if want := []string{"gone@2026-01-05 demote"}; !slices.Equal(exited, want) {
		t.Errorf("exited = %q, want %q", exited, want)
	}
}

// FuzzCompute feeds arbitrary index text to Compute over a small store: it
// must never fail on a readable index, and every finding must be in range.
func FuzzCompute(f *testing.F) {
	for _, s := range []string{"", "- [a](a.md) — h\n", "- [x](missing.md)\n- [y](<a b.md>)", "* [a](%zz.md)\r\n", "1. [a](/abs/x.md) [b](a.md#c)", "\xff- [\x00](\x00.md)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "MEMORY.md"), []byte(text), 0o644)
		os.WriteFile(filepath.Join(dir, "a.md"), []byte("a"), 0o644)
		res, err := Compute(dir, records.MaxDate)
		if err != nil {
			t.Fatalf("Compute: %v", err)
		}
		lines := strings.Count(text, "\n") + strings.Count(text, "\r") + 1
		for _, d := range res.Dangling {
			if d.Line < 1 || d.Line > lines {
				t.Fatalf("dangling line %d out of range", d.Line)
			}
		}
		if len(res.Orphans) > 1 {
			t.Fatalf("orphans %+v: only a.md can be one", res.Orphans)
		}
	})
}

// TestComputeSymlinks: the listing's types spare a stat per regular file;
// symbolic links are still followed, as a reader follows them.
func TestComputeSymlinks(t *testing.T) {
	dir := writeStore(t, map[string]string{
		"MEMORY.md": "- [a](a.md) — h\n- [l](l.md) — h\n- [gone](gone.md) — h\n- [d](d.md) — h\n",
		"a.md":      "", "real/l.md": "", "real/o.md": "", "dir/": "",
	})
	for link, target := range map[string]string{
		"l.md":    filepath.Join(dir, "real", "l.md"), // a pointer's target through a link
		"o.md":    filepath.Join(dir, "real", "o.md"), // an orphan through a link
		"gone.md": filepath.Join(dir, "missing.md"),   // a link to nothing
		"d.md":    filepath.Join(dir, "dir"),          // a link to a directory
		"x.md":    filepath.Join(dir, "nothing.md"),   // an unnamed link to nothing: no entry
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	res, err := Compute(dir, records.MaxDate)
	if err != nil {
		t.Fatal(err)
	}
	orphans, dangling := findings(res, true)
	if want := []string{"o.md"}; !slices.Equal(orphans, want) {
		t.Errorf("orphans = %q, want %q", orphans, want)
	}
	if want := []string{"3:gone.md (no such file)", "4:d.md (a directory, not a file)"}; !slices.Equal(dangling, want) {
		t.Errorf("dangling = %q, want %q", dangling, want)
	}
	if res.Entries != 3 { // a.md, l.md, o.md
		t.Errorf("Entries = %d, want 3", res.Entries)
	}
}

// findings are res's orphan files and its dangling pointers as
// "line:target", with " (reason)" when withReason.
func findings(res *Result, withReason bool) (orphans, dangling []string) {
	for _, o := range res.Orphans {
		orphans = append(orphans, o.File)
	}
	for _, d := range res.Dangling {
		s := strconv.Itoa(d.Line) + ":" + d.Target
		if withReason {
			s += " (" + d.Reason + ")"
		}
		dangling = append(dangling, s)
	}
	return orphans, dangling
}

// TestDanglingFromListing: a pointer to a name the store's listing lacks
// in every letter case is dangling without a stat; a name that differs
// only in case is still stat'ed (a case-insensitive file system opens it)
// and carries the hint; names outside the store are stat'ed as before.
func TestDanglingFromListing(t *testing.T) {
	dir := writeStore(t, map[string]string{
		"MEMORY.md": "- [a](a.md) — h\n- [m](missing.md) — h\n- [f](foo.md) — h\n- [s](sub/x.md) — h\n- [u](ünï.md) — h\n",
		"a.md":      "", "Foo.md": "",
	})
	res, err := Compute(dir, records.MaxDate)
	if err != nil {
		t.Fatal(err)
	}
	_, dangling := findings(res, true)
	want := []string{"2:missing.md (no such file)"}
	if danglingIfCaseSensitive("x") != nil {
		want = append(want, "3:foo.md (no such file)")
	}
	want = append(want, "4:sub/x.md (no such file)", "5:ünï.md (no such file)")
	if !slices.Equal(dangling, want) {
		t.Errorf("dangling = %q, want %q", dangling, want)
	}
	for _, d := range res.Dangling {
		if d.Target == "foo.md" && d.Hint != "a file differing only in letter case exists: Foo.md" {
			t.Errorf("foo.md: hint %q", d.Hint)
		}
	}
}

// TestDanglingMatchesStat: on every real store, a pointer is dangling
// exactly when a stat of its target finds no regular file — the listing
// decides what the stat would.
func TestDanglingMatchesStat(t *testing.T) {
	root := testshared.RealStores(t)
	des, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range des {
		if !de.IsDir() {
			continue
		}
		dir := filepath.Join(root, de.Name())
		res, err := Compute(dir, records.MaxDate)
		if err != nil {
			continue
		}
		got := map[string]bool{}
		for _, d := range res.Dangling {
			got[strconv.Itoa(d.Line)+":"+d.Target] = true
		}
		f, err := textfile.Read(filepath.Join(dir, IndexName))
		if err != nil {
			t.Fatal(err)
		}
		ix := index.Parse(textfile.Lines(f.Text))
		for i := range ix.Lines {
			ln := &ix.Lines[i]
			if !ln.Pointer {
				continue
			}
			for _, k := range ln.Subjects() {
				tgt := k.Target
				if tgt == "" || strings.Contains(tgt, "://") || strings.HasPrefix(strings.ToLower(tgt), "mailto:") {
					continue
				}
				p := tgt
				if u, err := url.PathUnescape(p); err == nil && strings.Contains(p, "%") {
					p = u
				}
				if !filepath.IsAbs(p) {
					p = filepath.Join(dir, filepath.FromSlash(p))
				}
				fi, err := os.Stat(p)
				want := err != nil || !fi.Mode().IsRegular()
				if key := strconv.Itoa(ln.Num) + ":" + tgt; got[key] != want {
					t.Errorf("%s: %s dangling = %v, a stat says %v", de.Name(), key, got[key], want)
				}
			}
		}
	}
}
