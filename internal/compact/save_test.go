package compact

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/lockfile"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/summarize"
)

const secretSave = "## 2026-12-02 10:00 — Access\n- AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n"

func TestSave(t *testing.T) {
	const entry = "## 2026-12-02 10:00 — New\n- A new fact.\n"
	tests := []struct {
		name      string
		file      string
		entry     string
		confirmed bool
		allow     bool           // AllowSecret
		status    string         // the result's
		outcome   outcome.Status // the result's, or the error's
		reason    outcome.Reason // the error's
		grows     bool           // the file then ends with the entry
	}{
		{name: "within budget", file: "topics/small.md", entry: entry, status: StatusSaved, grows: true},
		{name: "not budgeted", file: "elsewhere.md", entry: entry, status: StatusSaved, grows: true},
		{name: "new file", file: "topics/new.md", entry: entry, status: StatusSaved, grows: true},
		{name: "over budget, confirmed", file: "topics/tools.md", entry: entry, confirmed: true, status: StatusCompactedAndSaved, grows: true},
		// Save never drops the entry: without consent to compact, with no
		// entries to compact or with an entry larger than the budget, it is
		// saved and the file reported over budget.
		{name: "over budget, not confirmed", file: "topics/tools.md", entry: entry, status: StatusSavedOverBudget, outcome: outcome.Defects, grows: true},
		{name: "over budget, no entries", file: "topics/prose.md", entry: "x\n", confirmed: true, status: StatusSavedOverBudget, outcome: outcome.Defects, grows: true},
		{name: "entry beyond any budget", file: "topics/prose.md", entry: strings.Repeat("line\n", 6), status: StatusSavedOverBudget, outcome: outcome.Defects, grows: true},
		// A secret is refused (kept in compaction/unsaved/) unless allowed.
		{name: "secret", file: "topics/small.md", entry: secretSave, status: StatusNotSaved, outcome: outcome.Refused},
		{name: "secret allowed", file: "topics/small.md", entry: secretSave, allow: true, status: StatusSaved, grows: true},
		{name: "empty entry", file: "topics/small.md", entry: " \n\n", outcome: outcome.Usage, reason: ReasonBadRequest},
		{name: "NUL byte", file: "topics/small.md", entry: "a\x00b", outcome: outcome.Usage, reason: ReasonBadRequest},
		{name: "not UTF-8", file: "topics/small.md", entry: "a\xffb", outcome: outcome.Usage, reason: ReasonBadRequest},
		{name: "into compaction/", file: "compaction/notes.md", entry: entry, outcome: outcome.Refused, reason: budget.ReasonExcluded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := runRoot(t)
			path := filepath.Join(root, filepath.FromSlash(tt.file))
			before, _ := os.ReadFile(path)
			res, err := Save(context.Background(), SaveRequest{Root: root, File: path, Entry: []byte(tt.entry), EntryName: "the entry",
				Timeout: summarize.DefaultTimeout, Confirmed: tt.confirmed, AllowSecret: tt.allow, Today: today, Now: now})
			after, _ := os.ReadFile(path)
			if tt.reason != "" {
				if outcome.StatusOf(err) != tt.outcome || outcome.ReasonOf(err) != tt.reason {
					t.Fatalf("err %v (%q), want status %v reason %q", err, outcome.ReasonOf(err), tt.outcome, tt.reason)
				}
			} else if err != nil {
				t.Fatal(err)
			} else if res.Status != tt.status || res.Outcome != tt.outcome {
				t.Errorf("status %s, outcome %v; want %s, %v", res.Status, res.Outcome, tt.status, tt.outcome)
			}
			if grew := strings.HasSuffix(string(after), tt.entry) && string(after) != string(before); grew != tt.grows {
				t.Errorf("the entry was saved: %v, want %v\n%s", grew, tt.grows, after)
			}
			if !tt.grows && string(after) != string(before) {
				t.Error("the file changed, yet the entry was not saved")
			}
			if res != nil && res.Status == StatusNotSaved {
				kept, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(res.Unsaved)))
				if err != nil || string(kept) != tt.entry || res.Reason != ReasonEntrySecret || len(res.Secrets) == 0 {
					t.Errorf("not saved, kept in %q (%v): %q, reason %q", res.Unsaved, err, kept, res.Reason)
				}
			}
			if res != nil && res.Status == StatusCompactedAndSaved && (res.Compaction == nil || res.Size > res.Budget) {
				t.Errorf("compacted and saved, yet %d/%d %s", res.Size, res.Budget, res.Unit)
			}
		})
	}
}

// TestSaveKeepsTheEntryWhenLocked: a save that gives up on a lock another
// run holds keeps the entry in compaction/unsaved/ (an entry given on
// standard input exists nowhere else), says where, and leaves the file as
// it was.
func TestSaveKeepsTheEntryWhenLocked(t *testing.T) {
	const entry = "## 2026-12-02 10:00 — New\n- A fact said once, on standard input.\n"
	root := runRoot(t)
	path := filepath.Join(root, "topics", "small.md")
	before, _ := os.ReadFile(path)
	release, err := lockfile.Lock(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	res, err := Save(ctx, SaveRequest{Root: root, File: path, Entry: []byte(entry), EntryName: "the entry",
		Timeout: summarize.DefaultTimeout, Today: today, Now: now})
	if outcome.ReasonOf(err) != lockfile.ReasonHeld || outcome.StatusOf(err) != outcome.Refused {
		t.Fatalf("err %v (%q), want a refusal for the held lock", err, outcome.ReasonOf(err))
	}
	if res == nil || res.Unsaved == "" || !strings.Contains(err.Error(), res.Unsaved) {
		t.Fatalf("the refusal does not say where the entry is: %v (%+v)", err, res)
	}
	kept, rerr := os.ReadFile(filepath.Join(root, filepath.FromSlash(res.Unsaved)))
	if rerr != nil || string(kept) != entry {
		t.Errorf("kept in %s (%v): %q, want the entry", res.Unsaved, rerr, kept)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("the file changed under a lock another run held")
	}
}
