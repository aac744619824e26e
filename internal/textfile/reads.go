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
	mu   sync.Mutex
	m    map[string]*readOnce
	read func(string) (*File, error)
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
	e.once.Do(func() { e.f, e.err = r.read(path) })
	return e.f, e.err
}
