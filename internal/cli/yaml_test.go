package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/companion"
	"github.com/memcompact/memcompact/internal/entryfile"
	"github.com/memcompact/memcompact/internal/entryfile/yamlfm"
)

// TestYAMLUnavailable: a verb that reads an entry whose frontmatter goes
// beyond entryfile's own YAML, in an executable that cannot reach
// memcompact-full's parser, is refused with the install hint, not
// reported as a bug; on the hidden argument, Run answers as
// memcompact-full does for memcompact and memcompact-hook.
func TestYAMLUnavailable(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := t.TempDir()
	for name, text := range map[string]string{
		"MEMORY.md": "# Memory\n- [Folded](folded.md) — a folded description\n",
		"folded.md": "---\nname: folded\ndescription: >\n  two\n  lines\n---\nBody.\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	defer entryfile.Use(yamlfm.Decode)
	entryfile.Use(func([]string) ([]entryfile.Fields, error) {
		return nil, companion.Unavailablef("the YAML parser is not available: no memcompact-full here")
	})
	env, _, errb := testEnv()
	if code := Run(env, []string{"doctor", filepath.Join(dir, "MEMORY.md")}); code != exitRefused ||
		!strings.Contains(errb.String(), "memcompact: error: "+filepath.Join(dir, "folded.md")+": the YAML parser is not available: no memcompact-full here") ||
		!strings.Contains(errb.String(), "memcompact: hint: "+companion.InstallHint) || strings.Contains(errb.String(), "bug") {
		t.Errorf("doctor without the YAML parser: exit %d\n%s", code, errb)
	}

	entryfile.Use(yamlfm.Decode)
	env, out, errb := testEnv()
	a, b := "name: [a, b]", `name: "a" # c`
	env.Stdin = strings.NewReader(fmt.Sprintf("%d\n%s%d\n%s", len(a), a, len(b), b))
	if code := Run(env, []string{entryfile.ServeArg}); code != exitClean || !bytes.Equal(out.Bytes(), []byte("1\n-0\n0\n0\n1\n01\na0\n0\n")) {
		t.Errorf("%s: exit %d, answer %q, stderr %s", entryfile.ServeArg, code, out, errb)
	}
}
