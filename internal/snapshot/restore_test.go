package snapshot

import (
	"context"
	"os"
	"path/filepath"
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
