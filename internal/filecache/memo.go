package filecache

import (
	"encoding/json"
	"maps"
)

// memo is a result computed from a set of files.
type memo struct {
	Inputs   map[string]Stamp
	Recorded int64
	Data     json.RawMessage
}

// Inputs are the stamps of every file a result was computed from, taken
// before it was computed: a file that changes while the result is computed
// then no longer has its recorded stamp, and the next run recomputes.
type Inputs struct {
	stamps map[string]Stamp
	taken  int64
	ok     bool
}

// StampAll stamps paths now. A path that does not exist is stamped as
// absent (so creating it invalidates the result); one that cannot be
// stat'ed makes the inputs unusable, and nothing is recalled or
// remembered with them.
func StampAll(paths []string) Inputs { return (*Stats)(nil).StampAll(paths) }

// Recall returns the data remembered under key when it was computed from
// exactly these files, each with the stamp it has now, and every one of
// them had settled (last changed more than racyWindow before the record).
func (c *Cache) Recall(key string, in Inputs) ([]byte, bool) {
	if c == nil || !in.ok {
		return nil, false
	}
	m, ok := c.file.Memos[key]
	if !ok || !maps.Equal(m.Inputs, in.stamps) {
		return nil, false
	}
	for _, st := range in.stamps {
		if !st.settled(m.Recorded) {
			return nil, false
		}
	}
	return m.Data, true
}

// Remember records data as the result computed from in under key,
// replacing what was remembered there before.
func (c *Cache) Remember(key string, in Inputs, data []byte) {
	if c == nil || !in.ok {
		return
	}
	c.file.Memos[key] = memo{Inputs: in.stamps, Recorded: in.taken, Data: data}
	c.dirty = true
}
