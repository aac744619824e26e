package sweepact

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/crashpoint"
	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/sweep"
	"github.com/memcompact/memcompact/internal/textfile"
)

// RestoreRequest asks for an exited subject to come back.
type RestoreRequest struct {
	Index    string
	Identity string // a life key, or a bare name when exactly one life of it has exited
	AsOf     records.Date
	LockWait time.Duration
}

// RestoreResult is what a restore did.
type RestoreResult struct {
	Identity    string `json:"identity"`
	Disposition string `json:"undone_disposition"`
	Line        int    `json:"line"`
	Pointer     string `json:"pointer"`
	// More counts the subject's other pointer lines the sweep took and
	// this restore put back with it.
	More     int    `json:"more_pointer_lines,omitempty"`
	BodyFrom string `json:"body_moved_from,omitempty"`
}

// RunRestore brings an exited subject's pointer back into the index, under
// the section it left (or at the end), its body back from the archive
// folder when it was moved there, with its restore record appended first.
// ARCHIVE.md keeps its history: the old line stays, and a dated note says
// the subject came back.
func RunRestore(ctx context.Context, req RestoreRequest) (*RestoreResult, error) {
	p, err := storePaths(req.Index)
	if err != nil {
		return nil, err
	}
	release, err := lockStore(ctx, p.Dir, req.LockWait)
	if err != nil {
		return nil, err
	}
	defer release()
	ledger, err := records.ReadLedger(p.Ledger, req.AsOf)
	if err != nil {
		return nil, refusef(ReasonUnreadable, p.Ledger, "%v", err)
	}
	if !ledger.Complete() {
		return nil, ledgerRefusal(ledger)
	}
	rec, err := findExit(ledger, req.Identity)
	if err != nil {
		return nil, err
	}
	ixf, err := textfile.Read(p.Index)
	if err != nil {
		return nil, refusef(ReasonUnreadable, p.Index, "%v", err)
	}
	lines := textfile.Lines(ixf.Text)
	for _, sub := range records.Subjects(lines) {
		if sub.Name == rec.Name {
			return nil, refusef(ReasonNotFound, p.Index, "'%s' already has a pointer on line %d; there is nothing to restore (to record that, append a restore row by hand)", rec.Name, sub.Line)
		}
	}
	pointer, section, cut, err := archivedPointer(p, rec)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res := &RestoreResult{Identity: rec.Identity, Disposition: rec.Disposition, Pointer: pointer}
	bodyPath := filepath.Join(p.Dir, rec.Name+".md")
	archived := filepath.Join(p.Dir, ArchiveDir, rec.Name+".md")
	if !fileExists(bodyPath) && fileExists(archived) {
		res.BodyFrom = filepath.ToSlash(filepath.Join(ArchiveDir, rec.Name+".md"))
	}
	if err := recordsWritable(p.Dir, p.Archive, []regionFile{ledgerFile(p.Ledger)}, p.Index, bodyPath); err != nil {
		return nil, err
	}
	row := LedgerRow(req.AsOf, records.StatusExecuted, "restore", rec.Identity,
		"the owner brought it back; supersedes the "+rec.Disposition+" of "+rec.Date.String(), "the index")
	log := &rowLog{rf: ledgerFile(p.Ledger)}
	if err := log.add(row); err != nil {
		return nil, refusef(ReasonWrite, p.Ledger, "the restore record could not be appended, so nothing was restored: %v", err)
	}
	crashpoint.At("after-record")
	if res.BodyFrom != "" {
		if err := os.Rename(archived, bodyPath); err != nil {
			return res, refusef(ReasonWrite, archived, "the restore is recorded but the body could not be moved back: %v", err)
		}
	}
	out, at, placedCuts := placeRestored(p, lines, cut, rec.Name)
	placed := len(placedCuts) > 0
	if placed {
		res.More = len(placedCuts) - 1
	}
	if !placed {
		out, at = insertPointer(lines, pointer, section)
	}
	res.Line = at + 1
	nl := textfile.EOL(ixf.Text)
	text := strings.Join(out, nl)
	if strings.HasSuffix(ixf.Text, "\n") || strings.HasSuffix(ixf.Text, "\r") || ixf.Text == "" {
		text += nl
	}
	raw := []byte(text)
	if strings.HasPrefix(string(ixf.Raw), "\ufeff") {
		raw = append([]byte("\ufeff"), raw...)
	}
	if err := atomicfile.Replace(p.Index, raw, ixf.Digest); err != nil {
		return res, &outcome.Error{Status: outcome.Refused, Reason: ReasonWrite, File: p.Index, Err: err,
			Msg: fmt.Sprintf("the restore is recorded but the index was not rewritten: %v; run 'memcompact sweep restore' again", err)}
	}
	note := fmt.Sprintf("`%s` restored to the index (line %d); its earlier line in this file stays as history.", rec.Name, res.Line)
	if _, err := log.ensure("restore"); err != nil {
		return res, refusef(ReasonWrite, p.Ledger, "the ledger was replaced during the restore and its record could not be appended again: %v", err)
	}
	notes := []string{note}
	for _, c := range placedCuts {
		notes = append(notes, encodeRestoredMeta(restoredMeta{c.Sweep, c.Line, c.N}))
	}
	if err := appendArchive(p.Archive, "## Restored "+req.AsOf.String(), notes); err != nil {
		return res, refusef(ReasonWrite, p.Archive, "%v", err)
	}
	return res, nil
}

// findExit finds the exit in force a restore undoes.
func findExit(l *records.Ledger, id string) (*records.LedgerRecord, error) {
	if strings.Contains(id, "@") {
		if r, ok := l.ExitInForce(id); ok {
			return r, nil
		}
		return nil, refusef(ReasonNotFound, l.Path(), "no exit in force carries '%s'; nothing to restore", id)
	}
	var found []*records.LedgerRecord
	for _, r := range l.ExitsInForce() {
		if r.Name == id {
			found = append(found, r)
		}
	}
	switch len(found) {
	case 0:
		return nil, refusef(ReasonNotFound, l.Path(), "no exit in force carries the name '%s'; nothing to restore", id)
	case 1:
		return found[0], nil
	}
	return nil, refusef(ReasonNotFound, l.Path(), "%d lives of '%s' have exited; name one by its life key (e.g. %s)", len(found), id, found[0].Identity)
}

// archivedPointer finds the newest archive line for the record's name, the
// section it came from and, when the archive recorded where it sat, that
// record (cut); without an archive line (an exit taken before the archive
// kept every exit's line) it builds a pointer from the entry's own
// description.
func archivedPointer(p sweep.Paths, rec *records.LedgerRecord) (pointer, section string, cut *cutMeta, err error) {
	f, err := textfile.Read(p.Archive)
	if err == nil {
		lines := textfile.Lines(f.Text)
		if c, ok := readArchiveMeta(lines).newestCut(rec.Name); ok {
			return c.visible, c.From, &c, nil
		}
		ix := index.Parse(lines)
		for i := len(ix.Lines) - 1; i >= 0; i-- {
			l := &ix.Lines[i]
			for _, k := range l.Subjects() {
				if strings.EqualFold(records.LinkName(k), rec.Name) {
					text := l.Text
					if j := strings.Index(text, " <!-- from: "); j >= 0 {
						section = strings.TrimSuffix(strings.TrimSpace(text[j+len(" <!-- from: "):]), "-->")
						section = strings.TrimSpace(section)
						text = text[:j]
					}
					return text, section, nil, nil
				}
			}
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", "", nil, refusef(ReasonUnreadable, p.Archive, "%v", err)
	}
	for _, path := range []string{filepath.Join(p.Dir, rec.Name+".md"), filepath.Join(p.Dir, ArchiveDir, rec.Name+".md")} {
		if b, err := readBody(nil, path); err == nil && b.Exists && b.Lesson != "" {
			return fmt.Sprintf("- [%s](%s.md) — %s", rec.Name, rec.Name, b.Lesson), "", nil, nil
		}
	}
	return "", "", nil, refusef(ReasonNotFound, p.Archive, "no archive line and no body carries '%s', so there is no pointer to put back", rec.Name)
}

// placeRestored puts every cut of name the sweep of cut took (a subject
// may have had several pointer lines) back where it sat (placeCut), in
// line order, reading the archive's record of that sweep's other cuts and
// restores. It returns the new lines, the line of the first pointer put
// back and the cuts placed; none when there is no record or a place
// cannot be found (the caller then falls back to the section).
func placeRestored(p sweep.Paths, lines []string, cut *cutMeta, name string) ([]string, int, []cutMeta) {
	if cut == nil {
		return nil, 0, nil
	}
	f, err := textfile.Read(p.Archive)
	if err != nil {
		return nil, 0, nil
	}
	am := readArchiveMeta(textfile.Lines(f.Text))
	st := am.sweepState(cut.Sweep)
	var mine []cutMeta
	for _, c := range am.cuts {
		if c.Sweep == cut.Sweep && !st.restored[c.Line][c.N] && cutNames(c, name) && !slices.ContainsFunc(mine, func(m cutMeta) bool { return m.Line == c.Line && m.N == c.N }) {
			mine = append(mine, c)
		}
	}
	slices.SortFunc(mine, func(a, b cutMeta) int { return a.Line - b.Line })
	out, first := lines, -1
	for _, c := range mine {
		next, at, ok := placeCut(out, c, st)
		if !ok {
			return nil, 0, nil
		}
		st.restored[c.Line][c.N] = true
		if first < 0 {
			first = at
		}
		out = next
	}
	return out, first, mine
}

// cutNames reports whether a cut's pointer names the entry name.
func cutNames(c cutMeta, name string) bool {
	for _, sub := range records.Subjects([]string{c.visible}) {
		if strings.EqualFold(sub.Name, name) {
			return true
		}
	}
	return false
}

// insertPointer puts pointer at the end of the named section, or at the end
// of the index; it returns the new lines and the 0-based line it landed on.
func insertPointer(lines []string, pointer, section string) ([]string, int) {
	at := -1
	if section != "" {
		for i, l := range lines {
			if strings.TrimSpace(l) == section {
				at = i + 1
				for j := i + 1; j < len(lines) && !index.IsHeading(lines[j]); j++ {
					if strings.TrimSpace(lines[j]) != "" {
						at = j + 1
					}
				}
				break
			}
		}
	}
	if at < 0 {
		at = len(lines)
		for at > 0 && strings.TrimSpace(lines[at-1]) == "" {
			at--
		}
		if section != "" {
			// The section it left is gone (the sweep drops a heading it
			// emptied): it comes back with its pointer.
			out := append(append([]string{}, lines[:at]...), "", section, pointer)
			return append(out, lines[at:]...), at + 2
		}
	}
	out := append(append(append([]string{}, lines[:at]...), pointer), lines[at:]...)
	return out, at
}
