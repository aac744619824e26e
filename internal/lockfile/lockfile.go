// Package lockfile holds the advisory lock memcompact's own writers take on
// a memory root or store, so two memcompact processes (or two requests in
// one MCP server) never race each other between the read whose digest they
// check and the rename that replaces the file.
//
// The lock is one file named Name in the locked directory. It is not a
// memory file (it does not end in ".md" and starts with a dot) and holds
// only a line naming its current holder. The holder removes it before
// unlocking, and a waiter that wins the lock checks that the name still
// leads to the file it locked (else it tries again), so no file is left
// behind and two holders never both hold. The operating system drops the
// lock when its holder exits, even by kill -9, so a crashed run never
// leaves a store locked (only the file, which the next run reuses).
//
// Usage, from the first read to the last rename:
//
//	release, err := lockfile.Lock(ctx, root)
//	if err != nil {
//		return err // an *outcome.Error naming the holder
//	}
//	defer release()
//
// Lock is not re-entrant: a caller that already holds a directory's lock
// must not ask for it again (it would wait for itself until ctx ends).
// Foreign writers (editors, agents, shell redirections) do not know this
// lock; package atomicfile closes the window against them separately.
package lockfile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"github.com/memcompact/memcompact/internal/outcome"
)

// Name is the lock file's name inside the locked directory.
const Name = ".memcompact.lock"

// DefaultWait bounds the wait when ctx carries no deadline: long enough
// for any other run's rewrite to finish, short enough that a stuck holder
// is reported instead of hanging an agent's session.
const DefaultWait = 30 * time.Second

// retry is how often a waiter tries the lock again.
const retry = 10 * time.Millisecond

// ReasonHeld is the outcome reason of a lock that could not be had.
const ReasonHeld outcome.Reason = "locked"

// ErrHeld reports that another writer held the lock for the whole wait.
var ErrHeld = errors.New("another memcompact run holds the lock")

// Lock takes the exclusive lock of dir, waiting until ctx ends or, when
// ctx has no deadline, DefaultWait passes. It returns the function that
// releases the lock. When the lock cannot be had it returns an
// *outcome.Error (status refused, reason ReasonHeld) wrapping ErrHeld and
// naming the holder, and dir is left as it was.
func Lock(ctx context.Context, dir string) (release func() error, err error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultWait)
		defer cancel()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, Name)
	start := time.Now()
	for {
		fl := flock.New(path, flock.SetFlag(os.O_CREATE|os.O_RDWR), flock.SetPermissions(0o644))
		ok, err := fl.TryLockContext(ctx, retry)
		if err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
			return nil, fmt.Errorf("%s: cannot lock: %w", path, err)
		}
		if !ok {
			fl.Close()
			return nil, held(path, time.Since(start))
		}
		// The previous holder removes the file before it unlocks; a lock
		// won on a file that no longer has the name is no lock. Try again
		// on the file the name holds now.
		locked, serr := fl.Stat()
		named, nerr := os.Stat(path)
		if serr != nil || nerr != nil || !os.SameFile(locked, named) {
			fl.Close()
			continue
		}
		writeHolder(path)
		return func() error {
			// Removed while still held, so a refused or finished run
			// leaves no file behind, and no waiter can lock a file the
			// next holder does not see.
			_ = os.Remove(path)
			return fl.Close()
		}, nil
	}
}

// held is the refusal for a lock another writer kept for the whole wait.
func held(path string, waited time.Duration) error {
	who := Holder(path)
	if who == "" {
		who = "another memcompact run"
	}
	return &outcome.Error{
		Status: outcome.Refused,
		Reason: ReasonHeld,
		File:   path,
		Msg:    fmt.Sprintf("locked by %s; gave up after %s", who, waited.Round(time.Millisecond)),
		Hints:  []string{"wait for the other run to finish, then run this again"},
		Err:    ErrHeld,
	}
}

// Holder is the line the current holder of the lock file at path wrote
// about itself ("pid 123 on host since 2026-12-02T18:00:00Z: memcompact
// save"), or "" when none is recorded.
func Holder(path string) string {
	raw, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	s := strings.TrimSpace(string(raw))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// writeHolder records who holds the lock, so a refused waiter can say. It
// is best effort: the lock is what protects, this line only informs.
func writeHolder(path string) {
	host, _ := os.Hostname()
	// The program and its verb only: later arguments may be a memory
	// entry's text, which has no place in a file others read.
	cmd := filepath.Base(os.Args[0])
	if len(os.Args) > 1 {
		cmd += " " + os.Args[1]
	}
	line := fmt.Sprintf("pid %d on %s since %s: %s\n", os.Getpid(), host,
		time.Now().UTC().Format(time.RFC3339), cmd)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return
	}
	_, _ = f.Write([]byte(line))
	_ = f.Close()
}

// Busy reports whether another memcompact run holds dir's lock, waiting
// until ctx ends for it to be let go, and names the holder. It never takes
// the lock or creates the lock file: a reader that must not act while a
// writer rewrites the directory (the pre-write guard, judging an agent's
// write) asks this and steps aside. A lock file no one holds (left by a
// killed run) is not busy.
func Busy(ctx context.Context, dir string) (holder string, busy bool) {
	path := filepath.Join(dir, Name)
	for {
		fl := flock.New(path, flock.SetFlag(os.O_RDONLY))
		ok, err := fl.TryRLock()
		fl.Close()
		if ok || err != nil {
			// Free, no lock file at all, or a file that cannot be opened:
			// no evidence of a holder.
			return "", false
		}
		select {
		case <-ctx.Done():
			who := Holder(path)
			if who == "" {
				who = "another memcompact run"
			}
			return who, true
		case <-time.After(retry):
		}
	}
}
