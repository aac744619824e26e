package reference

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/testshared"

	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/policy"
	"github.com/memcompact/memcompact/internal/textfile"
)

var headingRE = regexp.MustCompile(`^##[\t\n\v\f\r \x{85}\p{Z}]`)

// TestEmbeddedWellFormed pins every property the check demands of a
// reference copy (check contract §5, §10) on the embedded one, so an edit
// that would make every check refuse fails here first.
func TestEmbeddedWellFormed(t *testing.T) {
	lines := textfile.Lines(string(Embedded()))
	for _, m := range []struct{ begin, end string }{{PolicyBegin, PolicyEnd}, {StanzaBegin, StanzaEnd}} {
		r := policy.ReadRegion(lines, m.begin, m.end)
		if !r.HasContent() || r.Duplicated() {
			t.Fatalf("%s: region missing, empty or duplicated: %+v", m.begin, r)
		}
		for i, l := range r.Block {
			if headingRE.MatchString(l) {
				t.Errorf("%s: line %d is a ## heading: %q", m.begin, r.BlockStart+i+1, l)
			}
		}
	}
	pol := policy.ReadRegion(lines, PolicyBegin, PolicyEnd)
	probes := 0
	for _, l := range pol.Block {
		if len([]rune(index.TrimSpace(l))) >= 30 {
			probes++
		}
	}
	if probes < 20 {
		t.Errorf("only %d probe lines (>= 30 chars) in the policy block", probes)
	}
	kinds := map[string]bool{}
	for _, m := range regexp.MustCompile("`([A-Za-z][A-Za-z0-9-]*_)`").FindAllStringSubmatch(strings.Join(pol.Block, "\n"), -1) {
		kinds[m[1]] = true
	}
	var got []string
	for k := range kinds {
		got = append(got, k)
	}
	sort.Strings(got)
	if strings.Join(got, ",") != "feedback_,project_,reference_,user_" {
		t.Errorf("kind prefixes named by the policy = %v, want feedback_, project_, reference_, user_", got)
	}
	text := string(Embedded())
	for _, want := range []string{
		"\n## Adapting this to your store (not part of the compared text)\n",
		"\n## Adopting the split shape\n",
		"`memcompact check`",
		"<!-- memory-policy-stanza-begin: POLICY.md -->",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("reference lacks %q", want)
		}
	}
	// No line outside the two real pairs may be a marker of a compared
	// region: the check counts them, and a second one makes it refuse.
	for _, m := range []string{PolicyBegin, PolicyEnd, StanzaBegin, StanzaEnd} {
		n := 0
		for _, l := range lines {
			if policy.IsMarker(l, m) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s appears as a line %d times, want 1", m, n)
		}
	}
}

// TestOwnWords guards the rule that the embedded reference states the same
// rules as agent-orchestra's SKILL.md without reusing its sentences: no run
// of eight words in a compared region of ours appears in theirs.
func TestOwnWords(t *testing.T) {
	skill := filepath.Join("reference", "agent-orchestra", "SKILL.md")
	theirs, err := os.ReadFile(filepath.Join(testshared.Dir(t, skill), skill))
	if err != nil {
		t.Fatal(err)
	}
	const n = 8
	seen := map[string]bool{}
	for _, s := range shingles(string(theirs), n) {
		seen[s] = true
	}
	lines := textfile.Lines(string(Embedded()))
	var ours []string
	for _, m := range []struct{ begin, end string }{{PolicyBegin, PolicyEnd}, {StanzaBegin, StanzaEnd}} {
		r := policy.ReadRegion(lines, m.begin, m.end)
		ours = append(ours, r.Block...)
	}
	bad := 0
	for _, s := range shingles(strings.Join(ours, "\n"), n) {
		if seen[s] {
			bad++
			if bad <= 100 {
				t.Errorf("shares %d words with the agent-orchestra text: %q", n, s)
			}
		}
	}
}

func shingles(text string, n int) []string {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '\'')
	})
	var out []string
	for i := 0; i+n <= len(words); i++ {
		out = append(out, strings.Join(words[i:i+n], " "))
	}
	return out
}

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func mkSkill(t *testing.T, base, ver string, mtime time.Time) string {
	t.Helper()
	p := filepath.Join(base, "plugins", "cache", "agent-orchestra", "agent-orchestra", ver, filepath.FromSlash(PluginSubpath))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("skill "+ver), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestResolve(t *testing.T) {
	old := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	recent := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	t.Run("flag wins", func(t *testing.T) {
		home := t.TempDir()
		mkSkill(t, filepath.Join(home, ".claude"), "1.0.0", old)
		s := Resolve("my-ref.md", env(map[string]string{"MEMCOMPACT_REFERENCE": "env.md"}), home)
		if s.Origin != OriginFlag || s.Path != "my-ref.md" || s.Display != "my-ref.md" {
			t.Errorf("got %+v", s)
		}
	})
	t.Run("env before plugin", func(t *testing.T) {
		home := t.TempDir()
		mkSkill(t, filepath.Join(home, ".claude"), "1.0.0", old)
		s := Resolve("", env(map[string]string{"MEMCOMPACT_REFERENCE": "env.md"}), home)
		if s.Origin != OriginEnv || s.Path != "env.md" {
			t.Errorf("got %+v", s)
		}
	})
	t.Run("builtin when nothing installed", func(t *testing.T) {
		s := Resolve("  ", env(nil), t.TempDir())
		if s.Origin != OriginBuiltin || s.Path != "" || s.Display != BuiltinDisplay || s.Text != EmbeddedText() {
			t.Errorf("got %+v", s)
		}
		b, err := s.Read()
		if err != nil || string(b) != string(Embedded()) {
			t.Errorf("Read = %d bytes, %v", len(b), err)
		}
	})
	cases := []struct {
		name string
		vers map[string]time.Time
		want string
	}{
		{"numeric not lexical", map[string]time.Time{"1.9.0": recent, "1.10.0": old}, "1.10.0"},
		{"v prefix", map[string]time.Time{"v2.0.0": old, "1.99.0": recent}, "v2.0.0"},
		{"release above prerelease", map[string]time.Time{"2.0.0-rc.2": recent, "2.0.0": old}, "2.0.0"},
		{"prerelease order", map[string]time.Time{"2.0.0-rc.2": old, "2.0.0-rc.10": old}, "2.0.0-rc.10"},
		{"shorter equals zero-padded, then mtime", map[string]time.Time{"1.2": old, "1.2.0": recent}, "1.2.0"},
		{"versions beat hashes", map[string]time.Time{"0.0.1": old, "a1b2c3d": recent}, "0.0.1"},
		{"hashes by mtime", map[string]time.Time{"a1b2c3d": old, "ffee001": recent}, "ffee001"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			var want string
			for v, m := range c.vers {
				p := mkSkill(t, filepath.Join(home, ".claude"), v, m)
				if v == c.want {
					want = p
				}
			}
			s := Resolve("", env(nil), home)
			if s.Origin != OriginPlugin || s.Path != want || s.Display != want {
				t.Errorf("got %+v, want %s", s, want)
			}
		})
	}
	t.Run("version dir without SKILL.md is skipped", func(t *testing.T) {
		home := t.TempDir()
		want := mkSkill(t, filepath.Join(home, ".claude"), "1.0.0", old)
		if err := os.MkdirAll(filepath.Join(home, ".claude", "plugins", "cache", "agent-orchestra", "agent-orchestra", "9.0.0"), 0o755); err != nil {
			t.Fatal(err)
		}
		if s := Resolve("", env(nil), home); s.Path != want {
			t.Errorf("got %+v, want %s", s, want)
		}
	})
	t.Run("CLAUDE_CONFIG_DIR first, then ~/.claude", func(t *testing.T) {
		home := t.TempDir()
		cfg := filepath.Join(home, "cfg")
		inHome := mkSkill(t, filepath.Join(home, ".claude"), "5.0.0", old)
		inCfg := mkSkill(t, cfg, "1.0.0", old)
		if s := Resolve("", env(map[string]string{"CLAUDE_CONFIG_DIR": cfg}), home); s.Path != inCfg {
			t.Errorf("got %+v, want %s", s, inCfg)
		}
		if s := Resolve("", env(map[string]string{"CLAUDE_CONFIG_DIR": filepath.Join(home, "empty")}), home); s.Path != inHome {
			t.Errorf("got %+v, want %s", s, inHome)
		}
	})
}

// TestEmbeddedIsDecoded: the embedded copy is valid UTF-8 without a
// byte-order mark, so EmbeddedText is already the text a read of the file
// would decode to, and a check compares against it without decoding it.
func TestEmbeddedIsDecoded(t *testing.T) {
	if text, bom := textfile.DecodeString(EmbeddedText()); bom || text != EmbeddedText() {
		t.Error("the embedded reference is not valid UTF-8, or starts with a byte-order mark")
	}
}

func TestEmbeddedIsACopy(t *testing.T) {
	a := Embedded()
	a[0] ^= 0xff
	if Embedded()[0] == a[0] {
		t.Error("Embedded returned the shared slice")
	}
}
