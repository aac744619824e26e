package journal

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/memcompact/memcompact/internal/store"
)

// Retention says which snapshots prune keeps: every one of the last
// KeepAll, then the newest of each day up to KeepDaily, then the newest of
// each week; and, oldest first, drops snapshots until the objects still
// referenced fit in MaxBytes. The newest snapshot is always kept.
type Retention struct {
	KeepAll   time.Duration
	KeepDaily time.Duration
	MaxBytes  int64
}

// defaultRetention keeps two weeks whole, daily snapshots for three months,
// weekly ones after that, within 256 MiB.
var defaultRetention = Retention{KeepAll: 14 * 24 * time.Hour, KeepDaily: 90 * 24 * time.Hour, MaxBytes: 256 << 20}

// PruneRequest asks for a store's journal to be pruned.
type PruneRequest struct {
	Store     string      // the store folder or its MEMORY.md; "" for the current project's
	DataDir   string      // memcompact's data directory; "" for DataDir's
	Where     store.Where // where the current project's store and the data directory are found
	Retention Retention   // zero: defaultRetention
	DryRun    bool
	Now       func() time.Time
}

// PruneResult says what was (or, in a dry run, would be) removed.
type PruneResult struct {
	Journal        string
	Kept           int
	Removed        []string // snapshot IDs
	ObjectsRemoved int
	BytesFreed     int64
	BytesKept      int64

	DryRun bool `json:"-"` // nothing was removed
}

// RunPrune is journal prune: it applies the retention policy, then
// removes the objects no kept snapshot references. Objects younger than an
// hour are never removed, so a snapshot being taken at the same time keeps
// its bytes.
func RunPrune(ctx context.Context, req PruneRequest) (*PruneResult, error) {
	now := time.Now
	if req.Now != nil {
		now = req.Now
	}
	if req.Retention == (Retention{}) {
		req.Retention = defaultRetention
	}
	dir, data, err := resolve("journal", req.Store, req.DataDir, req.Where)
	if err != nil {
		return nil, err
	}
	j, err := open(data, dir)
	if err != nil {
		return nil, err
	}
	ms, _, err := j.manifests()
	if err != nil {
		return nil, err
	}
	res := &PruneResult{Journal: j.Dir, DryRun: req.DryRun}
	keep := chooseKept(ms, req.Retention, now())
	sizes, err := j.objectSizes()
	if err != nil {
		return nil, err
	}
	keep = fitBytes(ms, keep, sizes, req.Retention.MaxBytes)
	refs := map[string]bool{}
	for i, m := range ms {
		if keep[i] {
			res.Kept++
			for _, f := range m.Files {
				if f.Digest != "" && f.Withheld == "" {
					refs[f.Digest] = true
				}
			}
			continue
		}
		res.Removed = append(res.Removed, m.ID)
		if !req.DryRun {
			if err := os.Remove(filepath.Join(j.manifestsDir(), m.ID+".json")); err != nil && !isNotExist(err) {
				return nil, err
			}
		}
	}
	if err := j.removeObjects(ctx, sizes, refs, res, now()); err != nil {
		return nil, err
	}
	if !req.DryRun {
		removeDebris(j.manifestsDir(), now())
		if subs, err := os.ReadDir(j.objectsDir()); err == nil {
			for _, s := range subs {
				removeDebris(filepath.Join(j.objectsDir(), s.Name()), now())
			}
		}
	}
	return res, nil
}

// removeObjects removes (or, in a dry run, counts) the objects no kept
// snapshot references, except those younger than staleAfter.
func (j *Journal) removeObjects(ctx context.Context, sizes map[string]int64, refs map[string]bool, res *PruneResult, now time.Time) error {
	for d, size := range sizes {
		if err := ctx.Err(); err != nil {
			return err
		}
		if refs[d] {
			res.BytesKept += size
			continue
		}
		p := j.objectPath(d)
		if fi, err := os.Stat(p); err != nil || now.Sub(fi.ModTime()) < staleAfter {
			res.BytesKept += size
			continue
		}
		res.ObjectsRemoved++
		res.BytesFreed += size
		if !res.DryRun {
			os.Remove(p)
		}
	}
	return nil
}

// chooseKept marks the snapshots the age rules keep.
func chooseKept(ms []*Manifest, r Retention, now time.Time) []bool {
	keep := make([]bool, len(ms))
	lastDay, lastWeek := "", ""
	for i := len(ms) - 1; i >= 0; i-- { // newest first
		m := ms[i]
		age := now.Sub(m.Time)
		day := m.Time.Local().Format("2006-01-02")
		y, w := m.Time.Local().ISOWeek()
		week := time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, 7*w).Format("2006-01-02")
		switch {
		case i == len(ms)-1 || age <= r.KeepAll:
			keep[i] = true
		case age <= r.KeepDaily:
			keep[i] = day != lastDay
		default:
			keep[i] = week != lastWeek
		}
		lastDay, lastWeek = day, week
	}
	return keep
}

// fitBytes drops kept snapshots, oldest first, until the objects they
// reference fit in max (0: no cap). The newest is never dropped.
func fitBytes(ms []*Manifest, keep []bool, sizes map[string]int64, max int64) []bool {
	if max <= 0 {
		return keep
	}
	total := func() int64 {
		seen := map[string]bool{}
		var n int64
		for i, m := range ms {
			if !keep[i] {
				continue
			}
			for _, f := range m.Files {
				if f.Digest != "" && !seen[f.Digest] {
					seen[f.Digest] = true
					n += sizes[f.Digest]
				}
			}
		}
		return n
	}
	for i := 0; i < len(ms)-1 && total() > max; i++ {
		keep[i] = false
	}
	return keep
}

// objectSizes lists every stored object with its size.
func (j *Journal) objectSizes() (map[string]int64, error) {
	out := map[string]int64{}
	subs, err := os.ReadDir(j.objectsDir())
	if isNotExist(err) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	for _, s := range subs {
		if !s.IsDir() {
			continue
		}
		ents, err := os.ReadDir(filepath.Join(j.objectsDir(), s.Name()))
		if err != nil {
			continue
		}
		for _, e := range ents {
			if len(e.Name()) != 64 {
				continue
			}
			if fi, err := e.Info(); err == nil {
				out[e.Name()] = fi.Size()
			}
		}
	}
	return out, nil
}
