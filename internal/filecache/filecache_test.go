package filecache

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func setCacheDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", dir)
	t.Setenv("HOME", dir)
	t.Setenv("LocalAppData", dir)
	return dir
}

func write(t *testing.T, path, text string, mtime time.Time) os.FileInfo {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}

func TestCache(t *testing.T) {
	setCacheDir(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "a.md")
	old := time.Now().Add(-time.Hour)
	fi := write(t, p, "hello", old)
	// A file written just now is not trusted on stat alone.
	c := Open("ns", "v1")
	c.Put(p, fi, Sum([]byte("hello")), []byte(`[0]`))
	if _, ok := c.Stat(p, fi); ok {
		t.Error("a racy record was trusted on stat alone")
	}
	if d, ok := c.Digest(p, fi, Sum([]byte("hello"))); !ok || string(d) != "[0]" {
		t.Errorf("digest hit of a racy record = %q, %v", d, ok)
	}
	later(t, time.Hour)

	c = Open("ns", "v1")
	if _, ok := c.Stat(p, fi); ok {
		t.Fatal("hit in an empty cache")
	}
	c.Put(p, fi, Sum([]byte("hello")), []byte(`[1]`))
	c.Save()

	c = Open("ns", "v1")
	if d, ok := c.Stat(p, fi); !ok || string(d) != "[1]" {
		t.Fatalf("stat hit = %q, %v", d, ok)
	}
	if _, ok := Open("ns", "v2").Stat(p, fi); ok {
		t.Error("another version's record was trusted")
	}
	if _, ok := Open("other", "v1").Stat(p, fi); ok {
		t.Error("another namespace's record was trusted")
	}

	// Same size, new time: stat misses, the digest still matches.
	fi2 := write(t, p, "hello", old.Add(time.Minute))
	if _, ok := c.Stat(p, fi2); ok {
		t.Error("a changed time was trusted")
	}
	if d, ok := c.Digest(p, fi2, Sum([]byte("hello"))); !ok || string(d) != "[1]" {
		t.Errorf("digest hit = %q, %v", d, ok)
	}
	if _, ok := c.Stat(p, fi2); !ok {
		t.Error("the digest hit did not refresh the record")
	}
	// Changed content.
	fi3 := write(t, p, "hellO", old.Add(2*time.Minute))
	if _, ok := c.Digest(p, fi3, Sum([]byte("hellO"))); ok {
		t.Error("changed content hit")
	}
	// A new inode with the same size and times (an atomic replace).
	tmp := p + ".tmp"
	write(t, tmp, "hellO", old.Add(2*time.Minute))
	c.Put(p, fi3, Sum([]byte("hellO")), []byte(`[2]`))
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
	fi5, _ := os.Stat(p)
	if _, ok := c.Stat(p, fi5); ok {
		t.Error("a replaced file with the same size and times was trusted")
	}
}

func TestCorruptAndUnwritable(t *testing.T) {
	cache := setCacheDir(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "a.md")
	fi := write(t, p, "x", time.Now().Add(-time.Hour))
	later(t, time.Hour)
	c := Open("ns", "v1")
	c.Put(p, fi, Sum([]byte("x")), []byte(`1`))
	c.Save()
	files, _ := filepath.Glob(filepath.Join(cache, "*", "memcompact", "*.cache"))
	files2, _ := filepath.Glob(filepath.Join(cache, "memcompact", "*.cache"))
	files = append(files, files2...)
	if len(files) != 1 {
		t.Fatalf("cache files: %v", files)
	}
	good, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, junk := range []string{"", "{", "null", `{"version":"v1","records":{"` + p + `":{"size":"x"}}}`, "\x00\xff",
		string(good[:len(good)/2]), string(good[:len(good)-1]), string(good) + "\x00"} {
		os.WriteFile(files[0], []byte(junk), 0o600)
		c := Open("ns", "v1")
		if _, ok := c.Stat(p, fi); ok {
			t.Errorf("corrupt cache %q trusted", junk)
		}
		c.Put(p, fi, Sum([]byte("x")), []byte(`1`))
		c.Save() // rebuilt
		if _, ok := Open("ns", "v1").Stat(p, fi); !ok {
			t.Errorf("cache not rebuilt after %q", junk)
		}
	}
	// Unwritable: Save is silent and the next Open just misses.
	os.Chmod(filepath.Dir(files[0]), 0o500)
	defer os.Chmod(filepath.Dir(files[0]), 0o700)
	os.Remove(files[0])
	c = Open("ns", "v1")
	c.Put(p, fi, Sum([]byte("x")), []byte(`1`))
	c.Save()
	var nilCache *Cache
	nilCache.Put(p, fi, "", nil)
	nilCache.Save()
	if _, ok := nilCache.Stat(p, fi); ok {
		t.Error("nil cache hit")
	}
}

// TestSaveRemovesCrashDebris: a save killed between its temporary file and
// the rename leaves a file with memcompact's temporary prefix, which the
// next save removes; a live process's is left alone.
func TestSaveRemovesCrashDebris(t *testing.T) {
	setCacheDir(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "a.md")
	fi := write(t, p, "hello", time.Now().Add(-time.Hour))
	c := Open("ns", "v1")
	c.Put(p, fi, Sum([]byte("hello")), []byte(`[1]`))
	c.Save()
	cacheDir := filepath.Dir(c.path)
	dead := filepath.Join(cacheDir, ".memcompact-tmp-999999999-cache-1")
	live := filepath.Join(cacheDir, fmt.Sprintf(".memcompact-tmp-%d-cache-2", os.Getppid()))
	for _, d := range []string{dead, live} {
		if err := os.WriteFile(d, []byte("{"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	c.Put(p, fi, Sum([]byte("hello")), []byte(`[2]`))
	c.Save()
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("a dead process's temporary file was kept: %v", err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("a live process's temporary file was removed: %v", err)
	}
	ents, _ := os.ReadDir(cacheDir)
	for _, e := range ents {
		if e.Name() != filepath.Base(c.path) && e.Name() != filepath.Base(live) {
			t.Errorf("left in the cache folder: %s", e.Name())
		}
	}
}

// TestLegacyRemoved: the files of earlier formats (2: JSON, 3: gob) are
// never read, and saving the namespace removes them.
func TestLegacyRemoved(t *testing.T) {
	setCacheDir(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "a.md")
	fi := write(t, p, "x", time.Now().Add(-time.Hour))
	later(t, time.Hour)
	c := Open("ns", "v1")
	legacy := strings.TrimSuffix(c.path, ext) + ".json"
	gobFile := strings.TrimSuffix(c.path, ext) + ".gob"
	if err := os.MkdirAll(filepath.Dir(legacy), 0o700); err != nil {
		t.Fatal(err)
	}
	old := `{"version":"2 v1","records":{"` + p + `":{"size":1,"sha256":"` + Sum([]byte("x")) + `","data":1}}}`
	if err := os.WriteFile(legacy, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gobFile, []byte("\x1f\xff\x81\x03\x01"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := Open("ns", "v1").Stat(p, fi); ok {
		t.Error("a record of the legacy JSON cache was trusted")
	}
	c.Put(p, fi, Sum([]byte("x")), []byte(`1`))
	c.Save()
	for _, f := range []string{legacy, gobFile} {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Errorf("legacy cache file %s still there after a save: %v", filepath.Base(f), err)
		}
	}
	if _, ok := Open("ns", "v1").Stat(p, fi); !ok {
		t.Error("the cache did not keep the record")
	}
}

// FuzzDecode: no bytes in a cache file make loading it fail other than by
// ignoring it.
func FuzzDecode(f *testing.F) {
	f.Add(encode(sampleFile()))
	f.Add([]byte{})
	f.Add([]byte("{\"version\":\"2 x\"}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, ok := decode(b); !ok && (got.Version != "" || got.Records != nil) {
			t.Errorf("a rejected file left data behind: %+v", got)
		}
	})
}

// TestSaveDropsRemovedFiles: Save drops the records of files that no
// longer exist and keeps those of files this run saw or that are still
// there.
func TestSaveDropsRemovedFiles(t *testing.T) {
	setCacheDir(t)
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	paths := map[string]os.FileInfo{}
	for _, n := range []string{"a.md", "b.md", "c.md"} {
		p := filepath.Join(dir, n)
		paths[p] = write(t, p, n, old)
	}
	c := Open("ns", "v1")
	for p, fi := range paths {
		c.Put(p, fi, Sum([]byte(filepath.Base(p))), []byte(`[0]`))
	}
	c.Save()
	a, b, cc := filepath.Join(dir, "a.md"), filepath.Join(dir, "b.md"), filepath.Join(dir, "c.md")
	if err := os.Remove(b); err != nil {
		t.Fatal(err)
	}
	c = Open("ns", "v1")
	c.Stat(a, paths[a])                                    // seen this run
	c.Put(a, paths[a], Sum([]byte("a.md")), []byte(`[1]`)) // makes it dirty
	c.Save()
	c = Open("ns", "v1")
	for p, want := range map[string]bool{a: true, b: false, cc: true} {
		if _, got := c.file.Records[p]; got != want {
			t.Errorf("%s kept = %v, want %v", filepath.Base(p), got, want)
		}
	}
}
