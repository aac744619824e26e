// Package examples holds the example memory stores the README runs
// memcompact on. This test keeps them honest: the example store shows
// exactly the defects it claims to plant, and no others.
package examples

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/check"
	"github.com/memcompact/memcompact/internal/loadcut"
	"github.com/memcompact/memcompact/internal/reference"
	"github.com/memcompact/memcompact/internal/textfile"
)

func runCheck(t *testing.T, index string) *check.Report {
	t.Helper()
	src := reference.Resolve("", func(string) string { return "" }, t.TempDir())
	return check.Evaluate(check.Options{
		IndexPath: index,
		Reference: check.Reference{Display: src.Display, Path: src.Path, Text: src.Text},
		Today:     time.Date(2026, 12, 2, 0, 0, 0, 0, time.Local),
	})
}

// TestStoreRepaired repairs the four planted problems in a copy of the
// example store, and requires the copy to be clean: so the example's
// verdict comes from what it plants, not from an accident in it.
func TestStoreRepaired(t *testing.T) {
	dir := t.TempDir()
	entries, err := os.ReadDir("store")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("store", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit := func(name string, pairs ...string) {
		t.Helper()
		p := filepath.Join(dir, name)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		for i := 0; i < len(pairs); i += 2 {
			if strings.Count(s, pairs[i]) != 1 {
				t.Fatalf("%s: %q is not planted exactly once", name, pairs[i])
			}
			s = strings.Replace(s, pairs[i], pairs[i+1], 1)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := runCheck(t, filepath.Join(dir, "MEMORY.md"))
	if before.Result != check.Defects {
		t.Fatalf("example store is %s, want defects", before.Result)
	}
	edit("POLICY.md", "**Trimming is discouraged as a way of making the index smaller.**", "**Trimming never counts as making the index smaller.**")
	edit("MEMORY.md",
		"- [feedback testing](feedback_testing.md)\n", "- [feedback testing](feedback_testing.md) — prefer named table tests, with a CRLF case for anything that reads text\n",
		"- [CI cache](reference_ci_cache.md) — see body\n", "- [CI cache](reference_ci_cache.md) — a CI-only missing module means go.sum changed without a tidy\n",
		"- [Auth migration](project_auth_migration.md), [Billing export](project_billing_export.md) — both closed in the November cleanup, nothing left to do\n",
		"- [Auth migration](project_auth_migration.md) — rotate signing keys with an overlap window, [Billing export](project_billing_export.md) — finance's parser rejects a BOM\n",
	)
	after := runCheck(t, filepath.Join(dir, "MEMORY.md"))
	if after.Result != check.Clean {
		var b strings.Builder
		check.WriteText(&b, after)
		t.Fatalf("repaired example store is not clean:\n%s", b.String())
	}
}

// TestStoreLoadsWhole: the example is small; nothing of it is cut.
func TestStoreLoadsWhole(t *testing.T) {
	f, err := textfile.Read(filepath.Join("store", "MEMORY.md"))
	if err != nil {
		t.Fatal(err)
	}
	if r := loadcut.Compute(f.Text, loadcut.DefaultLines, loadcut.DefaultUnits); r.Cut || r.SubjectsTotal != 8 {
		t.Errorf("load: %+v", r)
	}
}
