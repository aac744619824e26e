package sweep

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/lockfile"
	"github.com/memcompact/memcompact/internal/outcome"
)

// inventoryStore writes a one-entry store and returns its index path.
func inventoryStore(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("MEMORY.md", "# Memory\n\n## Notes\n- [alpha](alpha.md) — the first note\n")
	write("alpha.md", "---\nname: alpha\ndescription: the first note\nmetadata:\n  node_type: memory\n  admitted: 2026-01-02\n---\nbody\n")
	return filepath.Join(dir, "MEMORY.md")
}

// TestInventoryArtifactWriteDiscipline: the artifact is written under the
// store's lock, never through a symlinked folder leading out of the store,
// and a refusal leaves both the store and the outside untouched.
func TestInventoryArtifactWriteDiscipline(t *testing.T) {
	ctx := context.Background()
	req := func(index, out string) InventoryRequest {
		return InventoryRequest{Records: Records{Index: index, AsOf: "2026-03-01"}, Out: out}
	}

	t.Run("inside the store", func(t *testing.T) {
		index := inventoryStore(t)
		out := filepath.Join(filepath.Dir(index), ".memcompact", "sweeps", "inv.json")
		if _, err := RunInventory(ctx, req(index, out)); err != nil {
			t.Fatal(err)
		}
		first, err := os.ReadFile(out)
		if err != nil || !strings.Contains(string(first), `"subject_count": 1`) {
			t.Fatalf("artifact not written: %v\n%s", err, first)
		}
		// A second run replaces it; no lock or temporary file is left.
		if _, err := RunInventory(ctx, req(index, out)); err != nil {
			t.Fatal(err)
		}
		assertNoDebris(t, filepath.Dir(index))
		assertNoDebris(t, filepath.Dir(out))
	})

	t.Run("outside the store", func(t *testing.T) {
		index := inventoryStore(t)
		out := filepath.Join(t.TempDir(), "a", "inv.json")
		if _, err := RunInventory(ctx, req(index, out)); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(out); err != nil {
			t.Fatal(err)
		}
		assertNoDebris(t, filepath.Dir(out))
	})

	for _, tc := range []struct{ name, rel string }{
		{"symlinked folder", filepath.Join("link", "inv.json")},
		{"symlinked folder, parents to create", filepath.Join("link", "deep", "er", "inv.json")},
		{"symlinked file", "inv-link.json"},
	} {
		t.Run("refused: "+tc.name, func(t *testing.T) {
			index := inventoryStore(t)
			dir := filepath.Dir(index)
			outside := t.TempDir()
			if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
				t.Skip("no symlinks here:", err)
			}
			target := filepath.Join(outside, "target.json")
			if err := os.WriteFile(target, []byte("{}"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, filepath.Join(dir, "inv-link.json")); err != nil {
				t.Fatal(err)
			}
			before := snapshotDir(t, dir)
			_, err := RunInventory(ctx, req(index, filepath.Join(dir, tc.rel)))
			if !errors.Is(err, atomicfile.ErrOutside) || outcome.StatusOf(err) != outcome.Refused || outcome.ReasonOf(err) != ReasonUnwritable {
				t.Fatalf("want a refusal naming the escape, got %v", err)
			}
			if got := snapshotDir(t, outside); got != outside+"\n"+target+"={}\n" {
				t.Fatalf("written outside the store:\n%s", got)
			}
			if after := snapshotDir(t, dir); after != before {
				t.Fatalf("the store changed:\n%s\n---\n%s", before, after)
			}
		})
	}

	t.Run("refused while another writer holds the store", func(t *testing.T) {
		index := inventoryStore(t)
		dir := filepath.Dir(index)
		release, err := lockfile.Lock(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		defer release()
		out := filepath.Join(dir, ".memcompact", "inv.json")
		short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		defer cancel()
		_, err = RunInventory(short, req(index, out))
		if !errors.Is(err, lockfile.ErrHeld) || outcome.StatusOf(err) != outcome.Refused {
			t.Fatalf("want a lock refusal, got %v", err)
		}
		if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("artifact written while the store was locked: %v", err)
		}
		// Without --out nothing is written, so nothing waits for the lock.
		if _, err := RunInventory(short, req(index, "")); err != nil {
			t.Fatal(err)
		}
	})
}

// snapshotDir lists every path under dir with its bytes.
func snapshotDir(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		b.WriteString(p)
		if d.Type().IsRegular() {
			data, _ := os.ReadFile(p)
			b.WriteString("=" + string(data))
		}
		b.WriteString("\n")
		return nil
	})
	return b.String()
}

func assertNoDebris(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if atomicfile.IsScratch(e.Name()) {
			t.Errorf("%s left in %s", e.Name(), dir)
		}
	}
}
