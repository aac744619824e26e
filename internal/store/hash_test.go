package store

import (
	"strings"
	"testing"
)

// TestProjectDirNameHash pins the names Claude Code 2.1.332 itself chose
// for project paths whose sanitized form is longer than 200 characters
// (read back from the memory directory named in its system prompt):
// the first 200 characters, '-', and a 32-bit string hash of the whole
// path (UTF-16 units, as JavaScript hashes) in base 36.
func TestProjectDirNameHash(t *testing.T) {
	cases := []struct{ path, suffix string }{
		{"/tmp/probe/s2/proj/" + strings.Repeat("a", 120) + "/" + strings.Repeat("bé", 50) + "/" + strings.Repeat("c🚀", 20), "-w5pwnq"},
		{"/tmp/probe/s3/" + strings.Repeat("x", 250) + "/y", "-z3xwk3"},
	}
	for _, c := range cases {
		got := ProjectDirName(c.path)
		if !strings.HasSuffix(got, c.suffix) || len(got) != 200+len(c.suffix) {
			t.Errorf("%s...: got %s", c.path[:30], got)
		}
	}
	// At exactly 200 characters there is no hash.
	p := "/" + strings.Repeat("p", 199)
	if got := ProjectDirName(p); got != "-"+strings.Repeat("p", 199) {
		t.Errorf("200 characters: %s", got)
	}
	// The hash's extreme: Math.abs of the most negative 32-bit value.
	if got := base36Hash(-1 << 31); got != "zik0zk" {
		t.Errorf("abs(min int32) = %s", got)
	}
}
