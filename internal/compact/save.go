package compact

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/lockfile"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/textfile"
)

// ReasonEntryTooLarge: the entry alone is larger than the file's budget.
const ReasonEntryTooLarge outcome.Reason = "entry-too-large"

// SaveRequest asks to append an entry to a memory file (the save verb).
type SaveRequest struct {
	Root string // the memory root; "" means the nearest one upward
	File string // relative to the working directory, or absolute
	// Entry is the entry's bytes as given; EntryName names them in errors
	// ("the entry on standard input", "--entry FILE").
	Entry     []byte
	EntryName string

	// The summarizer and entry rule of a compaction save needs first, as
	// in Request.
	Command      string
	Timeout      time.Duration
	EntryHeading string
	Summarizing

	// Consent to a first compaction, as in Request.
	Confirmed bool
	Confirm   func(*Report) bool

	Today, Now time.Time
}

// SaveResult is save's outcome. Its JSON is save's --json output.
type SaveResult struct {
	SchemaVersion int     `json:"schema_version"`
	File          string  `json:"file"`
	Status        string  `json:"status"` // "saved", "compacted_and_saved" or "not_saved"
	Size          int     `json:"size"`
	Budget        int     `json:"budget,omitempty"`
	Unit          string  `json:"unit,omitempty"`
	Budgeted      bool    `json:"budgeted"`
	Compaction    *Report `json:"compaction,omitempty"`
	// Outcome is Clean when the entry was saved, else the compaction's
	// (Defects: still over budget or aborted; Refused).
	Outcome outcome.Status `json:"-"`
}

// The statuses of a SaveResult.
const (
	SaveSaved     = "saved"
	SaveCompacted = "compacted_and_saved"
	SaveNotSaved  = "not_saved"
)

// Save appends an entry to a file after a blank line. A budgeted file over
// its budget is compacted first, leaving room for the entry, and the
// compacted file and the entry are written in one atomic replace; if the
// compaction cannot reach the budget or is aborted, nothing is written and
// the entry is not saved (the result says so). A file within budget gets a
// plain append; a file not in the policy is saved without a budget check.
func Save(ctx context.Context, req SaveRequest) (*SaveResult, error) {
	entry, err := req.entry()
	if err != nil {
		return nil, err
	}
	root, p, err := budget.Open(req.Root)
	if err != nil {
		return nil, err
	}
	rel, err := budget.RelIn(root, req.File)
	if err != nil {
		return nil, err
	}
	if budget.Excluded(rel) {
		return nil, &outcome.Error{Status: outcome.Refused, Reason: budget.ReasonExcluded, File: rel, Msg: "memcompact does not save into compaction/"}
	}
	row, budgeted := p.Lookup(rel)
	abs := filepath.Join(root, filepath.FromSlash(rel))
	// From the read to the write no other memcompact run writes this root,
	// so concurrent saves take turns instead of refusing each other.
	release, err := lockfile.Lock(ctx, root)
	if err != nil {
		return nil, err
	}
	defer release()
	if err := atomicfile.Within(root, abs); err != nil {
		return nil, &outcome.Error{Status: outcome.Refused, Reason: budget.ReasonOutsideRoot, File: rel, Msg: err.Error() + "; the entry was not saved", Err: err}
	}
	cur, err := textfile.Read(abs)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, budget.IOFailure(err)
	}
	text := ""
	if cur != nil {
		text = cur.Text
	}
	add := joinEntry(text, entry)
	res := &SaveResult{SchemaVersion: SchemaVersion, File: rel, Budgeted: budgeted}
	if !budgeted {
		return res, res.appendTo(abs, cur, add, nil)
	}
	res.Budget, res.Unit = row.Budget, string(row.Unit)
	if cur == nil || budget.Measure(text, row.Unit) <= row.Budget {
		return res, res.appendTo(abs, cur, add, row)
	}
	need := budget.Measure(text+add, row.Unit) - budget.Measure(text, row.Unit)
	if need > row.Budget {
		// No compaction can make room: say so, rather than plan against
		// a budget less than nothing.
		return nil, &outcome.Error{Status: outcome.Defects, Reason: ReasonEntryTooLarge,
			Msg:   fmt.Sprintf("the entry alone takes %d %s, and %s's budget is %d %s; nothing was saved", need, row.Unit, rel, row.Budget, row.Unit),
			Hints: []string{"shorten the entry, or raise the budget with 'memcompact set-budget " + rel + " N " + string(row.Unit) + "'"}}
	}
	ch, err := req.choose(root, req.Command, req.Timeout, false, false)
	if err != nil {
		return nil, err
	}
	pl := Prepare(ctx, Options{
		Root: root, Rel: rel, Row: *row, File: cur, EntryHeading: req.EntryHeading,
		Command: req.Command, Timeout: req.Timeout, Explicit: true, Model: ch.model, Strict: ch.strict,
		Reserve: need, Append: add, Today: req.Today, Now: req.Now,
	})
	res.Compaction = pl.Report
	st := pl.Code
	switch {
	case st == outcome.Clean && pl.Report.Status == StatusCompacted:
		st = pl.write(req.Confirmed, req.Confirm)
	case st == outcome.Clean:
		st = outcome.Defects // planned but not compacted: the entry would not fit
	}
	if st != outcome.Clean {
		res.Status, res.Size, res.Outcome = SaveNotSaved, pl.Report.SizeBefore, st
		return res, nil
	}
	res.Status, res.Size = SaveCompacted, budget.Measure(pl.NewText()+add, row.Unit)
	return res, nil
}

// entry checks the entry is text and not empty, and returns it decoded.
func (req *SaveRequest) entry() (string, error) {
	if len(req.Entry) > textfile.MaxSize {
		return "", outcome.Usagef(ReasonBadRequest, "the entry is larger than %d bytes", textfile.MaxSize)
	}
	// A NUL byte or invalid UTF-8 means a binary file or the wrong stream,
	// and saving it would put bytes no session can read into a memory file.
	if i := bytes.IndexByte(req.Entry, 0); i >= 0 {
		return "", outcome.Usagef(ReasonBadRequest, "%s: not text: a NUL byte at offset %d; nothing was saved", req.EntryName, i)
	}
	if !utf8.Valid(req.Entry) {
		return "", outcome.Usagef(ReasonBadRequest, "%s: not UTF-8 text; nothing was saved", req.EntryName)
	}
	entry := textfile.FromBytes(req.EntryName, req.Entry).Text
	if strings.TrimSpace(entry) == "" {
		return "", outcome.Usagef(ReasonBadRequest, "the entry is empty; nothing to save")
	}
	return entry, nil
}

// appendTo appends add to the file (cur as read, nil when there is none)
// and records the size it now has: in row's unit, or in lines when the
// file has no budget.
func (res *SaveResult) appendTo(abs string, cur *textfile.File, add string, row *budget.Row) error {
	text := ""
	if cur != nil {
		text = cur.Text
		if cur.HasBOM && text == "" {
			add = textfile.BOM + add
		}
	}
	if err := atomicfile.Append(abs, []byte(add)); err != nil {
		e := budget.IOFailure(err)
		e.Msg = fmt.Sprintf("%v; the entry was not saved", err)
		return e
	}
	res.Status = SaveSaved
	res.Size = len(textfile.Lines(text + add))
	if row != nil {
		res.Size = budget.Measure(text+add, row.Unit)
	}
	return nil
}

// joinEntry returns what to append to text so entry follows it after one
// blank line, in text's line endings, ending with a line ending.
func joinEntry(text, entry string) string {
	eol := textfile.EOL(text)
	entry = strings.Trim(textfile.Normalize(entry), "\n")
	if eol != "\n" {
		entry = strings.ReplaceAll(entry, "\n", eol)
	}
	var b strings.Builder
	switch {
	case text == "":
	case strings.HasSuffix(text, "\n\n") || strings.HasSuffix(text, "\r\n\r\n") || strings.HasSuffix(text, "\r\r"):
	case strings.HasSuffix(text, "\n") || strings.HasSuffix(text, "\r"):
		b.WriteString(eol)
	default:
		b.WriteString(eol + eol)
	}
	b.WriteString(entry)
	b.WriteString(eol)
	return b.String()
}
