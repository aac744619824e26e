package cli

import (
	"errors"
	"slices"
	"testing"

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
