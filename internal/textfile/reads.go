package textfile

import "sync"

// Reads is one run's read of each file. A first session start reads every
// store file in four parts — the journal (to store it), the entry reads
// (frontmatter), the secrets scan and the sweep figure (the entry's body)
// — and each read is a stat, an open, a read, a SHA-256 and a decode;
// sharing one Reads between them reads each file once.
//
// It is for one run only, never kept (it holds every text it read): a
// file that changes during the run is seen by every part as it was when
// the run first read it, as if the run had started a moment earlier. Safe
// for concurrent use; a nil *Reads reads every time.
type Reads struct {
	mu     sync.Mutex
	m      map[string]*readOnce
	read   func(string) (*File, error)
	before func(string)
}

type readOnce struct {
	once sync.Once
	f    *File
	err  error
}

// NewReads returns an empty table for one run.
func NewReads() *Reads { return NewReadsWith(Read) }

// NewReadsWith is NewReads over another read function (tests count the
// calls).
func NewReadsWith(read func(string) (*File, error)) *Reads {
	return &Reads{m: map[string]*readOnce{}, read: read}
}

// Before makes f run before each path's one read, and returns r. A run
// that shares a stat table makes f the table's stat, so that every part
// of the run sees a file's stat taken before its bytes: a file written
// between the two then carries a stamp older than its bytes, and the next
// run looks at it again. The other order would pair a new stamp with old
// bytes, which a later run would trust without reading (the journal's
// unchanged-file shortcut, a settled cache record).
func (r *Reads) Before(f func(path string)) *Reads {
	r.before = f
	return r
}

// Read is the package's Read of path, done once per run. The File is
// shared: callers must not change it.
func (r *Reads) Read(path string) (*File, error) {
	if r == nil {
		return Read(path)
	}
	r.mu.Lock()
	e := r.m[path]
	if e == nil {
		e = &readOnce{}
		r.m[path] = e
	}
	r.mu.Unlock()
	e.once.Do(func() {
		if r.before != nil {
			r.before(path)
		}
		e.f, e.err = r.read(path)
	})
	return e.f, e.err
}
