package store

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestLocate covers the rules Claude Code applies before and after the
// settings: the cowork override, the remote memory dir, the project dir
// name override, --settings, and what it rejects.
func TestLocate(t *testing.T) {
	noManaged(t)
	base := tmp(t)
	home := filepath.Join(base, "home")
	proj := filepath.Join(base, "proj")
	mkdir(t, proj)
	cfg := filepath.Join(home, ".claude")
	def := filepath.Join(cfg, "projects", ProjectDirName(proj), "memory")
	flagFile := filepath.Join(base, "flag.json")
	write(t, flagFile, `{"autoMemoryDirectory": "/srv/flag-mem"}`)
	write(t, filepath.Join(cfg, "settings.json"), `{"autoMemoryDirectory": "~/user-mem"}`)

	cases := []struct {
		name     string
		env      map[string]string
		opts     Options
		dir      string
		rule     string
		rejected string
	}{
		{"user setting", nil, Options{}, filepath.Join(home, "user-mem"), RuleSetting, ""},
		{"--settings file beats user", nil, Options{FlagSettings: flagFile}, "/srv/flag-mem", RuleSetting, ""},
		{"--settings JSON", nil, Options{FlagSettings: `{"autoMemoryDirectory":"/srv/inline"}`}, "/srv/inline", RuleSetting, ""},
		{"cowork override beats settings", map[string]string{"CLAUDE_COWORK_MEMORY_PATH_OVERRIDE": "/srv/cowork/"}, Options{}, "/srv/cowork", RuleCoworkOverride, ""},
		{"cowork override: no ~ expansion, rejected", map[string]string{"CLAUDE_COWORK_MEMORY_PATH_OVERRIDE": "~/x"}, Options{}, filepath.Join(home, "user-mem"), RuleSetting, "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE"},
		{"a setting too short", nil, Options{FlagSettings: `{"autoMemoryDirectory":"/a"}`}, def, RuleDefault, "too short"},
		{"a UNC-like setting", nil, Options{FlagSettings: `{"autoMemoryDirectory":"//server/share"}`}, def, RuleDefault, "UNC"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := Locate(env(c.env), home, proj, c.opts)
			if l.Dir != filepath.FromSlash(c.dir) || l.Rule != c.rule {
				t.Errorf("Locate = %s by %s, want %s by %s", l.Dir, l.Rule, c.dir, c.rule)
			}
			if got := strings.Join(l.Rejected, "; "); (c.rejected == "") != (got == "") || !strings.Contains(got, c.rejected) {
				t.Errorf("rejected %q, want %q", got, c.rejected)
			}
			if l.Default != def || l.Describe() == "" {
				t.Errorf("default %s, describe %q", l.Default, l.Describe())
			}
		})
	}

	// The default store's base and name.
	other := filepath.Join(base, "cfg2")
	l := Locate(env(map[string]string{"CLAUDE_CONFIG_DIR": other, "CLAUDE_CODE_PROJECT_DIR_NAME": "my_proj"}), home, proj, Options{})
	if want := filepath.Join(other, "projects", "my_proj", "memory"); l.Dir != want {
		t.Errorf("project dir name: %s, want %s", l.Dir, want)
	}
	l = Locate(env(map[string]string{"CLAUDE_CONFIG_DIR": other, "CLAUDE_CODE_PROJECT_DIR_NAME": "nul"}), home, proj, Options{})
	if want := filepath.Join(other, "projects", ProjectDirName(proj), "memory"); l.Dir != want {
		t.Errorf("reserved project dir name: %s, want %s", l.Dir, want)
	}
	l = Locate(env(map[string]string{"CLAUDE_CODE_PROJECT_DIR_NAME": "my_proj"}), home, proj, Options{})
	if l.Rule != RuleSetting {
		t.Errorf("without CLAUDE_CONFIG_DIR the user setting still wins: %+v", l)
	}
	remote := filepath.Join(base, "remote")
	l = Locate(env(map[string]string{"CLAUDE_CONFIG_DIR": other, "CLAUDE_CODE_REMOTE_MEMORY_DIR": remote, "CLAUDE_CODE_PROJECT_DIR_NAME": "my_proj"}), home, proj, Options{})
	if want := filepath.Join(remote, "projects", ProjectDirName(proj), "memory"); l.Dir != want {
		t.Errorf("remote memory dir ignores the name override: %s, want %s", l.Dir, want)
	}
}

// TestRelatedStores: a project whose memory is split — entries in the
// store a worktree had on its own, and in the default store after the
// user set autoMemoryDirectory — is reported store by store, the loaded
// one first.
func TestRelatedStores(t *testing.T) {
	noManaged(t)
	base := tmp(t)
	home := filepath.Join(base, "home")
	cfg := filepath.Join(home, ".claude")
	main := filepath.Join(base, "repo")
	wt := filepath.Join(base, "wt")
	gd := filepath.Join(main, ".git", "worktrees", "wt")
	mkdir(t, gd)
	write(t, filepath.Join(gd, "commondir"), "../..\n")
	write(t, filepath.Join(gd, "gitdir"), filepath.Join(wt, ".git")+"\n")
	write(t, filepath.Join(wt, ".git"), "gitdir: "+gd+"\n")
	write(t, filepath.Join(cfg, "settings.json"), `{"autoMemoryDirectory": "~/mem"}`)
	write(t, filepath.Join(home, "mem", "MEMORY.md"), "- [a](a.md)\n")
	write(t, filepath.Join(home, "mem", "a.md"), "a\n")
	write(t, filepath.Join(cfg, "projects", ProjectDirName(main), "memory", "old.md"), "old\n")
	write(t, filepath.Join(cfg, "projects", ProjectDirName(wt), "memory", "wt1.md"), "1\n")
	write(t, filepath.Join(cfg, "projects", ProjectDirName(wt), "memory", "wt2.md"), "2\n")

	loc, rel := RelatedStores(env(nil), home, wt, Options{})
	if loc.Rule != RuleSetting || len(rel) != 3 {
		t.Fatalf("rule %s, related %+v", loc.Rule, rel)
	}
	if !rel[0].Loaded || rel[0].Entries != 1 || !rel[0].Index {
		t.Errorf("loaded store: %+v", rel[0])
	}
	if rel[1].Loaded || rel[1].Entries != 1 || !strings.Contains(rel[1].Why, "default store of "+main) {
		t.Errorf("default store: %+v", rel[1])
	}
	if rel[2].Entries != 2 || !strings.Contains(rel[2].Why, "worktree") && !strings.Contains(rel[2].Why, wt) {
		t.Errorf("worktree store: %+v", rel[2])
	}
}

// TestLocateLookup: with a LookupEnv, a variable set to "" is told from one
// not set, as Claude Code tells them; without one, "" counts as unset.
func TestLocateLookup(t *testing.T) {
	noManaged(t)
	base := tmp(t)
	home := filepath.Join(base, "home")
	proj := filepath.Join(base, "proj")
	mkdir(t, proj)
	lookup := func(m map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
	}
	name := ProjectDirName(proj)

	// CLAUDE_CONFIG_DIR="": paths under it are relative, so in cwd.
	m := map[string]string{"CLAUDE_CONFIG_DIR": ""}
	l := Locate(env(m), home, proj, Options{LookupEnv: lookup(m)})
	if want := filepath.Join(proj, "projects", name, "memory"); l.Dir != want {
		t.Errorf("config dir set but empty: %s, want %s", l.Dir, want)
	}
	if l = Locate(env(m), home, proj, Options{}); l.Dir != filepath.Join(home, ".claude", "projects", name, "memory") {
		t.Errorf("without LookupEnv, empty is unset: %s", l.Dir)
	}
	// ... and its settings.json is read from there too.
	write(t, filepath.Join(proj, "settings.json"), `{"autoMemoryDirectory": "/srv/from-cwd"}`)
	if l = Locate(env(m), home, proj, Options{LookupEnv: lookup(m)}); l.Dir != "/srv/from-cwd" {
		t.Errorf("user settings of an empty config dir: %s", l.Dir)
	}

	// The index text from the environment: set, set but empty, unset.
	for _, c := range []struct {
		m    map[string]string
		want *string
	}{
		{map[string]string{IndexContentVar: "# Memory\n"}, ptr("# Memory\n")},
		{map[string]string{IndexContentVar: ""}, ptr("")},
		{map[string]string{}, nil},
	} {
		l := Locate(env(c.m), home, proj, Options{LookupEnv: lookup(c.m)})
		switch {
		case c.want == nil && (l.IndexContent != nil || l.IndexFrom != ""):
			t.Errorf("%v: index content %q from %q, want none", c.m, *l.IndexContent, l.IndexFrom)
		case c.want != nil && (l.IndexContent == nil || *l.IndexContent != *c.want || l.IndexFrom != IndexContentVar):
			t.Errorf("%v: index content %v from %q, want %q", c.m, l.IndexContent, l.IndexFrom, *c.want)
		}
	}

	// Store paths are named in NFC form.
	f := filepath.Join(base, "flag.json")
	write(t, f, `{"autoMemoryDirectory": "/srv/cafe\u0301"}`)
	if l = Locate(env(nil), home, proj, Options{FlagSettings: f}); l.Dir != "/srv/caf\u00e9" {
		t.Errorf("NFC: %q", l.Dir)
	}
}

func ptr(s string) *string { return &s }

// The patterns plainName, reservedName and bareDrive replaced: their
// oracle.
var (
	plainNameOracle    = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	reservedNameOracle = regexp.MustCompile(`(?i)^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])$`)
	bareDriveOracle    = regexp.MustCompile(`^[A-Za-z]:$`)
)

var nameSeeds = []string{"", "a", "my_proj", "my-proj.x", strings.Repeat("a", 64), strings.Repeat("a", 65), "nul", "NUL", "Com7", "lpt0", "com", "comx", "auxx",
	"con ", "c:", "C:", "1:", "ab", "é", "prn\u212a", "lpt\u0661", "coM9"}

func checkNames(t *testing.T, n string) {
	t.Helper()
	if got, want := plainName(n), plainNameOracle.MatchString(n); got != want {
		t.Errorf("plainName(%q) = %v, the pattern says %v", n, got, want)
	}
	if got, want := reservedName(n), reservedNameOracle.MatchString(n); got != want {
		t.Errorf("reservedName(%q) = %v, the pattern says %v", n, got, want)
	}
	if got, want := bareDrive(n), bareDriveOracle.MatchString(n); got != want {
		t.Errorf("bareDrive(%q) = %v, the pattern says %v", n, got, want)
	}
}

func TestNameChecks(t *testing.T) {
	for _, n := range nameSeeds {
		checkNames(t, n)
	}
}

func FuzzNameChecks(f *testing.F) {
	for _, n := range nameSeeds {
		f.Add(n)
	}
	f.Fuzz(checkNames)
}
