package filecache

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// later runs f as if d had passed since now.
func later(t *testing.T, d time.Duration) {
	t.Helper()
	t.Cleanup(Later(d))
}

func TestMemo(t *testing.T) {
	setCacheDir(t)
	dir := t.TempDir()
	a, b, gone := filepath.Join(dir, "a.md"), filepath.Join(dir, "b.md"), filepath.Join(dir, "gone.md")
	write(t, a, "alpha", time.Now())
	write(t, b, "beta", time.Now())
	paths := []string{a, b, gone}

	// Files written just now: recorded, but not trusted on stamps alone.
	c := Open("memo", "v1")
	c.Remember("k", StampAll(paths), []byte(`1`))
	c.Save()
	if _, ok := Open("memo", "v1").Recall("k", StampAll(paths)); ok {
		t.Fatal("a record of files that changed within the racy window was trusted")
	}

	later(t, time.Hour)
	c = Open("memo", "v1")
	c.Remember("k", StampAll(paths), []byte(`2`))
	c.Save()
	c = Open("memo", "v1")
	if d, ok := c.Recall("k", StampAll(paths)); !ok || string(d) != "2" {
		t.Fatalf("recall of settled files = %q, %v", d, ok)
	}
	for _, miss := range []struct {
		name string
		c    *Cache
		key  string
	}{{"another key", c, "k2"}, {"another version", Open("memo", "v2"), "k"}, {"another namespace", Open("other", "v1"), "k"}} {
		if _, ok := miss.c.Recall(miss.key, StampAll(paths)); ok {
			t.Errorf("%s was trusted", miss.name)
		}
	}
	if _, ok := c.Recall("k", StampAll(paths[:2])); ok {
		t.Error("a record of another set of files was trusted")
	}

	// Every kind of change to an input is a miss.
	changes := []struct {
		name   string
		change func()
	}{
		{"same size, new content and time", func() { write(t, a, "ALPHA", time.Now().Add(-time.Minute)) }},
		{"a new inode (atomic replace)", func() {
			tmp := a + ".tmp"
			write(t, tmp, "ALPHA", time.Now().Add(-time.Minute))
			os.Rename(tmp, a)
		}},
		{"mode", func() { os.Chmod(b, 0o600) }},
		{"an absent input made", func() { write(t, gone, "now here", time.Now()) }},
		{"an input removed", func() { os.Remove(b) }},
	}
	for _, ch := range changes {
		name, change := ch.name, ch.change
		c := Open("memo", "v1")
		in := StampAll(paths)
		if _, ok := c.Recall("k", in); !ok {
			t.Fatalf("before %s: no hit", name)
		}
		change()
		if _, ok := c.Recall("k", StampAll(paths)); ok {
			t.Errorf("%s: the old result was trusted", name)
		}
		// Recompute and record, as a caller does.
		c.Remember("k", StampAll(paths), []byte(`3`))
		c.Save()
	}

	// Inputs that cannot be stat'ed are never remembered or recalled.
	bad := StampAll([]string{filepath.Join(a, "not-a-dir", "x")})
	if bad.ok {
		t.Skip("stat through a file did not fail here")
	}
	c.Remember("bad", bad, []byte(`4`))
	if _, ok := c.Recall("bad", bad); ok {
		t.Error("unusable inputs recalled")
	}
	var nilCache *Cache
	nilCache.Remember("k", StampAll(paths), []byte(`1`))
	if _, ok := nilCache.Recall("k", StampAll(paths)); ok {
		t.Error("nil cache hit")
	}
}

func TestMemoCorruptAndUnwritable(t *testing.T) {
	cache := setCacheDir(t)
	dir := t.TempDir()
	a := filepath.Join(dir, "a.md")
	write(t, a, "alpha", time.Now())
	later(t, time.Hour)
	paths := []string{a}
	c := Open("memo", "v1")
	c.Remember("k", StampAll(paths), []byte(`1`))
	c.Save()
	files, _ := filepath.Glob(filepath.Join(cache, "memcompact", "*.cache"))
	if len(files) != 1 {
		t.Fatalf("cache files: %v", files)
	}
	for _, junk := range []string{"", "{", "null", `{"version":"2 v1","memos":{"k":{"inputs":7}}}`, `{"version":"2 v1","memos":{"k":null}}`, "\x00\xff"} {
		os.WriteFile(files[0], []byte(junk), 0o600)
		c := Open("memo", "v1")
		if _, ok := c.Recall("k", StampAll(paths)); ok {
			t.Errorf("corrupt cache %q trusted", junk)
		}
		c.Remember("k", StampAll(paths), []byte(`1`))
		c.Save()
		if _, ok := Open("memo", "v1").Recall("k", StampAll(paths)); !ok {
			t.Errorf("cache not rebuilt after %q", junk)
		}
	}
	os.Chmod(filepath.Dir(files[0]), 0o500)
	defer os.Chmod(filepath.Dir(files[0]), 0o700)
	os.Remove(files[0])
	c = Open("memo", "v1")
	c.Remember("k", StampAll(paths), []byte(`1`))
	c.Save() // silent
	if _, ok := Open("memo", "v1").Recall("k", StampAll(paths)); ok && os.Geteuid() != 0 {
		t.Error("a cache that could not be written was recalled")
	}
}

func TestStamp(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a")
	if st, ok := StampOf(p); !ok || !st.Absent {
		t.Errorf("missing file: %+v, %v", st, ok)
	}
	write(t, p, "x", time.Now().Add(-time.Hour))
	st, ok := StampOf(p)
	if !ok || st.Absent || st.Size != 1 || st.Mtime == 0 {
		t.Errorf("stamp = %+v, %v", st, ok)
	}
	if BuildStamp() == "" {
		t.Error("no build stamp for the test binary")
	}
}
