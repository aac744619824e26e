package sweepact

import (
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/textfile"
)

// withinStore refuses, before anything is written, a write a verb would
// make through a symlinked file or folder leading out of the store folder
// dir: a symlinked archive/ or .memcompact/, a record file that is a link
// to elsewhere. A path named outside the store (an explicit --ledger
// elsewhere) is written where it was named. Empty paths are skipped.
func withinStore(dir string, paths ...string) error {
	for _, p := range paths {
		if p == "" {
			continue
		}
		in, err := atomicfile.Inside(dir, p)
		if err != nil {
			return refusef(ReasonOutside, p, "%v", err)
		}
		if !in {
			continue
		}
		if err := atomicfile.Within(dir, p); err != nil {
			return refusef(ReasonOutside, p, "%v; nothing was written", err)
		}
	}
	return nil
}

// ownPlaces are the store's folders the sweep writes into, each named by a
// file that does not exist so the folder itself is what is checked.
func ownPlaces(dir string) []string {
	return []string{
		filepath.Join(dir, SnapshotsRel, "x"),
		filepath.Join(dir, SweepsRel, "x"),
		filepath.Join(dir, ArchiveDir, "x"),
	}
}

// appendable refuses, before anything is written, a record file a later
// append would refuse (appendRows): one that cannot be read as text, or
// whose region marker is missing or doubled. An absent file is fine: the
// first append creates it with its marker.
func appendable(rf regionFile) error {
	f, err := textfile.Read(rf.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return refusef(ReasonRecords, rf.path, "%v; nothing was written", err)
	}
	reg := records.ParseRegion(rf.path, f.Text, rf.marker)
	switch reg.State {
	case records.StateUnmarked, records.StateDuplicated:
		return refusef(ReasonRecords, rf.path, "%s; no record could be appended there, so nothing was written", reg.Why)
	}
	return nil
}

// archiveWritable refuses, before anything is written, an ARCHIVE.md that
// exists and cannot be read as text (a folder, a FIFO, binary bytes):
// demoted lines appended to it would be lost to every reader.
func archiveWritable(path string) error {
	if _, err := textfile.Read(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return refusef(ReasonRecords, path, "the archive cannot be read: %v; nothing was written", err)
	}
	return nil
}

// recordsWritable runs withinStore over paths, then appendable over each
// record file and archiveWritable over the archive ("" to skip).
func recordsWritable(dir, archive string, rfs []regionFile, paths ...string) error {
	for _, rf := range rfs {
		paths = append(paths, rf.path)
	}
	if archive != "" {
		paths = append(paths, archive)
	}
	if err := withinStore(dir, paths...); err != nil {
		return err
	}
	for _, rf := range rfs {
		if err := appendable(rf); err != nil {
			return err
		}
	}
	if archive != "" {
		return archiveWritable(archive)
	}
	return nil
}
