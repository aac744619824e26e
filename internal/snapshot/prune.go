package snapshot

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/textfile"
)

// Retention is the rule that prunes a file's old snapshots. A snapshot is
// never pruned when
//
//   - a block or a catalogue names it (any Markdown file of the root that
//     is not itself a snapshot holds its name): it is where a block's
//     distilled lines live;
//   - it holds a line found nowhere else: in no snapshot of the file that
//     stays, and not in a live file of that name;
//   - it is one of the KeepLast newest of its file.
//
// Of the rest, the newest of each day of the last KeepDays days and of
// each week of the last KeepWeeks weeks stay as restore points while the
// file's snapshots take at most CapBytes on disk; everything else is
// pruned. A named snapshot is kept past the cap, and the result says so.
type Retention struct {
	KeepLast  int
	KeepDays  int
	KeepWeeks int
	CapBytes  int64
}

// DefaultRetention is the rule compact runs after each rewrite.
var DefaultRetention = Retention{KeepLast: 5, KeepDays: 7, KeepWeeks: 8, CapBytes: 1 << 20}

// Pruned is what a prune removed and why the rest stayed.
type Pruned struct {
	Removed []string `json:"removed,omitempty"` // snapshot names, oldest first
	Bytes   int64    `json:"bytes_freed,omitempty"`
	// Kept counts the snapshots left; Named those a block or catalogue
	// names, Unique those holding a line found nowhere else.
	Kept   int `json:"kept"`
	Named  int `json:"named"`
	Unique int `json:"unique_lines"`
	// Stored is the stored bytes of the file's snapshots after the prune;
	// OverCap says they are past the cap only because of snapshots that
	// must stay.
	Stored  int64 `json:"stored_bytes"`
	OverCap bool  `json:"over_cap,omitempty"`
	// Skipped says why nothing was pruned, when the rule could not be
	// judged (a Markdown file that could not be read, a damaged snapshot).
	Skipped string `json:"skipped,omitempty"`
}

// Prune applies rule to the snapshots of file (root-relative) in the
// root's snapshots folder, at now. The caller holds the root's lock. A
// snapshot stored as the changes from one pruned is first stored again
// against the nearest older snapshot that stays (or whole), verified, so
// every snapshot left rebuilds byte for byte; only then are the pruned
// ones removed. When the rule cannot be judged, nothing is pruned.
func Prune(root, file string, now time.Time, rule Retention) (*Pruned, error) {
	dir := filepath.Join(root, filepath.FromSlash(budget.SnapshotsRel))
	base := Base(file)
	list, err := List(dir, base)
	if err != nil {
		return nil, err
	}
	res := &Pruned{}
	for _, in := range list {
		res.Stored += in.Stored
		if in.Damaged != "" {
			res.Kept, res.Skipped = len(list), fmt.Sprintf("%s cannot be rebuilt (%s)", in.Name, in.Damaged)
			return res, nil
		}
	}
	keep := rule.protect(list)
	if len(keep) == len(list) {
		res.Kept = len(list)
		return res, nil
	}
	// Most candidates of a file compacted for long are named by its
	// catalogue: when every one is, the root need not be read.
	if cats := catalogues(dir); len(cats) > 0 {
		all := true
		for i, in := range list {
			if !keep[i] && !mentioned(cats, in.Name) {
				all = false
				break
			}
		}
		if all {
			res.Kept = len(list)
			for _, in := range list {
				if mentioned(cats, in.Name) {
					res.Named++
				}
			}
			return res, nil
		}
	}
	texts, err := markdownTexts(root, dir)
	if err != nil {
		res.Kept, res.Skipped = len(list), err.Error()
		return res, nil
	}
	named := map[string]bool{}
	for i, in := range list {
		if mentioned(texts.all, in.Name) {
			named[in.Name], keep[i] = true, true
		}
	}
	r := NewReader(dir)
	drop := rule.choose(list, keep, r, texts.live[base], now, res)
	for _, in := range list {
		if named[in.Name] {
			res.Named++
		}
	}
	if len(drop) == 0 {
		res.Kept = len(list)
		return res, nil
	}
	if err := rebase(r, list, drop); err != nil {
		res.Kept = len(list)
		return res, err
	}
	res.Stored = 0
	for i, in := range list {
		if !drop[i] {
			res.Kept++
			res.Stored += in.Stored
			continue
		}
		if err := os.Remove(in.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return res, err
		}
		res.Removed = append(res.Removed, in.Name)
		res.Bytes += in.Stored
	}
	res.OverCap = rule.CapBytes > 0 && res.Stored > rule.CapBytes
	return res, atomicfile.SyncDir(dir)
}

// protect marks the snapshots kept for their age alone: the newest
// KeepLast. (Restore points, which the cap may still drop, are choose's.)
func (rule Retention) protect(list []Info) map[int]bool {
	keep := map[int]bool{}
	for i := len(list) - 1; i >= 0 && i >= len(list)-rule.KeepLast; i-- {
		keep[i] = true
	}
	return keep
}

// restorePoint reports whether list[i] is the newest of its day within
// KeepDays of now or of its week within KeepWeeks.
func (rule Retention) restorePoint(list []Info, i int, now time.Time) bool {
	t := list[i].Taken
	newestOf := func(same func(a, b time.Time) bool) bool {
		for _, o := range list[i+1:] {
			if same(o.Taken, t) {
				return false
			}
		}
		return true
	}
	day := func(a, b time.Time) bool { return a.Format("2006-01-02") == b.Format("2006-01-02") }
	week := func(a, b time.Time) bool {
		ay, aw := a.ISOWeek()
		by, bw := b.ISOWeek()
		return ay == by && aw == bw
	}
	age := now.Sub(t)
	return age < time.Duration(rule.KeepDays)*24*time.Hour && newestOf(day) ||
		age < time.Duration(rule.KeepWeeks)*7*24*time.Hour && newestOf(week)
}

// choose decides what to drop: oldest first, a snapshot not kept is
// dropped unless it holds a line no kept snapshot and no live file holds
// (then it is kept, and its lines cover later ones); restore points are
// dropped only while the snapshots are past the cap.
func (rule Retention) choose(list []Info, keep map[int]bool, r *Reader, live []string, now time.Time, res *Pruned) map[int]bool {
	covered := map[string]bool{}
	addLines := func(b string) {
		for _, l := range textfile.Lines(b) {
			covered[strings.TrimRight(l, "\r\n")] = true
		}
	}
	for _, t := range live {
		addLines(t)
	}
	for i := range list {
		if keep[i] {
			b, _ := r.Read(list[i].Name)
			addLines(string(b))
		}
	}
	var total int64
	for _, in := range list {
		total += in.Stored
	}
	drop := map[int]bool{}
	for i := range list {
		if keep[i] {
			continue
		}
		b, _ := r.Read(list[i].Name)
		unique := false
		for _, l := range textfile.Lines(string(b)) {
			if t := strings.TrimRight(l, "\r\n"); strings.TrimSpace(t) != "" && !covered[t] {
				unique = true
				break
			}
		}
		if unique {
			res.Unique++
			addLines(string(b))
			continue
		}
		if rule.restorePoint(list, i, now) && (rule.CapBytes <= 0 || total <= rule.CapBytes) {
			continue
		}
		drop[i] = true
		total -= list[i].Stored
	}
	return drop
}

// rebase stores again, against the nearest older snapshot that stays (or
// whole), every snapshot that stays but is stored as the changes from one
// that goes. Each is replaced atomically and rebuilt to its digest before
// the next; a failure stops the prune with every snapshot as it was or
// rebuilt.
func rebase(r *Reader, list []Info, drop map[int]bool) error {
	for i, in := range list {
		if drop[i] || in.Delta == "" {
			continue
		}
		onDropped := false
		for j := range list {
			if drop[j] && list[j].Name == in.Delta {
				onDropped = true
			}
		}
		if !onDropped {
			continue
		}
		data, err := r.Read(in.Name)
		if err != nil {
			return err
		}
		newBase := ""
		for j := i - 1; j >= 0; j-- {
			if !drop[j] {
				newBase = list[j].Name
				break
			}
		}
		old, err := os.ReadFile(in.Path)
		if err != nil {
			return err
		}
		enc := r.encodeFor(newBase, data)
		if err := atomicfile.Replace(in.Path, enc, textfile.Digest(old)); err != nil {
			return fmt.Errorf("%s: %w; nothing was pruned", in.Name, err)
		}
		r.forget(in.Name)
		back, err := NewReader(r.dir).Read(in.Name)
		if err != nil || textfile.Digest(back) != textfile.Digest(data) {
			_ = atomicfile.Replace(in.Path, old, textfile.Digest(enc))
			r.forget(in.Name)
			return fmt.Errorf("%s: stored again, it did not rebuild; it was put back and nothing was pruned", in.Name)
		}
		list[i].Delta, list[i].Stored = "", int64(len(enc))
		if len(enc) != len(data) || string(enc) != string(data) {
			list[i].Delta = newBase
		}
	}
	return nil
}

// texts are the Markdown files of a root a prune reads: all of them (but
// the snapshots), and the live ones by snapshot base name.
type texts struct {
	all  []string
	live map[string][]string
}

// markdownTexts reads every Markdown file of root that is not a snapshot
// (catalogues are read; folders whose names begin with "." are not). A
// file that cannot be read is an error: a name it may hold is unknown.
func markdownTexts(root, snapDir string) (*texts, error) {
	out := &texts{live: map[string][]string{}}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !strings.HasSuffix(strings.ToLower(d.Name()), ".md") {
			return nil
		}
		inSnaps := filepath.Dir(p) == snapDir
		if _, _, _, _, ok := ParseName(d.Name()); ok && inSnaps {
			return nil
		}
		f, err := textfile.Read(p)
		if err != nil {
			return err
		}
		out.all = append(out.all, f.Text)
		if rel, err := filepath.Rel(root, p); err == nil && !budget.Excluded(filepath.ToSlash(rel)) {
			out.live[Base(rel)] = append(out.live[Base(rel)], f.Text)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("the blocks and catalogues that name snapshots cannot all be read (%v), so none was pruned", err)
	}
	return out, nil
}

// catalogues are the texts of the catalogues in dir (those that can be
// read: one that cannot is read again, and judged, with the whole root).
func catalogues(dir string) []string {
	ents, _ := os.ReadDir(dir)
	var out []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), "-catalogue.md") && e.Type().IsRegular() {
			if f, err := textfile.Read(filepath.Join(dir, e.Name())); err == nil {
				out = append(out, f.Text)
			}
		}
	}
	return out
}

// mentioned reports whether any text names the snapshot name.
func mentioned(all []string, name string) bool {
	for _, t := range all {
		if strings.Contains(t, name) {
			return true
		}
	}
	return false
}
