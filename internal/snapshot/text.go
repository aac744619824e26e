package snapshot

import (
	"fmt"
	"io"
)

// WritePreviewText prints what a restore is about to do, the line shown
// before asking: the snapshot, when it was taken and its size, and the
// file as it is now.
func (r *RestoreResult) WritePreviewText(w io.Writer) {
	now := "does not exist"
	if r.Exists {
		now = fmt.Sprintf("is %d lines, %d bytes", r.CurrentLines, r.CurrentBytes)
	}
	fmt.Fprintf(w, "Snapshot %s, taken %s: %d lines, %d bytes. %s %s now.\n", r.Snapshot, r.Taken, r.Lines, r.Bytes, r.File, now)
}

// WriteText prints what a restore did: nothing (the file was already
// identical), or the file restored and the snapshot of the version it
// replaced, which undoes it.
func (r *RestoreResult) WriteText(w io.Writer) {
	switch {
	case r.Status == StatusUnchanged:
		fmt.Fprintf(w, "%s is already identical to the snapshot; nothing to do.\n", r.File)
	case r.SafetySnapshot != "":
		fmt.Fprintf(w, "Restored %s from %s.\nThe version it replaced is in %s; restore that to undo.\n", r.File, r.Snapshot, r.SafetySnapshot)
	default:
		fmt.Fprintf(w, "Restored %s from %s.\n", r.File, r.Snapshot)
	}
}

// WriteText prints the catalogue, one snapshot a line (path, date, lines,
// bytes), or that there are none (of the file asked about).
func (res *CatalogResult) WriteText(w io.Writer) {
	switch {
	case res.Shown != "":
		io.WriteString(w, res.Content)
	case len(res.Snapshots) > 0:
		for _, s := range res.Snapshots {
			fmt.Fprintf(w, "%s  %s  %d lines  %d bytes", s.Path, s.Date, s.Lines, s.Bytes)
			switch {
			case s.Damaged != "":
				fmt.Fprintf(w, "  DAMAGED: %s", s.Damaged)
			case s.Delta != "":
				fmt.Fprintf(w, "  (stored as %d bytes of changes from %s)", s.Stored, s.Delta)
			}
			fmt.Fprintln(w)
		}
	case res.File != "":
		fmt.Fprintf(w, "No snapshots of %s.\n", res.File)
	default:
		fmt.Fprintln(w, "No snapshots.")
	}
}
