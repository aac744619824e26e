package filecache

import (
	"errors"
	"io/fs"
	"os"
	"sync"
)

// Stats is one run's stat of each file. A session-start hook asks about
// every file of the store four times — the journal's walk, the entry
// reads', the secret scan's and the sweep figure's cache checks — and on
// an unchanged store those stats are most of its system calls; sharing one
// Stats between them makes it one stat per file per run.
//
// It is for one run only, never kept: a file that changes during the run
// is seen as it was at the run's first stat of it, as if the run had
// started a moment earlier. A run that also shares a read table stats a
// file before it reads it (textfile.Reads.Before), so a file written
// between the two pairs an old stamp with new bytes, and the next run
// looks again. Safe for concurrent use; a nil *Stats stats every time.
type Stats struct {
	mu    sync.Mutex
	m     map[string]*statResult
	stat  func(string) (fs.FileInfo, error)
	asked map[string]int
}

// statResult is one path's stat; done is waited on by whoever asks while
// the first asker's stat is under way (the table is not locked during a
// stat, so a walk can stat many files side by side).
type statResult struct {
	done sync.WaitGroup
	fi   fs.FileInfo
	err  error
}

// NewStats returns an empty table for one run.
func NewStats() *Stats { return NewStatsWith(os.Stat) }

// NewStatsWith is NewStats over another stat function (tests count the
// calls).
func NewStatsWith(stat func(string) (fs.FileInfo, error)) *Stats {
	return &Stats{m: map[string]*statResult{}, stat: stat, asked: map[string]int{}}
}

// Asked is how many times the run asked for path's stat: a test's proof
// that the run's parts share the table.
func (s *Stats) Asked(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.asked[path]
}

// Stat is os.Stat of path (following symbolic links), asked of the file
// system once per run.
func (s *Stats) Stat(path string) (fs.FileInfo, error) {
	if s == nil {
		return os.Stat(path)
	}
	s.mu.Lock()
	s.asked[path]++
	if r, ok := s.m[path]; ok {
		s.mu.Unlock()
		r.done.Wait()
		return r.fi, r.err
	}
	r := &statResult{}
	r.done.Add(1)
	s.m[path] = r
	s.mu.Unlock()
	r.fi, r.err = s.stat(path)
	r.done.Done()
	return r.fi, r.err
}

// StampOf is the package's StampOf through the table.
func (s *Stats) StampOf(path string) (Stamp, bool) {
	fi, err := s.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Stamp{Absent: true}, true
	}
	if err != nil {
		return Stamp{}, false
	}
	return StampInfo(fi), true
}

// StampAll is the package's StampAll through the table.
func (s *Stats) StampAll(paths []string) Inputs {
	in := Inputs{stamps: make(map[string]Stamp, len(paths)), taken: now(), ok: true}
	for _, p := range paths {
		st, ok := s.StampOf(p)
		if !ok {
			return Inputs{}
		}
		in.stamps[p] = st
	}
	return in
}
