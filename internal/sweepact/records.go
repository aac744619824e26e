package sweepact

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/textfile"
)

// field makes prose safe for a record field: no pipe (a pipe is a field
// boundary, and a record with the wrong field count is malformed), no line
// break, never empty.
func field(s string) string {
	s = strings.NewReplacer("|", "/", "\r", " ", "\n", " ").Replace(strings.TrimSpace(s))
	if s == "" {
		return "none"
	}
	return s
}

// LedgerRow renders one ledger record.
func LedgerRow(date records.Date, status, disposition, identity, reason, destination string) string {
	return strings.Join([]string{date.String(), status, disposition, identity, field(reason), field(destination)}, " | ")
}

// SlateRow renders one slate row.
func SlateRow(date records.Date, identity, track, value, detail string) string {
	return strings.Join([]string{date.String(), identity, track, value, field(detail)}, " | ")
}

// regionFile describes a record file the sweep appends to.
type regionFile struct {
	path, marker, title string
}

func ledgerFile(path string) regionFile {
	return regionFile{path, records.LedgerMarker, "# Exit record\n\nWhat the sweep did and what sessions proposed, one record per line, appended; see the store's POLICY.md.\n"}
}

func slateFile(path string) regionFile {
	return regionFile{path, records.SlateMarker, "# Slate state\n\nCritical flags, deferrals and landings of entries still in the index, one row per change, appended.\n"}
}

// appendRows appends record lines to a record file's open-ended region
// with one O_APPEND write and an fsync, creating the file (with its marker)
// when it is absent. A file without its marker, or with two, is refused:
// rows appended there would be read by nobody, or by a reader that cannot
// tell which region governs. A missing final newline is supplied so a row
// never joins the last line.
func appendRows(rf regionFile, rows ...string) error {
	if len(rows) == 0 {
		return nil
	}
	data := strings.Join(rows, "\n") + "\n"
	f, err := textfile.Read(rf.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		head := rf.title + "\n" + rf.marker + "\n"
		if err := atomicfile.CreateExclusive(rf.path, []byte(head)); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s: %w", rf.path, err)
		}
		if f, err = textfile.Read(rf.path); err != nil {
			return fmt.Errorf("%s: %w", rf.path, err)
		}
	case err != nil:
		return fmt.Errorf("%s: %w", rf.path, err)
	}
	reg := records.ParseRegion(rf.path, f.Text, rf.marker)
	switch reg.State {
	case records.StateUnmarked, records.StateDuplicated:
		return fmt.Errorf("%s: %s; nothing was appended", rf.path, reg.Why)
	}
	if len(f.Raw) > 0 && f.Raw[len(f.Raw)-1] != '\n' && f.Raw[len(f.Raw)-1] != '\r' {
		data = "\n" + data
	}
	return atomicfile.Append(rf.path, []byte(data))
}

// archiveFile is ARCHIVE.md's title, written when the first demotion
// creates it.
const archiveTitle = "# Archive\n\nDemoted and removed pointers, booked as accepted recall loss. Nothing here is loaded at session start; `memcompact sweep restore` brings one back.\n"

// appendArchive appends pointer lines to ARCHIVE.md under a dated heading,
// creating the file at its first use. It is an append, so the archive's
// history is never rewritten.
func appendArchive(path, heading string, lines []string) error {
	if len(lines) == 0 {
		return nil
	}
	var b strings.Builder
	f, err := textfile.Read(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		b.WriteString(archiveTitle)
	case err != nil:
		return fmt.Errorf("%s: %w", path, err)
	case len(f.Raw) > 0 && f.Raw[len(f.Raw)-1] != '\n':
		b.WriteString("\n")
	}
	if err == nil && lastHeading(f.Text) == heading {
		// Same dated heading: continue under it.
	} else {
		b.WriteString("\n" + heading + "\n\n")
	}
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	if errors.Is(err, fs.ErrNotExist) {
		if err := atomicfile.CreateExclusive(path, []byte(b.String())); err == nil {
			return nil
		} else if !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s: %w", path, err)
		}
		return appendArchive(path, heading, lines) // another writer created it meanwhile
	}
	return atomicfile.Append(path, []byte(b.String()))
}

func lastHeading(text string) string {
	last := ""
	for _, l := range textfile.Lines(text) {
		if strings.HasPrefix(l, "## ") {
			last = strings.TrimSpace(l)
		}
	}
	return last
}

// moveBody moves an entry file into the store's archive folder, never over
// an existing file (a second archived life of a name gets a numbered name).
// It returns the new path.
func moveBody(from, archiveDir, name string) (string, error) {
	if err := os.MkdirAll(archiveDir, 0o755); err != nil {
		return "", err
	}
	to := archiveDir + string(os.PathSeparator) + name + ".md"
	for k := 2; fileExists(to); k++ {
		to = fmt.Sprintf("%s%c%s.%d.md", archiveDir, os.PathSeparator, name, k)
	}
	if err := os.Link(from, to); err != nil {
		// No hard links here: rename, which is atomic on one file system.
		if err := os.Rename(from, to); err != nil {
			return "", err
		}
		return to, nil
	}
	return to, os.Remove(from)
}

// rowLog is the rows one run appended to a record file, so a writer that
// replaced the file meanwhile (an editor, an agent rewriting LEDGER.md
// without the store's lock) loses none of them: ensure re-reads the file
// and appends again every row of the run it no longer carries. Rows are
// identified by their text and only ever appended, never overwritten.
type rowLog struct {
	rf       regionFile
	rows     []string
	repaired int
}

// add appends rows and remembers them.
func (l *rowLog) add(rows ...string) error {
	if err := appendRows(l.rf, rows...); err != nil {
		return err
	}
	l.rows = append(l.rows, rows...)
	return nil
}

// ensureHook, when set (by tests), runs at each ensure before the file is
// re-read, with the step's name.
var ensureHook func(step string)

// ensure re-reads the file and appends every row of the run it no longer
// carries, until a read finds them all (a writer still racing gets a few
// rounds). It returns how many rows it appended again.
func (l *rowLog) ensure(step string) (int, error) {
	if ensureHook != nil {
		ensureHook(step)
	}
	total := 0
	for round := 0; round < 5; round++ {
		missing, err := l.missing()
		if err != nil || len(missing) == 0 {
			return total, err
		}
		if err := appendRows(l.rf, missing...); err != nil {
			return total, err
		}
		total += len(missing)
		l.repaired += len(missing)
	}
	return total, nil
}

// missing lists the run's rows the file does not carry now, as many times
// as they are short.
func (l *rowLog) missing() ([]string, error) {
	if len(l.rows) == 0 {
		return nil, nil
	}
	f, err := textfile.Read(l.rf.path)
	present := map[string]int{}
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("%s: %w", l.rf.path, err)
	default:
		for _, line := range textfile.Lines(f.Text) {
			present[strings.TrimSpace(line)]++
		}
	}
	var out []string
	for _, r := range l.rows {
		if present[r] > 0 {
			present[r]--
			continue
		}
		out = append(out, r)
	}
	return out, nil
}
