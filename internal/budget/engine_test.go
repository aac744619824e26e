package budget

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/testshared"
)

// newRoot makes a memory root holding files (root-relative path → text);
// a policy is written only if files names one.
func newRoot(t *testing.T, files map[string]string) string {
	t.Helper()
	return testshared.Tree(t, files)
}

func lines(n int) string { return strings.Repeat("x\n", n) }

const smallPolicy = "| File | Budget | Newest tier | Notes |\n|---|---|---|---|\n| a.md | 3 lines | last 2 entries | n |\n"

// wantErr checks err against a wanted status and reason (Clean: no error).
func wantErr(t *testing.T, err error, status outcome.Status, reason outcome.Reason) {
	t.Helper()
	if got := outcome.StatusOf(err); got != status {
		t.Fatalf("status %v (%v), want %v", got, err, status)
	}
	if got := outcome.ReasonOf(err); got != reason {
		t.Fatalf("reason %q (%v), want %q", got, err, reason)
	}
}

func TestRun(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string
		root   string // relative to the made root; "" is the root
		status outcome.Status
		reason outcome.Reason
		over   int
	}{
		{name: "within", files: map[string]string{PolicyRel: smallPolicy, "a.md": lines(3)}, status: outcome.Clean},
		{name: "over", files: map[string]string{PolicyRel: smallPolicy, "a.md": lines(4)}, status: outcome.Defects, over: 1},
		{name: "missing file", files: map[string]string{PolicyRel: smallPolicy}, status: outcome.Clean},
		{name: "unmeasurable", files: map[string]string{PolicyRel: smallPolicy, "a.md/x": ""}, status: outcome.Refused},
		{name: "no policy", files: map[string]string{"a.md": ""}, status: outcome.Refused, reason: ReasonNoPolicy},
		{name: "malformed", files: map[string]string{PolicyRel: "| File | Budget | Newest tier |\n|---|---|---|\n| a.md | many | 1 |\n"}, status: outcome.Refused, reason: ReasonMalformedPolicy},
		{name: "root is a file", files: map[string]string{PolicyRel: smallPolicy, "a.md": ""}, root: "a.md", status: outcome.Usage, reason: ReasonBadRoot},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := newRoot(t, tt.files)
			res, err := Run(context.Background(), Request{Root: filepath.Join(root, tt.root)})
			if tt.reason != "" {
				wantErr(t, err, tt.status, tt.reason)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != tt.status || res.Over != tt.over || res.Root != root {
				t.Errorf("status %v, over %d, root %s; want %v, %d, %s", res.Outcome, res.Over, res.Root, tt.status, tt.over, root)
			}
		})
	}
}

func TestInit(t *testing.T) {
	today := time.Date(2026, 12, 2, 0, 0, 0, 0, time.Local)
	t.Run("fresh then again", func(t *testing.T) {
		root := newRoot(t, map[string]string{"master-memory.md": "# Master\r\nline\r\n"})
		res, err := Init(context.Background(), InitRequest{Root: root, Today: today})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Changed || len(res.Actions) != 4 || res.Budgets == nil {
			t.Errorf("first run: %+v", res)
		}
		master, _ := os.ReadFile(filepath.Join(root, "master-memory.md"))
		if !strings.Contains(string(master), "\r\n## Memory Compaction\r\n") || strings.Count(string(master), "\n") != strings.Count(string(master), "\r\n") {
			t.Errorf("master-memory.md does not have the section in CRLF:\n%q", master)
		}
		again, err := Init(context.Background(), InitRequest{Root: root, Today: today})
		if err != nil || again.Changed || len(again.Actions) != 0 {
			t.Errorf("second run: %+v, %v", again, err)
		}
	})
	t.Run("existing policy gets the note once", func(t *testing.T) {
		root := newRoot(t, map[string]string{PolicyRel: smallPolicy})
		res, err := Init(context.Background(), InitRequest{Root: root, Today: today})
		if err != nil || !res.Changed {
			t.Fatalf("%+v, %v", res, err)
		}
		b, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(PolicyRel)))
		if !strings.HasPrefix(string(b), smallPolicy) || !strings.Contains(string(b), "set up on 2026-12-02") {
			t.Errorf("policy:\n%s", b)
		}
	})
	t.Run("malformed policy writes nothing", func(t *testing.T) {
		bad := "| File | Budget | Newest tier |\n|---|---|---|\n| a.md | many | 1 |\n"
		root := newRoot(t, map[string]string{PolicyRel: bad, "master-memory.md": "# M\n"})
		_, err := Init(context.Background(), InitRequest{Root: root, Today: today})
		wantErr(t, err, outcome.Refused, ReasonMalformedPolicy)
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(SnapshotsRel))); err == nil {
			t.Error("the snapshots folder was created")
		}
		if b, _ := os.ReadFile(filepath.Join(root, "master-memory.md")); string(b) != "# M\n" {
			t.Errorf("master-memory.md changed: %q", b)
		}
	})
}

func TestSetBudget(t *testing.T) {
	two, neg := 2, -1
	tests := []struct {
		name     string
		file     string
		budget   string
		unit     string
		newest   *int
		action   string
		status   outcome.Status
		reason   outcome.Reason
		wantLine string // a line the policy must then hold
	}{
		{name: "update", file: "a.md", budget: "9", unit: "lines", action: ActionUpdated, wantLine: "| a.md | 9 lines | last 2 entries | n |"},
		{name: "unchanged", file: "a.md", budget: "3", unit: "lines", newest: &two, action: ActionUnchanged},
		{name: "add", file: "b.md", budget: "40", unit: "chars", action: ActionAdded, wantLine: "| b.md | 40 chars | last 10 entries |"},
		{name: "under compaction/", file: "compaction/x.md", budget: "3", unit: "lines", status: outcome.Refused, reason: ReasonExcluded},
		{name: "outside the root", file: "../elsewhere.md", budget: "3", unit: "lines", status: outcome.Refused, reason: ReasonOutsideRoot},
		{name: "negative newest", file: "a.md", budget: "3", unit: "lines", newest: &neg, status: outcome.Usage, reason: ReasonBadRequest},
		{name: "zero budget", file: "a.md", budget: "0", unit: "lines", status: outcome.Usage, reason: ReasonBadRequest},
		{name: "bad unit", file: "a.md", budget: "3", unit: "words", status: outcome.Usage, reason: ReasonBadRequest},
		{name: "a budget with separators, a unit in capitals", file: "b.md", budget: "1,200", unit: "Characters", action: ActionAdded, wantLine: "| b.md | 1200 chars | last 10 entries |"},
		{name: "not a number", file: "a.md", budget: "ten", unit: "lines", status: outcome.Usage, reason: ReasonBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := newRoot(t, map[string]string{PolicyRel: smallPolicy})
			res, err := SetBudget(context.Background(), SetRequest{Root: root, File: filepath.Join(root, tt.file), Budget: tt.budget, Unit: tt.unit, Newest: tt.newest})
			b, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(PolicyRel)))
			if tt.reason != "" {
				wantErr(t, err, tt.status, tt.reason)
				if string(b) != smallPolicy {
					t.Errorf("a refusal changed the policy:\n%s", b)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Action != tt.action {
				t.Errorf("action %s, want %s", res.Action, tt.action)
			}
			if tt.wantLine != "" && !strings.Contains(string(b), tt.wantLine) {
				t.Errorf("policy lacks %q:\n%s", tt.wantLine, b)
			}
			if tt.action == ActionUnchanged && string(b) != smallPolicy {
				t.Errorf("unchanged, yet the policy changed:\n%s", b)
			}
		})
	}
}
