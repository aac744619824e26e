package compact

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
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
	Status        string  `json:"status"` // "saved", "compacted_and_saved", "saved_over_budget" or "not_saved"
	Size          int     `json:"size"`
	Budget        int     `json:"budget,omitempty"`
	Unit          string  `json:"unit,omitempty"`
	Budgeted      bool    `json:"budgeted"`
	Compaction    *Report `json:"compaction,omitempty"`
	// Unsaved (status not_saved) is where the entry's text was put,
	// root-relative, when a refusal that protects the file kept it out.
	Unsaved string `json:"unsaved,omitempty"`
	// Outcome is Clean when the entry was saved, else the compaction's
	// (Defects: still over budget or aborted; Refused).
	Outcome outcome.Status `json:"-"`
}

// The statuses of a SaveResult.
const (
	StatusSaved             = "saved"
	StatusCompactedAndSaved = "compacted_and_saved"
	StatusNotSaved          = "not_saved"
	// StatusSavedOverBudget: the entry was saved, but the file is over its
	// budget: compaction could not make room (or was not allowed to).
	StatusSavedOverBudget = "saved_over_budget"
)

// Save appends an entry to a file after a blank line. A budgeted file over
// its budget is compacted first, leaving room for the entry, and the
// compacted file and the entry are written in one atomic replace. Save
// never drops the entry: when the compaction cannot make room for it, the
// file is compacted as far toward its budget as it goes and the entry is
// saved after it; when the compaction is aborted or not confirmed, the
// entry is appended to the file as it is. Either way the result says the
// file is over budget (saved_over_budget, Defects). Only a refusal that
// protects the file (it changed while being compacted) leaves the entry
// out of it, and then the entry is written to compaction/unsaved/ and the
// result names the file. A file within budget gets a plain append; a file
// not in the policy is saved without a budget check.
func Save(ctx context.Context, req SaveRequest) (*SaveResult, error) {
	req.Command = req.shellCommand(req.Command)
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
	ch, err := req.choose(root, req.Command, req.Timeout, false, false)
	if err != nil {
		return nil, err
	}
	opts := Options{
		Root: root, Rel: rel, Row: *row, File: cur, EntryHeading: req.EntryHeading,
		Command: req.Command, Timeout: req.Timeout, Explicit: true, Model: ch.model, Strict: ch.strict, consent: ch.consent,
		Reserve: need, Append: add, Today: req.Today, Now: req.Now,
	}
	if need >= row.Budget {
		opts.Reserve = 0 // no compaction can make room for an entry this large
	}
	pl := Prepare(ctx, opts)
	if pl.Report.Status == StatusShortfall && opts.Reserve > 0 {
		// No room for the entry: make what room there is.
		opts.Reserve = 0
		if pl2 := Prepare(ctx, opts); pl2.Report.Status == StatusCompacted {
			pl2.Report.Message += fmt.Sprintf(" The entry (%d %s) does not fit beside it.", need, row.Unit)
			pl = pl2
		}
	}
	res.Compaction = pl.Report
	if pl.Code == outcome.Clean && pl.Report.Status == StatusCompacted {
		switch st := pl.write(req.Confirmed, req.Confirm); {
		case st == outcome.Clean:
			res.Status, res.Size = StatusCompactedAndSaved, budget.Measure(pl.NewText()+add, row.Unit)
			if res.Size > row.Budget {
				res.Status, res.Outcome = StatusSavedOverBudget, outcome.Defects
			}
			return res, nil
		case pl.Report.Status != StatusNotConfirmed:
			return res.keepUnsaved(root, rel, entry, st, req.Now)
		}
	}
	// Aborted, refused (no entries, not confirmed) or short of the budget:
	// the entry is saved as it is, and the file is over budget.
	if err := res.appendTo(abs, cur, add, row); err != nil {
		return nil, err
	}
	res.Status, res.Outcome = StatusSavedOverBudget, outcome.Defects
	return res, nil
}

// keepUnsaved writes the entry to compaction/unsaved/ when a refusal that
// protects the file kept it out, so that nothing the user asked to
// remember is lost; the result names the file.
func (res *SaveResult) keepUnsaved(root, rel, entry string, st outcome.Status, now time.Time) (*SaveResult, error) {
	res.Status, res.Outcome = StatusNotSaved, st
	dir := filepath.Join(root, "compaction", "unsaved")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return res, nil
	}
	base := strings.TrimSuffix(filepath.Base(rel), filepath.Ext(rel)) + "-" + now.Format("20060102-150405")
	for i := 1; i < 100; i++ {
		name := base + ".md"
		if i > 1 {
			name = fmt.Sprintf("%s-v%d.md", base, i)
		}
		f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return res, nil
		}
		_, werr := f.WriteString(entry)
		if cerr := f.Close(); werr == nil && cerr == nil {
			res.Unsaved = "compaction/unsaved/" + name
		}
		return res, nil
	}
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
	res.Status = StatusSaved
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
