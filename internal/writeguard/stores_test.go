package writeguard

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/hookjson"
	"github.com/memcompact/memcompact/internal/store"
)

// TestJudgeMountedStores: with CLAUDE_MEMORY_STORES set, a write into a
// read-write team store's folder is judged with that folder as its store
// (its MEMORY.md as an index: a load cut is denied there as in the
// project's own store), and a write into a read-only one is denied,
// naming the store; without the variable the same path is an entry file
// of the project's store.
func TestJudgeMountedStores(t *testing.T) {
	home := t.TempDir()
	cwd := filepath.Join(home, "proj")
	env := map[string]string{store.MemoryStoresVar: `[{"path":"/s/team-a"},{"path":"/s/team-b","mode":"ro"}]`}
	getenv := func(k string) string { return env[k] }
	mem := store.Locate(getenv, home, cwd, store.Options{}).Dir
	run := func(path, content string) *Verdict {
		in := hookjson.ToolInput{FilePath: path, Content: str(content)}
		return Judge(&Call{Tool: "Write", Input: &in, Cwd: cwd, Getenv: getenv, Home: home, Today: time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)})
	}
	rwIndex := filepath.Join(mem, "team", "team-a", "MEMORY.md")
	v := run(rwIndex, "# Team\n"+pointers(1, 260))
	if v.Store != filepath.Dir(rwIndex) || !v.Index || !strings.Contains(codes(v), "load-cut") {
		t.Errorf("a write past the load cut into the rw store's MEMORY.md: store %s, index %v, problems %s", v.Store, v.Index, codes(v))
	}
	if v := run(rwIndex, "# Team\n"+pointers(1, 3)); v.Deny() || !v.Index {
		t.Errorf("a small write into the rw store's MEMORY.md: %s, index %v", v.Reason(), v.Index)
	}
	ro := filepath.Join(mem, "team", "team-b", "feedback_x.md")
	v = run(ro, "---\nname: x\n---\nx\n")
	if codes(v) != CodeReadOnlyStore || !strings.Contains(v.Reason(), "team-b") || !strings.Contains(v.Reason(), "read-only") {
		t.Errorf("a write into the ro store: %s / %s", codes(v), v.Reason())
	}
	delete(env, store.MemoryStoresVar)
	if v := run(rwIndex, "# Team\n"+pointers(1, 260)); v.Store != mem || v.Index {
		t.Errorf("without the variable: store %s, index %v; want the project's store, an entry file", v.Store, v.Index)
	}
}
