package store

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestMemoryStores: CLAUDE_MEMORY_STORES parsed as the client parses it.
func TestMemoryStores(t *testing.T) {
	cases := []struct {
		value, want, err string
	}{
		{"", "[]", ""},
		{"   ", "[]", ""},
		{`["/srv/team-mem"]`, "[{/srv/team-mem rw team team-mem }]", ""},
		{`["/srv/a.b/"]`, "[{/srv/a.b/ rw team a-b }]", ""},
		{`[{"path":"/srv/x","mode":"ro","scope":"user","mount":"mine"}]`, "[{/srv/x ro user mine }]", ""},
		{`[{"path":"/srv/x","promptIndex":"notes/MEMORY.md"}]`, "[{/srv/x rw team x notes/MEMORY.md}]", ""},
		{`[{"path":"/srv/x","promptIndex":"../MEMORY.md"}]`, "", "promptIndex"},
		{`[{"path":"relative"}]`, "", "path-absolute"},
		{`["//evil.example/x"]`, "", "override the host"},
		{`["/\\evil.example/x"]`, "", "override the host"},
		{`[{"path":"/a/m"},{"path":"/b/m"}]`, "", "duplicate mount: m"},
		{`[{"path":"/a","scope":"user"},{"path":"/b","scope":"user"}]`, "", "more than one scope"},
		{`[{"path":"/a","mode":"rx"}]`, "", "not rw or ro"},
		{`[{"path":"/a","mount":"a/b"}]`, "", "must match"},
		{`[{"mode":"rw"}]`, "", "neither a path"},
		{`["/"]`, "", "cannot derive"},
		{`{"path":"/a"}`, "", "not a JSON array"},
		{`not json`, "", "not a JSON array"},
	}
	for _, c := range cases {
		got, err := MemoryStores(func(string) string { return c.value })
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v; want one saying %q", c.value, err, c.err)
			}
			continue
		}
		if err != nil || strings.ReplaceAll(fmt.Sprint(got), "[]", "") != strings.ReplaceAll(c.want, "[]", "") {
			t.Errorf("%q: %v, %v; want %s", c.value, got, err, c.want)
		}
	}
}

// TestMounts: where the client mounts each store and what the session's
// memory prompt makes of it (checked against 2.1.332 in
// TestClaudeCodeMemoryRules/memory-stores).
func TestMounts(t *testing.T) {
	mem := filepath.Join("/home/u/.claude/projects/-p/memory")
	stores, err := MemoryStores(func(string) string {
		return `[{"path":"/s/a"},{"path":"/s/b","mode":"ro"},{"path":"/s/c","promptIndex":"notes/MEMORY.md"},{"path":"/s/d","promptIndex":".hidden/MEMORY.md"},{"path":"/s/me","scope":"user","mode":"ro"}]`
	})
	if err != nil {
		t.Fatal(err)
	}
	ms := Mounts(stores, mem)
	want := []struct{ dir, write, gives string }{
		{mem + "/team/a", mem + "/team/a", "named for writing"},
		{mem + "/team/b", "", "read-only"},
		{mem + "/team/c", mem + "/team/c/notes", "never from disk"},
		{mem + "/team/d", mem + "/team/d", "named for writing"},
		{mem, "", "nothing"},
	}
	for i, w := range want {
		m := ms[i]
		if m.Dir != w.dir || m.WriteDir != w.write || !strings.Contains(m.Gives, w.gives) {
			t.Errorf("%s: dir %s, write dir %q, gives %q; want %s, %q, %q", m.Mount, m.Dir, m.WriteDir, m.Gives, w.dir, w.write, w.gives)
		}
	}
	if !strings.Contains(ms[0].Gives, "no private memory folder") {
		t.Errorf("with no read-write user store, the team store's note does not say the session has no private folder: %q", ms[0].Gives)
	}
	for _, c := range []struct {
		path, mount string
	}{
		{mem + "/team/a/MEMORY.md", "a"},
		{mem + "/team/c/notes/x.md", "c"},
		{mem + "/team/b", "b"},
		{mem + "/team/ab/x.md", ""},
		{mem + "/MEMORY.md", ""},
		{mem + "/team/../x.md", ""},
	} {
		m, ok := MountOf(ms, c.path)
		if got := map[bool]string{true: m.Mount, false: ""}[ok]; got != c.mount {
			t.Errorf("MountOf(%s) = %q, want %q", c.path, got, c.mount)
		}
	}
}

// TestStoreOfInMountedStore: with memory stores mounted, a file in a team
// store's folder belongs to that store (its write folder when inside it),
// so its MEMORY.md is judged as an index; other files keep their store.
func TestStoreOfInMountedStore(t *testing.T) {
	home := t.TempDir()
	cwd := filepath.Join(home, "proj")
	env := map[string]string{"HOME": home, MemoryStoresVar: `[{"path":"/s/team-a"},{"path":"/s/c","promptIndex":"notes/MEMORY.md"}]`}
	getenv := func(k string) string { return env[k] }
	mem := Locate(getenv, home, cwd, Options{}).Dir
	for _, c := range []struct{ path, store string }{
		{filepath.Join(mem, "team", "team-a", "MEMORY.md"), filepath.Join(mem, "team", "team-a")},
		{filepath.Join(mem, "team", "c", "notes", "MEMORY.md"), filepath.Join(mem, "team", "c", "notes")},
		{filepath.Join(mem, "team", "c", "other.md"), filepath.Join(mem, "team", "c")},
		{filepath.Join(mem, "MEMORY.md"), mem},
	} {
		if got, ok := StoreOfInWith(c.path, getenv, home, cwd, Options{}); !ok || got != c.store {
			t.Errorf("StoreOfInWith(%s) = %s, %v; want %s", c.path, got, ok, c.store)
		}
	}
	delete(env, MemoryStoresVar)
	if got, _ := StoreOfInWith(filepath.Join(mem, "team", "team-a", "MEMORY.md"), getenv, home, cwd, Options{}); got != mem {
		t.Errorf("without the variable, team/team-a/MEMORY.md belongs to %s, want the project's store %s", got, mem)
	}
}
