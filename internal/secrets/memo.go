package secrets

import "sync"

// Memo shares one scan of each text between the parts of one run: a
// session-start hook's journal asks of every file it stores whether it
// holds a secret (Contains), and its diagnosis scans the same files for
// findings; on a first session each file was scanned twice, a fifth of the
// run. The memo scans a text once, fully, whichever part asks first, and
// answers both from that (Contains is "the full scan found something",
// which is what the early-stopping scan answers too). It keeps the texts
// it saw, so it is for one run only. Safe for concurrent use; a nil *Memo
// scans every time.
type Memo struct {
	mu sync.Mutex
	m  map[string]*memoScan
}

type memoScan struct {
	once sync.Once
	hits []hit
}

// NewMemo returns an empty memo for one run.
func NewMemo() *Memo { return &Memo{m: map[string]*memoScan{}} }

// Contains is the package's Contains through the memo.
func (m *Memo) Contains(text string) bool {
	if m == nil {
		return Contains(text)
	}
	return len(m.hits(text)) > 0
}

// hits is scan(text, false), once per text.
func (m *Memo) hits(text string) []hit {
	if m == nil {
		return scan(text, false)
	}
	m.mu.Lock()
	e := m.m[text]
	if e == nil {
		e = &memoScan{}
		m.m[text] = e
	}
	m.mu.Unlock()
	e.once.Do(func() { e.hits = scan(text, false) })
	return e.hits
}
