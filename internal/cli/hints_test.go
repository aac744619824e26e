package cli

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/lockfile"
	"github.com/memcompact/memcompact/internal/outcome"
)

// TestLockHint: a refusal for a held lock gets the command to run again in
// place of the engine's words (a lock is held for 30 s before the refusal,
// too long for a script to paste it); no command, the engine's hint stays.
func TestLockHint(t *testing.T) {
	held := func() *outcome.Error {
		return &outcome.Error{Status: outcome.Refused, Reason: lockfile.ReasonHeld, Msg: "locked", Hints: []string{"wait for the other run to finish, then run this again"}}
	}
	var ee *exitError
	if err := fail(lockHint(held(), "memcompact compact 'a b.md' --yes"), compactHints("", "x")); !errors.As(err, &ee) ||
		!slices.Equal(ee.Hints, []string{"wait for the other run to finish, then run it again: memcompact compact 'a b.md' --yes"}) {
		t.Errorf("hints = %q", ee.Hints)
	}
	if err := fail(lockHint(held(), ""), compactHints("", "")); !errors.As(err, &ee) ||
		!slices.Equal(ee.Hints, []string{"wait for the other run to finish, then run this again"}) {
		t.Errorf("without a command, hints = %q", ee.Hints)
	}
	other := &outcome.Error{Status: outcome.Refused, Reason: "other", Hints: []string{"h"}}
	if err := lockHint(other, "memcompact compact"); err != other || !slices.Equal(other.Hints, []string{"h"}) {
		t.Errorf("another refusal changed: %q", other.Hints)
	}
}

// TestKeptEntryHint: a save refused for a held lock or a malformed policy
// kept the entry; its hint says what to do first and saves the kept copy,
// paths quoted and relative to the working directory.
func TestKeptEntryHint(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	h := saveHints{file: "my notes.md", root: "."}
	got := keptEntryHint(lockfile.ReasonHeld, h, root, "compaction/unsaved/my notes-20261203-061727.md")
	want := "wait for the other run to finish, then save the entry: memcompact save 'my notes.md' --root . --entry 'compaction/unsaved/my notes-20261203-061727.md'"
	if got != want {
		t.Errorf("held lock:\n got %s\nwant %s", got, want)
	}
	got = keptEntryHint(budget.ReasonMalformedPolicy, h, root, "compaction/unsaved/n.md")
	if !strings.HasPrefix(got, "fix those lines of compaction/compaction-policy.md (a row is") || !strings.HasSuffix(got, "then save the entry: memcompact save 'my notes.md' --root . --entry compaction/unsaved/n.md") {
		t.Errorf("malformed policy: %s", got)
	}
}
