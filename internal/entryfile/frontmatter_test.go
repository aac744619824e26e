package entryfile_test

import (
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/entryfile"
	"github.com/memcompact/memcompact/internal/testshared"
)

// yamlOf is what yaml.v3 makes of block.
func yamlOf(block string) entryfile.Fields {
	return entryfile.DecodeYAML(block)
}

// agree fails t when the own decoder is sure of block and disagrees with
// yaml.v3; it reports whether it was sure.
func agree(t *testing.T, block string) bool {
	t.Helper()
	got, sure := entryfile.DecodeOwn(block)
	if want := yamlOf(block); sure && got != want {
		t.Fatalf("own decoder on %q:\n got %+v\nwant %+v (yaml.v3)", block, got, want)
	}
	return sure
}

// TestOwnDecoder: what the own decoder is sure of, and what it leaves to
// yaml.v3; when sure, its answer is yaml.v3's.
func TestOwnDecoder(t *testing.T) {
	for _, c := range []struct {
		block string
		sure  bool
		want  entryfile.Fields // checked when not zero
	}{
		{"name: a\ndescription: b\nmetadata:\n  type: user\n  pinned: true", true, entryfile.Fields{Valid: true, Name: "a", Description: "b", Type: "user", Pinned: true}},
		{"name: a\r\ndescription: b\r\nmetadata:\r\n  type: user", true, entryfile.Fields{Valid: true, Name: "a", Description: "b", Type: "user"}},
		{"", true, entryfile.Fields{Valid: true}},
		{"# only a comment\n\n   \n", true, entryfile.Fields{Valid: true}},
		{"name: a # comment", true, entryfile.Fields{Valid: true, Name: "a"}},
		{"name: C# and F#", true, entryfile.Fields{Valid: true, Name: "C# and F#"}},
		{"name: a  b   ", true, entryfile.Fields{Valid: true, Name: "a  b"}},
		{`name: "tab\there \"q\" \x41 \u00e9 \U0001F600 \\"`, true, entryfile.Fields{Valid: true, Name: "tab\there \"q\" A é 😀 \\"}},
		{`name: 'it''s # not a comment'`, true, entryfile.Fields{Valid: true, Name: "it's # not a comment"}},
		{`name: "--- inside quotes"`, true, entryfile.Fields{Valid: true, Name: "--- inside quotes"}},
		{"name: héllo 世界 😀", true, entryfile.Fields{Valid: true, Name: "héllo 世界 😀"}},
		{"name: ~\ndescription: null", true, entryfile.Fields{Valid: true}},
		{`name: "null"`, true, entryfile.Fields{Valid: true, Name: "null"}},
		{"name: 12\ndescription: 2026-01-02", true, entryfile.Fields{Valid: true, Name: "12", Description: "2026-01-02"}},
		{"name: http://example.com/a:b", true, entryfile.Fields{Valid: true, Name: "http://example.com/a:b"}},
		{"metadata:\n  pinned: yes", true, entryfile.Fields{Valid: true, Pinned: true}},
		{"metadata:\n  pinned: 'on'", true, entryfile.Fields{Valid: true, Pinned: true}},
		{"metadata:\n  pinned: False", true, entryfile.Fields{Valid: true}},
		{"metadata:\n  pinned: maybe", true, entryfile.Fields{}},
		{"metadata:\n  pinned: \"true\"", true, entryfile.Fields{}},
		{"metadata:\n  pinned: 1", true, entryfile.Fields{}},
		{"metadata:\n  pinned:", true, entryfile.Fields{Valid: true}},
		{"metadata: {}", true, entryfile.Fields{Valid: true}},
		{"metadata: []", true, entryfile.Fields{}},
		{"metadata: user", true, entryfile.Fields{}},
		{"metadata: ~", true, entryfile.Fields{Valid: true}},
		{"name: []", true, entryfile.Fields{}},
		{"name: x\nname: y", true, entryfile.Fields{}},
		{"other: 1\nother: 2\nname: x", true, entryfile.Fields{}},
		{"other:\n  a: 1\n  a: 2\nname: x", true, entryfile.Fields{Valid: true, Name: "x"}},
		{"metadata:\n  a: 1\n  a: 2", true, entryfile.Fields{}},
		{"null: 1\nNull: 2\nname: x", true, entryfile.Fields{Valid: true, Name: "x"}},
		{"name:\n  a: 1", true, entryfile.Fields{}},
		{"metadata:\n# between\n  type: x\n    # deeper\n# left\n  pinned: on", true, entryfile.Fields{Valid: true, Type: "x", Pinned: true}},
		{"metadata:\n  related:\n    - a\n    - 'b'\n  type: x\nname: n", true, entryfile.Fields{Valid: true, Name: "n", Type: "x"}},
		{"related: []\nname: n", true, entryfile.Fields{Valid: true, Name: "n"}},
		{"a:\n  b:\n    c: 1\n  d: 2\nname: n", true, entryfile.Fields{Valid: true, Name: "n"}},
		{"type: project\nname: n", true, entryfile.Fields{Valid: true, Name: "n"}},

		{"key:value", false, entryfile.Fields{}},
		{"name: a: b", false, entryfile.Fields{}},
		{"name: a:", false, entryfile.Fields{}},
		{"name: a\n  continued", false, entryfile.Fields{}},
		{"name: |\n  block", false, entryfile.Fields{}},
		{"name: >\n  folded", false, entryfile.Fields{}},
		{"name: [a, b]", false, entryfile.Fields{}},
		{"name: {a: 1}", false, entryfile.Fields{}},
		{"name: &x a", false, entryfile.Fields{}},
		{"name: *x", false, entryfile.Fields{}},
		{"name: !!str a", false, entryfile.Fields{}},
		{"name: \"open", false, entryfile.Fields{}},
		{"name: \"a\nb\"", false, entryfile.Fields{}},
		{`name: "\q"`, false, entryfile.Fields{}},
		{`name: "\ud800"`, false, entryfile.Fields{}},
		{`name: "a"#c`, false, entryfile.Fields{}},
		{`name: "a" b`, false, entryfile.Fields{}},
		{"name:\ta", false, entryfile.Fields{}},
		{"name: a\rdescription: b", false, entryfile.Fields{}},
		{"  name: a", false, entryfile.Fields{}},
		{"metadata:\n  type: a\n pinned: true", false, entryfile.Fields{}},
		{"metadata:\n  type: a\n    pinned: true", false, entryfile.Fields{}},
		{"tags:\n- a", false, entryfile.Fields{}},
		{"tags:\n  - a: 1", false, entryfile.Fields{}},
		{"name:\n  a", false, entryfile.Fields{}},
		{"\"name\": a", false, entryfile.Fields{}},
		{"last updated: x", false, entryfile.Fields{}},
		{"? name\n: a", false, entryfile.Fields{}},
		{"--- x", false, entryfile.Fields{}},
		{"name: a\u0085b", false, entryfile.Fields{}},
		{"name: a\x00", false, entryfile.Fields{}},
		{"name: \xff", false, entryfile.Fields{}},
		{"\ufeffname: a", false, entryfile.Fields{}},
		{"name: -a", false, entryfile.Fields{}},
		{"name: @a", false, entryfile.Fields{}},
	} {
		got, sure := entryfile.DecodeOwn(c.block)
		if sure != c.sure {
			t.Errorf("own decoder on %q: sure %v, want %v", c.block, sure, c.sure)
		}
		want := yamlOf(c.block)
		if c.sure && c.want != (entryfile.Fields{}) && c.want != want {
			t.Errorf("the table's answer for %q is not yaml.v3's: %+v, yaml.v3 %+v", c.block, c.want, want)
		}
		if sure && got != want {
			t.Errorf("own decoder on %q:\n got %+v\nwant %+v (yaml.v3)", c.block, got, want)
		}
	}
}

// edgeSeeds are hand-written blocks at the subset's edges.
var edgeSeeds = []string{
	"name: a\ndescription: b\nmetadata:\n  type: feedback\n  pinned: true",
	"name: a\r\ndescription: b # c\r\nmetadata:\r\n  pinned: yes\r\n",
	"name: 'a''b'\ndescription: \"x\\ty\\u00e9\\x41\\N\\_\\L\\P\\0\\e\\/\"",
	"name: a # c\ndescription: b#c\nmetadata: # c\n  type: x # y\n",
	"name:value\n", "name: a: b", "name: yes\nmetadata:\n  pinned: maybe",
	"name: a\nname: b", "\n\n# c\n", "", "name: 日本語 😀", "name: a   \ndescription: b  \t",
	"name: \"--- not the end\"\n---", "metadata:\n  pinned: \"yes\"\n  type: 'null'",
	"metadata:\n  related:\n    - a\n    - \"b\" # c\n  type: t", "related: []\nother: {}",
	"name: a\n  b", "name: >\n  b", "name: [a]", "name: &a x\ndescription: *a", "name: !!binary aGk=",
	"metadata:\n  type: a\n pinned: true", "  name: a\n  description: b", "name: ~\nmetadata: null",
	"null: 1\nnull: 2", "1: a\n01: b", "name: \"a\nb\"", "name: 'a\n  b'", "- a\n- b", "a",
}

// FuzzFrontmatter: for any block, when the own decoder is sure, its answer
// (valid or not, and every field) is yaml.v3's. Seeded with every entry
// frontmatter of the real stores, when they are here, and edgeSeeds.
func FuzzFrontmatter(f *testing.F) {
	for _, s := range edgeSeeds {
		f.Add(s)
	}
	for _, s := range corpusBlocks(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, block string) {
		agree(t, block)
	})
}

var (
	grammarBlocks = flag.Int("grammar", 30000, "how many random blocks TestOwnDecoderGrammar tries")
	grammarSeed   = flag.Uint64("grammar.seed", 1, "the seed of TestOwnDecoderGrammar's blocks")
)

// TestOwnDecoderGrammar runs the differential test on blocks put together
// at random from lines near the subset's edges, which byte mutation
// reaches only slowly.
func TestOwnDecoderGrammar(t *testing.T) {
	n := *grammarBlocks
	if testing.Short() {
		n /= 10
	}
	r := rand.New(rand.NewPCG(*grammarSeed, 2))
	sure := 0
	for range n {
		if agree(t, randomBlock(r)) {
			sure++
		}
	}
	t.Logf("%d of %d random blocks decoded by the own decoder", sure, n)
}

// The pieces randomBlock draws from: mostly the subset's, now and then
// one just outside it.
var (
	goodKeys   = []string{"name", "description", "metadata", "type", "pinned", "other", "null", "Name", "a-b", "1", "x.y"}
	badKeys    = []string{"", "\"name\"", "-", "?", "last updated", "name :"}
	goodValues = []string{"", " ", " x", " x # c", " x#c", " 'a''b'", ` "a\tb"`, ` "\u00e9\x41"`, " yes", " no", " On", " true", " \"true\"", " 'no'",
		" maybe", " ~", " null", " NULL", " []", " {}", " [] # c", " a:b", " #c", " 12", " 1.5", " 2001-01-01", " http://x.y", " C# z", ` "a" # c`, " é 😀", " ---", " ...", "   x  "}
	badValues = []string{":b", " a: b", " a:", " -x", " - x", " |", " >", " &a x", " *a", " !!str x", " [a]", " {a: 1}", " 'x", " \"x", ` "\q"`,
		` "a" b`, ` "a"#c`, " \t", " @x", " `x`", " %x", " ? x", " \"\\"}
	badIndents = []string{" ", "   ", "\t", "      "}
	otherLines = []string{"# comment", "  # comment", "", "   ", "- item", "- 'item' # c", "- \"a\"", "---", "...", "-", "- a: b", "plain text", "%YAML 1.2", "? key"}
)

// randomBlock is a block of up to eight random lines, indented mostly as
// the subset nests: deeper under a key without a value, else as deep as
// the line before or back to the margin.
func randomBlock(r *rand.Rand) string {
	pick := func(good, bad []string) string {
		if r.IntN(12) == 0 {
			return bad[r.IntN(len(bad))]
		}
		return good[r.IntN(len(good))]
	}
	eol := "\n"
	if r.IntN(8) == 0 {
		eol = "\r\n"
	}
	var b strings.Builder
	depth, open := 0, false
	for i := range 1 + r.IntN(8) {
		if i > 0 {
			b.WriteString(eol)
		}
		switch {
		case open && r.IntN(3) > 0:
			depth++
		case depth > 0 && r.IntN(3) == 0:
			depth = 0
		}
		indent := strings.Repeat("  ", depth)
		if r.IntN(12) == 0 {
			indent = badIndents[r.IntN(len(badIndents))]
		}
		if r.IntN(6) == 0 {
			b.WriteString(indent + otherLines[r.IntN(len(otherLines))])
			open = false
			continue
		}
		value := pick(goodValues, badValues)
		b.WriteString(indent + pick(goodKeys, badKeys) + ":" + value)
		open = strings.TrimSpace(value) == "" || strings.HasPrefix(strings.TrimSpace(value), "#")
	}
	return b.String()
}

// corpusBlocks is every entry frontmatter block of the real stores, none
// when the corpus is absent (the edge seeds still run).
func corpusBlocks(tb testing.TB) []string {
	probe := &absentOK{TB: tb}
	root := testshared.RealStores(probe)
	if probe.absent {
		return nil
	}
	var out []string
	for _, p := range entryFiles(tb, root) {
		b, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		if block, ok := entryfile.FrontmatterBlock(string(b)); ok {
			out = append(out, block)
		}
	}
	return out
}

// absentOK is a testing.TB whose skip only notes that the shared data is
// absent, so that a fuzz test's own seeds run without it.
type absentOK struct {
	testing.TB
	absent bool
}

func (a *absentOK) Helper()              {}
func (a *absentOK) Skipf(string, ...any) { a.absent = true }

// entryFiles is every entry file of every store under root (as Read
// finds them: each store's .md files but MEMORY.md, and its team/'s).
func entryFiles(tb testing.TB, root string) []string {
	stores, err := filepath.Glob(filepath.Join(root, "*", "MEMORY.md"))
	if err != nil || len(stores) == 0 {
		tb.Fatalf("no stores under %s: %v", root, err)
	}
	var out []string
	for _, idx := range stores {
		for _, e := range entryfile.Read(filepath.Dir(idx)) {
			out = append(out, filepath.Join(filepath.Dir(idx), filepath.FromSlash(e.Path)))
		}
	}
	return out
}

// TestCorpus: every entry of every real store reads the same with the own
// decoder (and yaml.v3 for what it is unsure of) as with yaml.v3 alone.
func TestCorpus(t *testing.T) {
	root := testshared.RealStores(t)
	stores, err := filepath.Glob(filepath.Join(root, "*", "MEMORY.md"))
	if err != nil || len(stores) == 0 {
		t.Fatalf("no stores under %s: %v", root, err)
	}
	entries := 0
	for _, idx := range stores {
		dir := filepath.Dir(idx)
		got := entryfile.Read(dir)
		restore := entryfile.WithoutOwn()
		want := entryfile.Read(dir)
		restore()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the own decoder reads\n%+v\nyaml.v3 alone reads\n%+v", dir, got, want)
		}
		entries += len(got)
	}
	unsure := 0
	blocks := corpusBlocks(t)
	for _, b := range blocks {
		if _, sure := entryfile.DecodeOwn(b); !sure {
			unsure++
		}
	}
	t.Logf("%d stores, %d entries, %d with a frontmatter: %d left to yaml.v3", len(stores), entries, len(blocks), unsure)
}

// BenchmarkDecode weighs the own decoder against yaml.v3 on every entry
// frontmatter of the real stores: the measurement that keeps the own
// decoder (a session start on a store never seen decodes every entry).
func BenchmarkDecode(b *testing.B) {
	blocks := corpusBlocks(b)
	if len(blocks) == 0 {
		b.Skip("no corpus")
	}
	for _, c := range []struct {
		name   string
		decode func(string)
	}{
		{"own", func(s string) {
			if _, sure := entryfile.DecodeOwn(s); !sure {
				entryfile.DecodeYAML(s)
			}
		}},
		{"yaml.v3", func(s string) { entryfile.DecodeYAML(s) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				for _, s := range blocks {
					c.decode(s)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(blocks)), "ns/block")
		})
	}
}
