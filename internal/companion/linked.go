package companion

import "sync"

// Linked holds a part an executable links in at start-up, such as the
// parser or the model maker that only memcompact-full links and the lean
// executables reach through Ask: set by the package that provides it
// (often from its init), read by the one that needs it. The zero value
// holds nothing.
type Linked[T any] struct {
	mu sync.Mutex
	v  T
}

// Set makes v the part.
func (l *Linked[T]) Set(v T) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.v = v
}

// Get returns the part (T's zero value when none was set).
func (l *Linked[T]) Get() T {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.v
}
