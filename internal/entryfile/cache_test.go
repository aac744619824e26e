package entryfile

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/filecache"
)

// TestReadCached: the cached read is Read, parsing only files that changed;
// a corrupt or unwritable cache changes nothing but the cost.
func TestReadCached(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("HOME", cache)
	dir := t.TempDir()
	write := writer(t, dir)
	write("MEMORY.md", "- [a](a.md)\n")
	write("a.md", "---\nname: alpha\ndescription: a\nmetadata:\n  pinned: true\n---\n[[beta]] [[nowhere]]\n")
	write("beta.md", "b\n")
	write("team/rule.md", "---\nname: team-rule\ndescription: shared\n---\nx\n")
	parses := 0
	split = func(rel, text string) (Entry, string, bool) { parses++; return splitEntry(rel, text) }
	t.Cleanup(func() { split = splitEntry })

	check := func(t *testing.T, wantParses int) {
		t.Helper()
		parses = 0
		got := ReadCached(dir)
		if parses != wantParses {
			t.Errorf("ReadCached parsed %d file(s), want %d", parses, wantParses)
		}
		if want := Read(dir); !reflect.DeepEqual(got, want) {
			t.Errorf("ReadCached = %+v\nRead = %+v", got, want)
		}
	}
	check(t, 3) // written just now: recorded, digests kept
	check(t, 0) // racy, but the same bytes: the digest answers
	// The files settle once the racy window has passed: the full run
	// waits it out, -short records as if it had.
	settled := func() {}
	if testing.Short() {
		settled = filecache.Later(2100 * time.Millisecond)
	} else {
		time.Sleep(2100 * time.Millisecond)
	}
	check(t, 0)
	check(t, 0) // settled: a stat per file
	settled()
	write("beta.md", "---\nname: beta\ndescription: now described\n---\nb\n")
	check(t, 1)
	write("team/new.md", "[[alpha]]\n")
	check(t, 1)
	os.Remove(filepath.Join(dir, "a.md"))
	check(t, 0)

	files, _ := filepath.Glob(filepath.Join(cache, "memcompact", "*.cache"))
	if len(files) != 1 {
		t.Fatalf("cache files %v", files)
	}
	os.WriteFile(files[0], []byte("{\x00"), 0o600)
	check(t, 3) // beta, rule, new: a corrupt cache is read as none
	check(t, 0) // and rebuilt
	os.Remove(files[0])
	os.Chmod(filepath.Dir(files[0]), 0o500)
	defer os.Chmod(filepath.Dir(files[0]), 0o700)
	check(t, 3)
	if os.Geteuid() != 0 {
		check(t, 3) // nothing could be recorded
	}
}
