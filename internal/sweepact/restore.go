package sweepact

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
	BodyFrom    string `json:"body_moved_from,omitempty"`
}

// RunRestore brings an exited subject's pointer back into the index, under
// the section it left (or at the end), its body back from the archive
// folder when it was moved there, with its restore record appended first.
// ARCHIVE.md keeps its history: the old line stays, and a dated note says
// the subject came back.
func RunRestore(ctx context.Context, req RestoreRequest) (*RestoreResult, error) {
	p, err := sweep.ResolvePaths(req.Index, "", "", "")
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
	pointer, section, err := archivedPointer(p, rec)
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
	if err := appendRows(ledgerFile(p.Ledger), row); err != nil {
		return nil, refusef(ReasonWrite, p.Ledger, "the restore record could not be appended, so nothing was restored: %v", err)
	}
	crashpoint.At("after-record")
	if res.BodyFrom != "" {
		if err := os.Rename(archived, bodyPath); err != nil {
			return res, refusef(ReasonWrite, archived, "the restore is recorded but the body could not be moved back: %v", err)
		}
	}
	out, at := insertPointer(lines, pointer, section)
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
	if err := appendArchive(p.Archive, "## Restored "+req.AsOf.String(), []string{note}); err != nil {
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

// archivedPointer finds the newest archive line for the record's name, and
// the section it came from; without one (a promotion or a deduplication
// leaves none) it builds a pointer from the entry's own description.
func archivedPointer(p sweep.Paths, rec *records.LedgerRecord) (pointer, section string, err error) {
	f, err := textfile.Read(p.Archive)
	if err == nil {
		ix := index.Parse(textfile.Lines(f.Text))
		for i := len(ix.Lines) - 1; i >= 0; i-- {
			l := &ix.Lines[i]
			for _, k := range l.Subjects() {
				if strings.EqualFold(records.EntryName(k.Target), rec.Name) {
					text := l.Text
					if j := strings.Index(text, " <!-- from: "); j >= 0 {
						section = strings.TrimSuffix(strings.TrimSpace(text[j+len(" <!-- from: "):]), "-->")
						section = strings.TrimSpace(section)
						text = text[:j]
					}
					return text, section, nil
				}
			}
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", "", refusef(ReasonUnreadable, p.Archive, "%v", err)
	}
	for _, path := range []string{filepath.Join(p.Dir, rec.Name+".md"), filepath.Join(p.Dir, ArchiveDir, rec.Name+".md")} {
		if b, err := readBody(nil, path); err == nil && b.Exists && b.Lesson != "" {
			return fmt.Sprintf("- [%s](%s.md) — %s", rec.Name, rec.Name, b.Lesson), "", nil
		}
	}
	return "", "", refusef(ReasonNotFound, p.Archive, "no archive line and no body carries '%s', so there is no pointer to put back", rec.Name)
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
