package sweep

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/lockfile"
	"github.com/memcompact/memcompact/internal/textfile"
)

// WriteOutput writes a file a sweep verb makes for the owner (the
// inventory's artifact, a sweep plan) the way every memcompact writer
// writes:
//
//   - under the lock of the store it belongs to when it lies inside the
//     store folder storeDir (the lock every writer of the store takes, so
//     no sweep rewrites the store between produce's reading and the write),
//     else under the lock of its own folder (so a store that cannot be
//     written to can still be enumerated to elsewhere);
//   - never through a symlinked file or folder that leads out of the store
//     (atomicfile.ErrOutside); a path named outside the store is written
//     where the owner named it;
//   - by atomic replace behind the digest of the bytes it replaces: those
//     read just before when prior is nil, else *prior ("" for no file), the
//     digest of the copy the caller read earlier, so an edit made to the
//     file meanwhile (the owner editing a plan by hand) is refused with
//     atomicfile.ErrChanged, never overwritten.
//
// produce makes the bytes under the lock; its error is returned as it is.
// Parent folders are created only after produce succeeded, and a folder
// still to be created is not created for the lock (its nearest existing
// parent is locked), so a refusal leaves no folder behind. A lock another
// run holds is refused with lockfile's *outcome.Error naming the holder.
// It returns the digest of the bytes written.
func WriteOutput(ctx context.Context, storeDir, path string, prior *string, produce func() ([]byte, error)) (string, error) {
	in, err := atomicfile.Inside(storeDir, path)
	if err != nil {
		return "", err
	}
	lockDir := storeDir
	if !in {
		if lockDir, err = nearestExisting(filepath.Dir(path)); err != nil {
			return "", err
		}
	}
	release, err := lockfile.Lock(ctx, lockDir)
	if err != nil {
		return "", err
	}
	defer release()
	data, err := produce()
	if err != nil {
		return "", err
	}
	if in {
		if err := atomicfile.Within(storeDir, path); err != nil {
			return "", err
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	want := ""
	if prior != nil {
		want = *prior
	} else {
		switch old, err := textfile.Read(path); {
		case err == nil:
			want = old.Digest
		case !errors.Is(err, fs.ErrNotExist):
			return "", err
		}
	}
	if err := atomicfile.Replace(path, data, want); err != nil {
		return "", err
	}
	return textfile.Digest(data), nil
}

// nearestExisting returns dir, or its nearest parent that exists.
func nearestExisting(dir string) (string, error) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Lstat(d); err == nil || filepath.Dir(d) == d {
			return d, nil
		}
		d = filepath.Dir(d)
	}
}
