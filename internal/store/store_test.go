package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mkdir(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(path, 0o755); err != nil {
		t.Fatal(err)
	}
}

// noManaged keeps the machine's own managed settings out of a test.
func noManaged(t *testing.T, files ...string) {
	old := managedSettings
	managedSettings = func() []string { return files }
	t.Cleanup(func() { managedSettings = old })
}

// tmp returns a temporary directory with symlinks resolved, as discovery
// reports paths (macOS's /var is a symlink to /private/var).
func tmp(t *testing.T) string {
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestProjectDirName(t *testing.T) {
	cases := []struct{ in, want string }{
		{"/home/al/proj", "-home-al-proj"},
		{"/home/al/my.repo_v2", "-home-al-my-repo-v2"},
		{"/srv/a b/c-d", "-srv-a-b-c-d"},
		{`C:\Users\al\proj`, "C--Users-al-proj"},
		{"/home/zoë/projé", "-home-zo--proj-"},    // BMP letters outside ASCII: one dash each
		{"/home/al/🚀launch", "-home-al---launch"}, // non-BMP: two UTF-16 units, two dashes
		{"/x/\xff", "-x--"},                       // invalid UTF-8 decodes to U+FFFD: one dash
	}
	for _, c := range cases {
		if got := ProjectDirName(c.in); got != c.want {
			t.Errorf("ProjectDirName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestConfigDir(t *testing.T) {
	cases := []struct {
		env  map[string]string
		want string
	}{
		{nil, "/h/.claude"},
		{map[string]string{"CLAUDE_CONFIG_DIR": ""}, "/h/.claude"},
		// Used exactly as given: no trimming, no "~".
		{map[string]string{"CLAUDE_CONFIG_DIR": "/opt/cc/"}, "/opt/cc/"},
		{map[string]string{"CLAUDE_CONFIG_DIR": "~/cc"}, "~/cc"},
		{map[string]string{"CLAUDE_CONFIG_DIR": " /opt/cc"}, " /opt/cc"},
	}
	for _, c := range cases {
		if got := ConfigDir(env(c.env), "/h"); got != filepath.FromSlash(c.want) {
			t.Errorf("ConfigDir(%v) = %q, want %q", c.env, got, c.want)
		}
	}
}

func TestProjectRoot(t *testing.T) {
	base := tmp(t)
	main := filepath.Join(base, "repo")
	mkdir(t, filepath.Join(main, ".git", "worktrees", "feature"))
	mkdir(t, filepath.Join(main, "src", "deep"))
	// A linked worktree, as git worktree add makes it: a .git file naming
	// the per-worktree git dir, whose commondir names the shared one.
	wt := filepath.Join(base, "wt-feature")
	write(t, filepath.Join(wt, ".git"), "gitdir: "+filepath.Join(main, ".git", "worktrees", "feature")+"\n")
	write(t, filepath.Join(main, ".git", "worktrees", "feature", "commondir"), "../..\n")
	write(t, filepath.Join(main, ".git", "worktrees", "feature", "gitdir"), filepath.Join(wt, ".git")+"\n")
	mkdir(t, filepath.Join(wt, "pkg"))
	// A copy of that worktree: its .git file still names the feature git
	// dir, whose back-pointer names the original, so it is its own project.
	copied := filepath.Join(base, "wt-copy")
	write(t, filepath.Join(copied, ".git"), "gitdir: "+filepath.Join(main, ".git", "worktrees", "feature")+"\n")
	// A worktree whose git dir has no back-pointer.
	nob := filepath.Join(base, "wt-noback")
	mkdir(t, filepath.Join(main, ".git", "worktrees", "noback"))
	write(t, filepath.Join(main, ".git", "worktrees", "noback", "commondir"), "../..\n")
	write(t, filepath.Join(nob, ".git"), "gitdir: "+filepath.Join(main, ".git", "worktrees", "noback")+"\n")
	// A worktree whose gitdir is written relative to it.
	wt2 := filepath.Join(base, "nested", "wt2")
	mkdir(t, filepath.Join(main, ".git", "worktrees", "wt2"))
	write(t, filepath.Join(wt2, ".git"), "gitdir: ../../repo/.git/worktrees/wt2\r\n")
	write(t, filepath.Join(main, ".git", "worktrees", "wt2", "commondir"), "../..")
	write(t, filepath.Join(main, ".git", "worktrees", "wt2", "gitdir"), "../../../../nested/wt2/.git\n")
	// A submodule: .git file, git dir without commondir.
	sub := filepath.Join(main, "vendor", "lib")
	mkdir(t, filepath.Join(main, ".git", "modules", "lib"))
	write(t, filepath.Join(sub, ".git"), "gitdir: ../../.git/modules/lib\n")
	// A worktree of a bare repository.
	bare := filepath.Join(base, "bare.git")
	mkdir(t, filepath.Join(bare, "worktrees", "w"))
	write(t, filepath.Join(bare, "worktrees", "w", "commondir"), "../..\n")
	bwt := filepath.Join(base, "bare-wt")
	write(t, filepath.Join(bare, "worktrees", "w", "gitdir"), filepath.Join(bwt, ".git")+"\n")
	write(t, filepath.Join(bwt, ".git"), "gitdir: "+filepath.Join(bare, "worktrees", "w")+"\n")
	// A malformed .git file.
	odd := filepath.Join(base, "odd")
	write(t, filepath.Join(odd, ".git"), "not a pointer\n")
	mkdir(t, filepath.Join(odd, "x"))
	// No repository at all.
	plain := filepath.Join(base, "plain", "dir")
	mkdir(t, plain)

	cases := []struct{ name, cwd, want string }{
		{"repo root", main, main},
		{"subdirectory", filepath.Join(main, "src", "deep"), main},
		{"linked worktree", wt, main},
		{"inside linked worktree", filepath.Join(wt, "pkg"), main},
		{"relative gitdir, CRLF", wt2, main},
		{"copied worktree keeps its own store", copied, copied},
		{"worktree without a back-pointer", nob, nob},
		{"submodule is its own project", sub, sub},
		{"bare repository worktree", bwt, bare},
		{"malformed .git file", filepath.Join(odd, "x"), odd},
		{"not a repository", plain, plain},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ProjectRoot(c.cwd); got != c.want {
				t.Errorf("ProjectRoot(%s) = %s, want %s", c.cwd, got, c.want)
			}
		})
	}
}

func TestProjectRootSymlink(t *testing.T) {
	base := tmp(t)
	real := filepath.Join(base, "real")
	mkdir(t, filepath.Join(real, ".git"))
	link := filepath.Join(base, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	if got := ProjectRoot(link); got != real {
		t.Errorf("ProjectRoot(%s) = %s, want %s", link, got, real)
	}
}

func TestFindIndex(t *testing.T) {
	base := tmp(t)
	home := filepath.Join(base, "home")
	repo := filepath.Join(base, "src", "my.repo")
	mkdir(t, filepath.Join(repo, ".git"))
	mkdir(t, filepath.Join(repo, "cmd"))
	defaultDir := filepath.Join(home, ".claude", "projects", ProjectDirName(repo), "memory")

	t.Run("default store", func(t *testing.T) {
		noManaged(t)
		write(t, filepath.Join(defaultDir, IndexName), "# Memory\n")
		defer os.RemoveAll(filepath.Join(home, ".claude"))
		got, looked, err := FindIndex(env(nil), home, filepath.Join(repo, "cmd"))
		if err != nil || got != filepath.Join(defaultDir, IndexName) {
			t.Fatalf("FindIndex = %s, %v", got, err)
		}
		if looked[len(looked)-1] != got {
			t.Errorf("looked %v does not end with the index", looked)
		}
		if !strings.Contains(got, "-src-my-repo"+string(filepath.Separator)) {
			t.Errorf("project name not sanitized: %s", got)
		}
	})

	t.Run("CLAUDE_CONFIG_DIR", func(t *testing.T) {
		noManaged(t)
		cfg := filepath.Join(base, "cfg")
		want := filepath.Join(cfg, "projects", ProjectDirName(repo), "memory", IndexName)
		write(t, want, "x")
		got, _, err := FindIndex(env(map[string]string{"CLAUDE_CONFIG_DIR": cfg}), home, repo)
		if err != nil || got != want {
			t.Fatalf("FindIndex = %s, %v; want %s", got, err, want)
		}
	})

	t.Run("missing index", func(t *testing.T) {
		noManaged(t)
		got, looked, err := FindIndex(env(nil), home, repo)
		var nie *NoIndexError
		if !errors.As(err, &nie) {
			t.Fatalf("err = %v, want *NoIndexError", err)
		}
		if got != filepath.Join(defaultDir, IndexName) || nie.Index != got || nie.Project != repo {
			t.Errorf("got %s, %+v", got, nie)
		}
		if !strings.Contains(err.Error(), "does not exist") || !strings.Contains(err.Error(), got) || !strings.Contains(nie.Hints()[0], "looked at: ") {
			t.Errorf("message %q / hints %q do not say where it looked", err, nie.Hints())
		}
		if len(looked) != 4 { // local, project and user settings, index
			t.Errorf("looked = %v", looked)
		}
	})

	t.Run("directory where the index should be", func(t *testing.T) {
		noManaged(t)
		mkdir(t, filepath.Join(defaultDir, IndexName))
		defer os.RemoveAll(filepath.Join(home, ".claude"))
		_, _, err := FindIndex(env(nil), home, repo)
		var nie *NoIndexError
		if !errors.As(err, &nie) || !nie.NotFile || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("err = %v", err)
		}
	})

	settingsCases := []struct {
		name     string
		files    map[string]string // path relative to base -> content
		managed  bool
		wantDir  string // relative to base
		wantNote string
	}{
		{
			name:    "user settings, tilde",
			files:   map[string]string{"home/.claude/settings.json": `{"autoMemoryDirectory": "~/notes/mem"}`},
			wantDir: "home/notes/mem",
		},
		{
			name:    "user settings, absolute",
			files:   map[string]string{"home/.claude/settings.json": `{"model":"x","autoMemoryDirectory":"` + filepath.ToSlash(filepath.Join(base, "abs", "mem")) + `"}`},
			wantDir: "abs/mem",
		},
		{
			name: "local settings beat user settings",
			files: map[string]string{
				"home/.claude/settings.json":              `{"autoMemoryDirectory": "~/notes/mem"}`,
				"src/my.repo/.claude/settings.local.json": `{"autoMemoryDirectory": "~/local/mem"}`,
			},
			wantDir: "home/local/mem",
		},
		{
			name: "a relative path is rejected: the default store, not the user's",
			files: map[string]string{
				"home/.claude/settings.json":              `{"autoMemoryDirectory": "~/notes/mem"}`,
				"src/my.repo/.claude/settings.local.json": `{"autoMemoryDirectory": ".claude/memory"}`,
			},
			wantDir: "home/.claude/projects/" + ProjectDirName(repo) + "/memory",
		},
		{
			name: "shared project settings are honoured",
			files: map[string]string{
				"src/my.repo/.claude/settings.json": `{"autoMemoryDirectory": "~/shared/mem"}`,
				"home/.claude/settings.json":        `{"autoMemoryDirectory": "~/notes/mem"}`,
			},
			wantDir: "home/shared/mem",
		},
		{
			name: "an empty value stops the search",
			files: map[string]string{
				"src/my.repo/.claude/settings.json": `{"autoMemoryDirectory": ""}`,
				"home/.claude/settings.json":        `{"autoMemoryDirectory": "~/notes/mem"}`,
			},
			wantDir: "home/.claude/projects/" + ProjectDirName(repo) + "/memory",
		},
		{
			name: "null is no value: the search goes on",
			files: map[string]string{
				"src/my.repo/.claude/settings.json": `{"autoMemoryDirectory": null}`,
				"home/.claude/settings.json":        `{"autoMemoryDirectory": "~/notes/mem"}`,
			},
			wantDir: "home/notes/mem",
		},
		{
			name:    "~ alone and ~/.. are rejected",
			files:   map[string]string{"home/.claude/settings.json": `{"autoMemoryDirectory": "~/../elsewhere"}`},
			wantDir: "home/.claude/projects/" + ProjectDirName(repo) + "/memory",
		},
		{
			name: "managed settings beat everything",
			files: map[string]string{
				"managed.json":               `{"autoMemoryDirectory": "/srv/org-mem"}`,
				"home/.claude/settings.json": `{"autoMemoryDirectory": "~/notes/mem"}`,
			},
			managed: true,
			wantDir: "/srv/org-mem",
		},
		{
			name:    "invalid JSON sets nothing",
			files:   map[string]string{"home/.claude/settings.json": `{"autoMemoryDirectory": `},
			wantDir: "home/.claude/projects/" + ProjectDirName(repo) + "/memory",
		},
		{
			name:    "a blank value is relative: rejected",
			files:   map[string]string{"home/.claude/settings.json": `{"autoMemoryDirectory": "  "}`},
			wantDir: "home/.claude/projects/" + ProjectDirName(repo) + "/memory",
		},
	}
	for _, c := range settingsCases {
		t.Run(c.name, func(t *testing.T) {
			if c.managed {
				noManaged(t, filepath.Join(base, "managed.json"))
			} else {
				noManaged(t)
			}
			for p, content := range c.files {
				write(t, filepath.Join(base, p), content)
			}
			defer func() {
				for p := range c.files {
					os.Remove(filepath.Join(base, p))
				}
			}()
			want := c.wantDir
			if !filepath.IsAbs(want) {
				want = filepath.Join(base, want)
			}
			dir, consulted := MemoryDir(env(nil), home, repo)
			if dir != filepath.Clean(want) {
				t.Errorf("MemoryDir = %s, want %s (consulted %v)", dir, want, consulted)
			}
		})
	}
}

func TestLongProjectName(t *testing.T) {
	noManaged(t)
	base := tmp(t)
	home := filepath.Join(base, "home")
	long := filepath.Join(base, strings.Repeat("a", 120), strings.Repeat("b", 120))
	mkdir(t, long)
	name := ProjectDirName(long)
	if len(name) <= maxProjectName {
		t.Fatalf("test path too short: %d", len(name))
	}
	// Another project sharing the first 200 characters must not be taken
	// for this one: the hash tells them apart.
	other := filepath.Join(home, ".claude", "projects", name[:maxProjectName]+"-1a2b3c", "memory")
	write(t, filepath.Join(other, IndexName), "x")
	mine := filepath.Join(home, ".claude", "projects", name, "memory")
	got, _, err := FindIndex(env(nil), home, long)
	if got != filepath.Join(mine, IndexName) || err == nil {
		t.Fatalf("FindIndex = %s, %v; want %s, missing", got, err, filepath.Join(mine, IndexName))
	}
}

func TestStoreOf(t *testing.T) {
	cases := []struct {
		path string
		want string
		ok   bool
	}{
		{"/h/.claude/projects/-src-app/memory/MEMORY.md", "/h/.claude/projects/-src-app/memory", true},
		{"/h/.claude/projects/-src-app/memory/feedback_x.md", "/h/.claude/projects/-src-app/memory", true},
		{"/h/.claude/projects/-src-app/memory/sub/deep.md", "/h/.claude/projects/-src-app/memory", true},
		{"/cfg/projects/p/memory/new_entry.md", "/cfg/projects/p/memory", true},
		{"/h/.claude/projects/-src-app/session.jsonl", "", false},
		{"/h/.claude/projects/memory/x.md", "", false},
		{"/src/app/memory/x.md", "", false},
		{"/h/.claude/CLAUDE.md", "", false},
	}
	for _, c := range cases {
		got, ok := StoreOf(filepath.FromSlash(c.path))
		if ok != c.ok || got != filepath.FromSlash(c.want) {
			t.Errorf("StoreOf(%s) = %s, %v; want %s, %v", c.path, got, ok, c.want, c.ok)
		}
	}
}

func TestStoreOfIn(t *testing.T) {
	noManaged(t)
	base := tmp(t)
	home := filepath.Join(base, "home")
	repo := filepath.Join(base, "repo")
	mkdir(t, filepath.Join(repo, ".git"))
	write(t, filepath.Join(home, ".claude", "settings.json"), `{"autoMemoryDirectory": "~/mem"}`)
	mem := filepath.Join(home, "mem")
	if d, ok := StoreOfIn(filepath.Join(mem, "MEMORY.md"), env(nil), home, repo); !ok || d != mem {
		t.Errorf("StoreOfIn = %s, %v; want %s", d, ok, mem)
	}
	if _, ok := StoreOfIn(filepath.Join(home, "other", "x.md"), env(nil), home, repo); ok {
		t.Error("a file outside the store was claimed")
	}
	if _, ok := StoreOfIn(mem, env(nil), home, repo); ok {
		t.Error("the store directory itself is not a file inside it")
	}
}

// FuzzGitPointer writes arbitrary bytes as a .git file and as the commondir
// it may lead to: discovery must never panic, and must settle on the
// directory holding the .git file or on a path the pointers name.
func FuzzGitPointer(f *testing.F) {
	f.Add("gitdir: ../main/.git/worktrees/w\n", "../..\n")
	f.Add("gitdir:\n", "")
	f.Add("gitdir: /nonexistent\r\n", "/abs/common")
	f.Add("\xff\xfe", "\x00")
	f.Add("gitdir: wt", ".")
	f.Fuzz(func(t *testing.T, gitFile, commondir string) {
		base := t.TempDir()
		wt := filepath.Join(base, "wt")
		gd := filepath.Join(wt, "wt")
		mkdir(t, gd)
		write(t, filepath.Join(wt, ".git"), gitFile)
		write(t, filepath.Join(gd, "commondir"), commondir)
		got := ProjectRoot(wt)
		if got == "" || !filepath.IsAbs(got) {
			t.Fatalf("ProjectRoot = %q", got)
		}
		_ = ProjectDirName(got)
	})
}
