package journal

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/gofrs/flock"

	"github.com/memcompact/memcompact/internal/lockfile"
	"github.com/memcompact/memcompact/internal/outcome"
)

// The journal's lock: everything that stores objects or names them (a
// snapshot, a session's view of the index) holds it shared, so any number
// run side by side; prune holds it alone. A snapshot does not store again
// an object a loose copy or the newest manifest already holds, and prune
// removes the objects no kept snapshot names: without the lock, prune
// could remove an old object a snapshot running beside it had just
// decided to name instead of storing. What is locked is the journal's
// folder itself where the system allows it (lockTarget), so a first
// snapshot creates no file for it; the operating system drops the lock
// when its holder exits, even by kill -9.

// lockRetry is how often a waiter tries the lock again.
const lockRetry = 10 * time.Millisecond

// lock takes the journal's lock, shared or alone, waiting until ctx ends
// (or lockfile.DefaultWait, when ctx has no deadline); it returns the
// function that releases it. A journal whose folder is not there yet is
// not locked (see below).
func (j *Journal) lock(ctx context.Context, shared bool) (release func(), err error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, lockfile.DefaultWait)
		defer cancel()
	}
	// A journal not yet made has nothing a snapshot could rely on instead
	// of storing, nor anything for prune to remove: there is nothing to
	// lock, and making its folders (a chain of new folders, each synced)
	// is left to the snapshot, beside its reading of the store.
	if _, err := os.Stat(j.Dir); isNotExist(err) {
		return func() {}, nil
	}
	path, flag := lockTarget(j.Dir)
	fl := flock.New(path, flock.SetFlag(flag), flock.SetPermissions(0o600))
	start := time.Now()
	// One try first, whatever ctx says: a lock nobody holds is taken even
	// by a run whose time is up (it then stops, saying so, itself).
	try, wait := fl.TryLock, fl.TryLockContext
	if shared {
		try, wait = fl.TryRLock, fl.TryRLockContext
	}
	ok, err := try()
	if !ok && err == nil {
		ok, err = wait(ctx, lockRetry)
	}
	if !ok {
		fl.Close()
		if err != nil && ctx.Err() == nil {
			return nil, fmt.Errorf("%s: cannot lock the journal: %w", path, err)
		}
		holder := "a journal prune"
		if !shared {
			holder = "a snapshot"
		}
		return nil, &outcome.Error{Status: outcome.Refused, Reason: lockfile.ReasonHeld, File: path,
			Msg:   fmt.Sprintf("the journal is locked by another memcompact run (%s); gave up after %s, nothing was changed", holder, time.Since(start).Round(time.Millisecond)),
			Hints: []string{"wait for the other run to finish, then run this again"}, Err: lockfile.ErrHeld}
	}
	return func() { fl.Close() }, nil
}
