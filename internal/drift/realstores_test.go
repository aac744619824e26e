package drift

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/testshared"

	"github.com/memcompact/memcompact/internal/records"
)

var update = flag.Bool("update", false, "rewrite testdata/realstores.golden")

// TestRealStores runs drift over every real store and compares the
// verdicts with testdata/realstores.golden (go test -update rewrites it).
// The corpus copied only the entry files its indexes link, and not all of
// them (a size cap, files withheld for secrets), so dangling pointers are
// expected there and orphans are not.
func TestRealStores(t *testing.T) {
	root := testshared.RealStores(t)
	des, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("# store entries pointers orphans exited dangling\n")
	for _, de := range des {
		if !de.IsDir() {
			continue
		}
		res, err := Compute(filepath.Join(root, de.Name()), records.MaxDate)
		if err != nil {
			fmt.Fprintf(&b, "%s error %v\n", de.Name(), err)
			continue
		}
		fmt.Fprintf(&b, "%s %d %d %d %d %d\n", de.Name(), res.Entries, res.Pointers, len(res.Orphans), len(res.Exited), len(res.Dangling))
		for _, d := range res.Dangling {
			if d.Line < 1 || d.Target == "" || d.Reason == "" {
				t.Errorf("%s: malformed finding %+v", de.Name(), d)
			}
		}
	}
	golden := filepath.Join("testdata", "realstores.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("verdicts differ from %s (go test -update rewrites it):\n%s", golden, got)
	}
}
