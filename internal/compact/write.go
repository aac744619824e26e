package compact

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/snapshot"
	"github.com/memcompact/memcompact/internal/textfile"
)

// Write takes the snapshot and replaces the file. If another snapshot took
// the planned name meanwhile, the block is re-rendered with the new name
// and verified again.
func (pl *Plan) Write() error {
	if pl.Report.Status != StatusCompacted {
		return fmt.Errorf("compact: nothing to write for %s (%s)", pl.o.Rel, pl.Report.Status)
	}
	// Neither the file nor its snapshot may land outside the root through
	// a symlinked file or directory.
	for _, p := range []string{pl.abs, pl.snapDir} {
		if err := atomicfile.Within(pl.o.Root, p); err != nil {
			return fmt.Errorf("%s: %w; nothing was written", pl.o.Rel, err)
		}
	}
	// A file already changed needs no snapshot: the replace would refuse.
	if err := atomicfile.Unchanged(pl.abs, pl.orig.Digest); err != nil {
		return fmt.Errorf("%s: %w; nothing was written", pl.o.Rel, err)
	}
	got, err := snapshot.TakeStored(pl.snapDir, pl.o.Rel, pl.snapAbs, pl.orig.Raw, pl.o.Today, pl.o.Now)
	if err != nil {
		return fmt.Errorf("snapshot of %s: %w; the file was not changed", pl.o.Rel, err)
	}
	if got != pl.snapAbs {
		pl.snapAbs = got
		newText, block, _ := pl.assemble(pl.snapRel(), pl.lighten)
		if pl.finish(newText, block); pl.Report.Status != StatusCompacted {
			return fmt.Errorf("%s: %s", pl.o.Rel, pl.Report.Message)
		}
	}
	data := pl.newText + pl.o.Append
	if pl.orig.HasBOM {
		data = textfile.BOM + data
	}
	undo, err := pl.writeCatalogue()
	if err != nil {
		os.Remove(pl.snapAbs)
		return fmt.Errorf("%s: %w; the file was not changed and no snapshot was kept", pl.o.Rel, err)
	}
	if err := atomicfile.Replace(pl.abs, []byte(data), pl.orig.Digest); err != nil {
		// A refused compaction leaves no snapshot: the file was not
		// changed, so the snapshot would only be a copy of nothing done.
		os.Remove(pl.snapAbs)
		undo()
		return fmt.Errorf("%s: %w; the file was not changed and no snapshot was kept", pl.o.Rel, err)
	}
	pl.prune()
	return nil
}

// prune applies the retention rule to the file's snapshots once the file
// is written: what it removed, or why it could not judge, goes in the
// report (nothing, when it removed nothing). A prune that fails leaves the
// compaction written.
func (pl *Plan) prune() {
	// The rule's clock is the one snapshot names are taken with: today's
	// date (MEMCOMPACT_TODAY) at the time of day.
	t, n := pl.o.Today, pl.o.Now
	at := time.Date(t.Year(), t.Month(), t.Day(), n.Hour(), n.Minute(), n.Second(), 0, time.Local)
	p, err := snapshot.Prune(pl.o.Root, pl.o.Rel, at, snapshot.DefaultRetention)
	if err != nil {
		if p == nil {
			p = &snapshot.Pruned{}
		}
		p.Skipped = err.Error()
	}
	if len(p.Removed) > 0 || p.Skipped != "" || p.OverCap {
		pl.Report.Pruned = p
	}
}

// writeCatalogue writes the catalogue the new block names (see
// provenance.go) before the file is replaced: every earlier snapshot and
// this round's. undo puts the catalogue back as it was, for a replace that
// fails.
func (pl *Plan) writeCatalogue() (undo func(), err error) {
	undo = func() {}
	if pl.prov.catalogue == "" {
		return undo, nil
	}
	abs := filepath.Join(pl.o.Root, filepath.FromSlash(pl.prov.catalogue))
	if err := atomicfile.Within(pl.o.Root, abs); err != nil {
		return undo, err
	}
	old, rerr := textfile.Read(abs)
	digest, merged := "", []string(nil)
	if rerr == nil {
		digest, merged = old.Digest, mergedLines(old.Text)
	}
	// The block's period lines merged into longer periods this round
	// are named, with the snapshot holding them as they were.
	if pl.kept != "" {
		merged = append(merged, mergeNotes(periods(strings.Split(pl.kept, "\n")), periods(pl.bullets), pl.o.Today.Format("2006-01-02"), pl.snapRel())...)
	}
	text := catalogueText(pl.o.Rel, appendNew(append([]string(nil), pl.prov.listed...), pl.snapRel()), merged)
	if err := atomicfile.Replace(abs, []byte(text), digest); err != nil {
		return undo, fmt.Errorf("catalogue %s: %w", pl.prov.catalogue, err)
	}
	return func() {
		if old == nil {
			os.Remove(abs)
			return
		}
		_ = atomicfile.Replace(abs, old.Raw, textfile.Digest([]byte(text)))
	}, nil
}

// NewText is the rewritten file (without a BOM and without Append).
func (pl *Plan) NewText() string { return pl.newText }

func (pl *Plan) snapRel() string {
	if pl.snapAbs == "" {
		return ""
	}
	return budget.SnapshotsRel + "/" + filepath.Base(pl.snapAbs)
}
