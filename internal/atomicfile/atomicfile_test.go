package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/memcompact/memcompact/internal/textfile"
)

func TestReplace(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "MEMORY.md")
	if err := os.WriteFile(p, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	d := textfile.Digest([]byte("old\n"))

	if err := Replace(p, []byte("new\n"), d); err != nil {
		t.Fatalf("Replace: %v", err)
	}
	got, _ := os.ReadFile(p)
	if string(got) != "new\n" {
		t.Fatalf("content = %q", got)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("permissions not kept: %v", fi.Mode().Perm())
	}

	// Planned against "old": the file now says "new", so nothing is written.
	if err := Replace(p, []byte("clobber\n"), d); !errors.Is(err, ErrChanged) {
		t.Fatalf("stale Replace = %v, want ErrChanged", err)
	}
	got, _ = os.ReadFile(p)
	if string(got) != "new\n" {
		t.Fatalf("stale Replace wrote: %q", got)
	}

	// No temporary files are left behind.
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("directory holds %d entries, want 1", len(ents))
	}
}

func TestReplaceNewFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "new.md")
	if err := Replace(p, []byte("x"), ""); err != nil {
		t.Fatal(err)
	}
	// Creating again with "must not exist" fails: it exists now.
	if err := Replace(p, []byte("y"), ""); !errors.Is(err, ErrChanged) {
		t.Fatalf("second create = %v, want ErrChanged", err)
	}
	// A digest for a file that does not exist fails too.
	if err := Replace(filepath.Join(dir, "gone.md"), []byte("y"), "abc"); !errors.Is(err, ErrChanged) {
		t.Fatalf("replace of missing file = %v, want ErrChanged", err)
	}
}

func TestReplaceRefusesDirectory(t *testing.T) {
	dir := t.TempDir()
	if err := Replace(dir, []byte("x"), ""); !errors.Is(err, textfile.ErrNotRegular) {
		t.Fatalf("Replace(dir) = %v, want ErrNotRegular", err)
	}
}

func TestReplaceFollowsSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.md")
	link := filepath.Join(dir, "link.md")
	os.WriteFile(real, []byte("a"), 0o644)
	if err := os.Symlink(real, link); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	if err := Replace(link, []byte("b"), textfile.Digest([]byte("a"))); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&fs.ModeSymlink == 0 {
		t.Error("the symlink was replaced by a regular file")
	}
	if got, _ := os.ReadFile(real); string(got) != "b" {
		t.Errorf("target = %q", got)
	}
}

func TestCreateExclusive(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "snap.md")
	if err := CreateExclusive(p, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := CreateExclusive(p, []byte("two")); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("second CreateExclusive = %v, want ErrExist", err)
	}
	if got, _ := os.ReadFile(p); string(got) != "one" {
		t.Fatalf("snapshot overwritten: %q", got)
	}
}

func TestAppend(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "LEDGER.md")
	if err := Append(p, []byte("a\n")); err != nil {
		t.Fatal(err)
	}
	if err := Append(p, []byte("b\n")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); string(got) != "a\nb\n" {
		t.Fatalf("content = %q", got)
	}
	if err := Append(dir, []byte("x")); !errors.Is(err, textfile.ErrNotRegular) {
		t.Fatalf("Append(dir) = %v", err)
	}
}

func TestWithin(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	out := filepath.Join(base, "outside")
	os.MkdirAll(filepath.Join(root, "sub"), 0o755)
	os.MkdirAll(out, 0o755)
	os.WriteFile(filepath.Join(out, "x.md"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(root, "sub", "in.md"), []byte("x"), 0o644)
	links := map[string]string{"dirlink": out, "filelink.md": filepath.Join(out, "x.md"), "inlink.md": filepath.Join(root, "sub", "in.md"), "dangling.md": filepath.Join(base, "gone", "g.md")}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Skip("symlinks unsupported:", err)
		}
	}
	for _, tc := range []struct {
		path string
		ok   bool
	}{
		{"sub/in.md", true},
		{"sub/new.md", true},
		{"new/deeper/file.md", true},
		{"inlink.md", true},
		{"dirlink/x.md", false},
		{"dirlink/new.md", false},
		{"filelink.md", false},
		{"dangling.md", false},
		{"../outside/x.md", false},
	} {
		err := Within(root, filepath.Join(root, tc.path))
		if (err == nil) != tc.ok {
			t.Errorf("Within(%s) = %v, want ok=%v", tc.path, err, tc.ok)
		}
	}
	// A root and a path named relative to the working folder.
	t.Chdir(base)
	for _, tc := range []struct {
		path string
		ok   bool
	}{{"root/sub/new.md", true}, {"root/dirlink/new.md", false}} {
		if err := Within("root", tc.path); (err == nil) != tc.ok {
			t.Errorf("Within(root, %s) = %v, want ok=%v", tc.path, err, tc.ok)
		}
	}
}

func TestInside(t *testing.T) {
	for _, tc := range []struct {
		root, path string
		in         bool
	}{
		{"/a/store", "/a/store/x.md", true},
		{"/a/store", "/a/store/.memcompact/p.json", true},
		{"/a/store", "/a/store", true},
		{"/a/store", "/a/store2/x.md", false},
		{"/a/store", "/a/x.md", false},
		{"/a/store", "/a/store/../x.md", false},
	} {
		if in, err := Inside(tc.root, tc.path); err != nil || in != tc.in {
			t.Errorf("Inside(%s, %s) = %v, %v; want %v", tc.root, tc.path, in, err, tc.in)
		}
	}
}

// TestBatch: a batch replaces each file only when it still has the digest
// planned against (a file changed since is refused, untouched), creates a
// file that must not exist, removes a killed run's temporary file once,
// and Sync syncs the folder.
func TestBatch(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a.md"), filepath.Join(dir, "b.md"), filepath.Join(dir, "c.md")
	os.WriteFile(a, []byte("a0"), 0o644)
	os.WriteFile(b, []byte("b0"), 0o644)
	debris := filepath.Join(dir, TempPrefix+"999999999-a.md-0123456789ab")
	os.WriteFile(debris, []byte("half"), 0o644)
	batch := NewBatch()
	if err := batch.Replace(a, []byte("a1"), textfile.Digest([]byte("a0"))); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(debris); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the killed run's temporary file is still there: %v", err)
	}
	os.WriteFile(b, []byte("b-edited"), 0o644) // another writer, after the plan
	if err := batch.Replace(b, []byte("b1"), textfile.Digest([]byte("b0"))); !errors.Is(err, ErrChanged) {
		t.Errorf("replace of a changed file: %v, want ErrChanged", err)
	}
	if err := batch.Replace(c, []byte("c1"), ""); err != nil {
		t.Fatal(err)
	}
	if err := batch.Sync(); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]string{a: "a1", b: "b-edited", c: "c1"} {
		if got, _ := os.ReadFile(p); string(got) != want {
			t.Errorf("%s = %q, want %q", filepath.Base(p), got, want)
		}
	}
}
