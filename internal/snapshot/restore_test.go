package snapshot

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/testshared"
)

const policy = "| File | Budget | Newest tier | Notes |\n|---|---|---|---|\n" +
	"| main/notes.md | 50 lines | last 2 entries | n |\n| topics/notes.md | 50 lines | last 2 entries | n |\n| main/main-memory.md | 50 lines | last 2 entries | n |\n"

// newRoot makes a memory root with the policy above and files
// (root-relative path → text).
func newRoot(t *testing.T, files map[string]string) string {
	t.Helper()
	files[budget.PolicyRel] = policy
	return testshared.Tree(t, files)
}

func TestRestore(t *testing.T) {
	today := time.Date(2026, 12, 2, 0, 0, 0, 0, time.Local)
	now := today.Add(14*time.Hour + 30*time.Minute)
	const snap, cur = "old\n", "new\n"
	yes := func(*RestoreResult) bool { return true }
	no := func(*RestoreResult) bool { return false }
	tests := []struct {
		name      string
		files     map[string]string
		snapshot  string
		to        string
		confirmed bool
		confirm   func(*RestoreResult) bool
		status    string         // the result's, when restored or unchanged
		reason    outcome.Reason // else the refusal's
		preview   bool           // a refusal comes with the result
		after     string         // main/main-memory.md afterwards ("" = absent)
	}{
		{name: "confirmed", files: map[string]string{"main/main-memory.md": cur}, snapshot: "main-memory-2026-12-01.md", confirmed: true, status: StatusRestored, after: snap},
		{name: "asked yes", files: map[string]string{"main/main-memory.md": cur}, snapshot: "main-memory-2026-12-01.md", confirm: yes, status: StatusRestored, after: snap},
		{name: "asked no", files: map[string]string{"main/main-memory.md": cur}, snapshot: "main-memory-2026-12-01.md", confirm: no, reason: ReasonNotConfirmed, preview: true, after: cur},
		{name: "no way to ask", files: map[string]string{"main/main-memory.md": cur}, snapshot: "main-memory-2026-12-01.md", reason: ReasonNeedsConfirm, preview: true, after: cur},
		{name: "identical", files: map[string]string{"main/main-memory.md": snap}, snapshot: "main-memory-2026-12-01.md", status: StatusUnchanged, after: snap},
		{name: "file gone", files: map[string]string{"main/keep.md": ""}, snapshot: "main-memory-2026-12-01.md", confirmed: true, status: StatusRestored, after: snap},
		{name: "no such snapshot", files: map[string]string{"main/main-memory.md": cur}, snapshot: "main-memory-2026-11-01.md", confirmed: true, reason: ReasonNoSnapshot, after: cur},
		{name: "not in the folder", files: map[string]string{"main/main-memory.md": cur}, snapshot: "main/main-memory.md", confirmed: true, reason: ReasonNoSnapshot, after: cur},
		{name: "ambiguous", files: map[string]string{"main/main-memory.md": cur}, snapshot: "notes-2026-12-01.md", confirmed: true, reason: ReasonAmbiguous, after: cur},
		{name: "no target", files: map[string]string{"main/main-memory.md": cur}, snapshot: "other-2026-12-01.md", confirmed: true, reason: ReasonNoTarget, after: cur},
		{name: "to under compaction", files: map[string]string{"main/main-memory.md": cur}, snapshot: "main-memory-2026-12-01.md", to: "compaction/x.md", confirmed: true, reason: budget.ReasonExcluded, after: cur},
		{name: "badly named", files: map[string]string{"main/main-memory.md": cur, "compaction/snapshots/stray.md": snap}, snapshot: "stray.md", confirmed: true, reason: ReasonBadName, after: cur},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, n := range []string{"main-memory-2026-12-01.md", "notes-2026-12-01.md", "other-2026-12-01.md"} {
				tt.files["compaction/snapshots/"+n] = snap
			}
			root := newRoot(t, tt.files)
			req := RestoreRequest{Root: root, Snapshot: tt.snapshot, Confirmed: tt.confirmed, Confirm: tt.confirm, Today: today, Now: now}
			if tt.to != "" {
				req.To = filepath.Join(root, tt.to)
			}
			res, err := Restore(context.Background(), req)
			if tt.reason != "" {
				if outcome.StatusOf(err) != outcome.Refused || outcome.ReasonOf(err) != tt.reason {
					t.Fatalf("err %v (%q), want a refusal for %q", err, outcome.ReasonOf(err), tt.reason)
				}
				if (res != nil) != tt.preview {
					t.Errorf("result %+v with the refusal, want one: %v", res, tt.preview)
				}
			} else if err != nil {
				t.Fatal(err)
			} else if res.Status != tt.status {
				t.Errorf("status %s, want %s", res.Status, tt.status)
			}
			got, _ := os.ReadFile(filepath.Join(root, "main", "main-memory.md"))
			if string(got) != tt.after {
				t.Errorf("main/main-memory.md is %q, want %q", got, tt.after)
			}
			if res != nil && res.SafetySnapshot != "" {
				if b, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(res.SafetySnapshot))); string(b) != cur {
					t.Errorf("safety snapshot %s holds %q, want the replaced %q", res.SafetySnapshot, b, cur)
				}
			} else if tt.status == StatusRestored && tt.files["main/main-memory.md"] != "" {
				t.Error("a file was replaced without a safety snapshot")
			}
		})
	}
}

func TestCatalog(t *testing.T) {
	root := newRoot(t, map[string]string{
		"compaction/snapshots/main-memory-2026-12-01.md":        "a\nb\n",
		"compaction/snapshots/main-memory-2026-12-01-101010.md": "a\n",
		"compaction/snapshots/notes-2026-12-01.md":              "",
		"compaction/snapshots/README":                           "not a snapshot",
	})
	tests := []struct {
		file string
		want []string
	}{
		{"", []string{"main-memory-2026-12-01.md", "main-memory-2026-12-01-101010.md", "notes-2026-12-01.md"}},
		{"main/main-memory.md", []string{"main-memory-2026-12-01.md", "main-memory-2026-12-01-101010.md"}},
		{"topics/none.md", nil},
	}
	for _, tt := range tests {
		req := CatalogRequest{Root: root}
		if tt.file != "" {
			req.File = filepath.Join(root, tt.file)
		}
		res, err := Catalog(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range res.Snapshots {
			got = append(got, s.Name)
			if s.Path != budget.SnapshotsRel+"/"+s.Name {
				t.Errorf("path %s is not root-relative", s.Path)
			}
		}
		if len(got) != len(tt.want) || res.File != tt.file || res.Snapshots == nil {
			t.Errorf("Catalog(%q) = %v (file %q), want %v", tt.file, got, res.File, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("Catalog(%q) = %v, want %v", tt.file, got, tt.want)
			}
		}
	}
	if _, err := Catalog(context.Background(), CatalogRequest{Root: root, File: "/elsewhere/x.md"}); outcome.ReasonOf(err) != budget.ReasonOutsideRoot {
		t.Errorf("a file outside the root: %v", err)
	}
}

// TestRestoreStored restores from both formats on disk: a plain snapshot
// (every snapshot an older memcompact wrote, and the first of a file) and
// one stored as the changes from it, byte for byte; a delta whose base is
// gone is refused as damaged with the file untouched.
func TestRestoreStored(t *testing.T) {
	today := time.Date(2026, 12, 2, 0, 0, 0, 0, time.Local)
	v1 := "# Main\r\n\r\n" + strings.Repeat("## 2026-01-01 — an entry long enough to be copied\r\n- a fact\r\n\r\n", 30)
	v2 := v1 + "## 2026-12-01 — added\r\n- Omar is allergic to peanuts.\r\n"
	cur := "# Main\r\n\r\nnow\r\n"
	root := newRoot(t, map[string]string{"main/main-memory.md": cur, "compaction/snapshots/main-memory-2026-11-30.md": v1})
	dir := filepath.Join(root, "compaction", "snapshots")
	now := today.Add(9 * time.Hour)
	want, _ := Next(dir, "main/main-memory.md", today, now)
	p, err := TakeStored(dir, "main/main-memory.md", want, []byte(v2), today, now)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(p)
	if _, ok := parseDelta(raw); !ok || len(raw) > len(v2)/3 {
		t.Fatalf("the second snapshot is not stored as changes (%d bytes for %d):\n%s", len(raw), len(v2), raw)
	}
	if !strings.Contains(string(raw), "- Omar is allergic to peanuts.\r\n") {
		t.Error("a delta does not hold its added lines as written")
	}
	list, _ := List(dir, "main-memory")
	if len(list) != 2 || list[1].Bytes != int64(len(v2)) || list[1].Stored != int64(len(raw)) || list[1].Delta != "main-memory-2026-11-30.md" {
		t.Errorf("List = %+v", list)
	}
	for _, tt := range []struct{ snap, want string }{{filepath.Base(p), v2}, {"main-memory-2026-11-30.md", v1}} {
		res, err := Restore(context.Background(), RestoreRequest{Root: root, Snapshot: tt.snap, Confirmed: true, Today: today, Now: now.Add(time.Hour)})
		if err != nil {
			t.Fatalf("restore %s: %v", tt.snap, err)
		}
		if got, _ := os.ReadFile(filepath.Join(root, "main", "main-memory.md")); string(got) != tt.want {
			t.Errorf("restored from %s: %q", tt.snap, got)
		}
		if res.SafetySnapshot == "" {
			t.Fatal("no safety snapshot")
		}
		if b, err := Read(filepath.Join(root, filepath.FromSlash(res.SafetySnapshot))); err != nil || len(b) == 0 {
			t.Errorf("the safety snapshot does not read back: %v", err)
		}
		now = now.Add(2 * time.Hour)
	}
	show, err := Catalog(context.Background(), CatalogRequest{Root: root, Show: filepath.Base(p)})
	if err != nil || show.Content != v2 {
		t.Errorf("--show = %+v, %v", show, err)
	}
	// The base gone: the delta is damaged, and restore says so.
	before, _ := os.ReadFile(filepath.Join(root, "main", "main-memory.md"))
	os.Remove(filepath.Join(dir, "main-memory-2026-11-30.md"))
	_, err = Restore(context.Background(), RestoreRequest{Root: root, Snapshot: filepath.Base(p), Confirmed: true, Today: today, Now: now})
	if outcome.ReasonOf(err) != ReasonDamaged {
		t.Errorf("a delta without its base: %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(root, "main", "main-memory.md")); string(after) != string(before) {
		t.Error("a refused restore changed the file")
	}
	if l, _ := List(dir, "main-memory"); l[0].Damaged == "" {
		t.Errorf("List does not say the delta is damaged: %+v", l[0])
	}
}
