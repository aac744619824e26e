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
	"github.com/memcompact/memcompact/internal/distill"
	"github.com/memcompact/memcompact/internal/lockfile"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/secrets"
	"github.com/memcompact/memcompact/internal/textfile"
)

// Reasons of save's refusals.
const (
	// ReasonEntryTooLarge: the entry alone is larger than the file's budget.
	ReasonEntryTooLarge outcome.Reason = "entry-too-large"
	// ReasonEntrySecret: the entry holds a secret and AllowSecret was not
	// given; the entry is kept in compaction/unsaved/.
	ReasonEntrySecret outcome.Reason = "secret"
	// ReasonFileChanged: the file changed while it was being compacted;
	// the entry is kept in compaction/unsaved/ (as it is for
	// budget.ReasonMalformedPolicy).
	ReasonFileChanged outcome.Reason = "file-changed"
)

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

	// AllowSecret saves an entry that holds a secret. Without it such an
	// entry is refused (memory is read back into every future session)
	// and kept in compaction/unsaved/, readable only by its owner.
	AllowSecret bool

	Today, Now time.Time
}

// SaveResult is save's outcome. Its JSON is save's --json output.
type SaveResult struct {
	SchemaVersion int     `json:"schema_version"`
	Root          string  `json:"root"`
	File          string  `json:"file"`
	Status        string  `json:"status"` // "saved", "compacted_and_saved", "saved_over_budget" or "not_saved"
	Size          int     `json:"size"`
	Budget        int     `json:"budget,omitempty"`
	Unit          string  `json:"unit,omitempty"`
	Budgeted      bool    `json:"budgeted"`
	Compaction    *Report `json:"compaction,omitempty"`
	// Unsaved (status not_saved) is where the entry's text was put,
	// root-relative, when a refusal that protects the file kept it out;
	// Reason says which refusal (ReasonEntrySecret, ReasonFileChanged) and
	// Secrets, for a secret, where the entry holds one (redacted).
	Unsaved string            `json:"unsaved,omitempty"`
	Reason  outcome.Reason    `json:"reason,omitempty"`
	Secrets []secrets.Finding `json:"secrets,omitempty"`
	// Next (status saved_over_budget) is what would bring the file, as it
	// was saved, within its budget.
	Next *Next `json:"next,omitempty"`
	// Outcome is Clean when the entry was saved, else the compaction's
	// (Defects: still over budget or aborted; Refused).
	Outcome outcome.Status `json:"-"`
}

// Next is what would bring a file saved over its budget within it, each
// part checked by planning it on the file as saved, with the built-in
// summarizer: compacting it now (Compacts), or first a larger budget or a
// smaller newest tier (the suggestions, as in a Report). All empty: no
// compaction can (a file without entries, or one only a person can cut).
type Next struct {
	Compacts      bool `json:"compacts"`
	SuggestBudget int  `json:"suggest_budget,omitempty"`
	SuggestNewest *int `json:"suggest_newest,omitempty"`
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
	root, err := budget.ResolveRoot(req.Root)
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
	p, _, err := budget.OpenPolicy(root)
	if err != nil {
		return keepFor(root, rel, entry, err, req.Now)
	}
	row, budgeted := p.Lookup(rel)
	abs := filepath.Join(root, filepath.FromSlash(rel))
	if fs := secrets.Scan(entry); len(fs) > 0 && !req.AllowSecret {
		// Memory is read back into every future session, so a secret is
		// not saved into it unless asked; the entry is kept, not lost.
		res := &SaveResult{SchemaVersion: SchemaVersion, Root: root, File: rel, Budgeted: budgeted, Reason: ReasonEntrySecret, Secrets: fs}
		return res.keepUnsaved(root, rel, entry, outcome.Refused, req.Now)
	}
	// From the read to the write no other memcompact run writes this root,
	// so concurrent saves take turns instead of refusing each other.
	release, err := lockfile.Lock(ctx, root)
	if err != nil {
		return keepFor(root, rel, entry, err, req.Now)
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
	res := &SaveResult{SchemaVersion: SchemaVersion, Root: root, File: rel, Budgeted: budgeted}
	if !budgeted {
		return res, res.appendTo(abs, cur, add, nil)
	}
	res.Budget, res.Unit = row.Budget, string(row.Unit)
	if cur == nil || budget.Measure(text, row.Unit) <= row.Budget && !overCeiling(text, *row) {
		return res, res.appendTo(abs, cur, add, row)
	}
	pl, err := req.compaction(ctx, root, rel, row, cur, add)
	if err != nil {
		// The summarizer cannot run (no key, no claude, a bad setting):
		// no data is at risk, so the entry is saved and the report says
		// why the file was not compacted.
		rep := &Report{File: rel, Unit: string(row.Unit), Budget: row.Budget, Status: StatusRefused,
			Reason: outcome.ReasonOf(err), Message: err.Error(), SizeBefore: budget.Measure(text, row.Unit)}
		rep.SizeAfter = rep.SizeBefore
		pl = &Plan{Report: rep, Code: outcome.Refused}
	}
	res.Compaction = pl.Report
	if pl.Code == outcome.Clean && pl.Report.Status == StatusCompacted {
		switch st := pl.write(req.Confirmed, req.Confirm); {
		case st == outcome.Clean:
			res.Status, res.Size = StatusCompactedAndSaved, budget.Measure(pl.NewText()+add, row.Unit)
			res.measure(abs, row)
			if res.Size > row.Budget {
				res.Status, res.Outcome = StatusSavedOverBudget, outcome.Defects
				res.Next = req.next(ctx, root, rel, row, abs)
			}
			return res, nil
		case pl.Report.Status != StatusNotConfirmed:
			res.Reason = ReasonFileChanged
			return res.keepUnsaved(root, rel, entry, st, req.Now)
		}
	}
	// Aborted, refused (no entries, not confirmed, no summarizer) or short
	// of the budget: the entry is saved as it is, and the file is over
	// budget.
	if err := res.appendTo(abs, cur, add, row); err != nil {
		return nil, err
	}
	res.Status, res.Outcome = StatusSavedOverBudget, outcome.Defects
	res.Next = req.next(ctx, root, rel, row, abs)
	return res, nil
}

// compaction plans the compaction that makes room for the entry (add),
// or, when no compaction can, as much room as there is. The two plans
// share one run of the summarizer: a model or a command is asked once,
// and the built-in one reads each entry once.
func (req *SaveRequest) compaction(ctx context.Context, root, rel string, row *budget.Row, cur *textfile.File, add string) (*Plan, error) {
	ch, err := req.choose(root, req.Command, req.Timeout, false, false)
	if err != nil {
		return nil, err
	}
	text := cur.Text
	need := budget.Measure(text+add, row.Unit) - budget.Measure(text, row.Unit)
	opts := Options{
		Root: root, Rel: rel, Row: *row, File: cur, EntryHeading: req.EntryHeading,
		Command: req.Command, Timeout: req.Timeout, Explicit: true, Model: ch.model, Strict: ch.strict, consent: ch.consent,
		Reserve: need, Append: add, Today: req.Today, Now: req.Now,
		cache: distill.NewCache(), once: &summarized{},
	}
	if need >= row.Budget {
		opts.Reserve = 0 // no compaction can make room for an entry this large
	}
	pl := Prepare(ctx, opts)
	if req.Fallback == "builtin" && refusedSummary(pl.Report) {
		// --fallback builtin: the built-in summarizer makes the room the
		// refused summary would have made.
		opts.Summary, opts.Command, opts.Model = nil, "", nil
		pl = fallBack(ctx, opts, pl)
	}
	if pl.Report.Status == StatusShortfall && opts.Reserve > 0 {
		// No room for the entry: make what room there is.
		opts.Reserve = 0
		if pl2 := Prepare(ctx, opts); pl2.Report.Status == StatusCompacted {
			pl2.Report.Message += fmt.Sprintf(" The entry (%d %s) does not fit beside it.", need, row.Unit)
			pl = pl2
		}
	}
	return pl, nil
}

// next plans, with the built-in summarizer, a compaction of the file as
// it was just saved (it is read again), and says what would bring it
// within budget; nil when it cannot be read.
func (req *SaveRequest) next(ctx context.Context, root, rel string, row *budget.Row, abs string) *Next {
	f, err := textfile.Read(abs)
	if err != nil {
		return nil
	}
	rep := Prepare(ctx, Options{Root: root, Rel: rel, Row: *row, File: f, EntryHeading: req.EntryHeading,
		Timeout: req.Timeout, Explicit: true, Today: req.Today, Now: req.Now}).Report
	return &Next{Compacts: rep.Status == StatusCompacted, SuggestBudget: rep.SuggestBudget, SuggestNewest: rep.SuggestNewest}
}

// keepFor keeps the entry in compaction/unsaved/ when save is refused
// before it touched the file: by a policy it cannot read (with no budget
// to honour, writing the file could break what the policy's owner meant)
// or by a lock another run held for the whole wait. The refusal names
// where the entry is, so an entry given on standard input is not lost.
// Other failures (no policy: no root to keep it in) are returned as they
// are.
func keepFor(root, rel, entry string, perr error, now time.Time) (*SaveResult, error) {
	var oe *outcome.Error
	if !errors.As(perr, &oe) || (oe.Reason != budget.ReasonMalformedPolicy && oe.Reason != lockfile.ReasonHeld) {
		return nil, perr
	}
	res := &SaveResult{SchemaVersion: SchemaVersion, Root: root, File: rel, Reason: oe.Reason}
	if _, err := res.keepUnsaved(root, rel, entry, outcome.Refused, now); err != nil {
		return nil, perr
	}
	kept := *oe
	where := "the entry was not saved into " + rel + ": its text is in " + res.Unsaved
	if strings.Contains(oe.Msg, "; nothing was changed") {
		kept.Msg = strings.Replace(oe.Msg, "; nothing was changed", "; "+where, 1)
	} else {
		kept.Msg = oe.Msg + "; " + where
	}
	return res, &kept
}

// keepUnsaved writes the entry to compaction/unsaved/ when a refusal that
// protects data kept it out of the file, so that nothing the user asked
// to remember is lost; the result names the copy. A copy of an entry
// that holds a secret is readable only by its owner. If no copy can be
// written, the error says so: the caller still has the entry.
func (res *SaveResult) keepUnsaved(root, rel, entry string, st outcome.Status, now time.Time) (*SaveResult, error) {
	res.Status, res.Outcome = StatusNotSaved, st
	dir := filepath.Join(root, "compaction", "unsaved")
	fail := func(err error) (*SaveResult, error) {
		return nil, &outcome.Error{Status: outcome.Refused, Reason: res.Reason, File: rel, Err: err,
			Msg: fmt.Sprintf("the entry was not saved (%s), and it could not be kept in compaction/unsaved/: %v", res.Reason, err)}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fail(err)
	}
	if err := atomicfile.Within(root, dir); err != nil {
		return fail(err)
	}
	base := strings.TrimSuffix(filepath.Base(rel), filepath.Ext(rel)) + "-" + now.Format("20060102-150405")
	for i := 1; i < 100; i++ {
		name := base + ".md"
		if i > 1 {
			name = fmt.Sprintf("%s-v%d.md", base, i)
		}
		p := filepath.Join(dir, name)
		err := atomicfile.CreateExclusive(p, []byte(entry))
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err == nil && res.Reason == ReasonEntrySecret {
			err = os.Chmod(p, 0o600)
		}
		if err != nil {
			return fail(err)
		}
		res.Unsaved = "compaction/unsaved/" + name
		return res, nil
	}
	return fail(fmt.Errorf("%s: 99 copies of that name already exist", base))
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
	res.measure(abs, row)
	return nil
}

// measure sets the size a save reports to the file's as it is on disk
// now, read back while the root's lock is still held: the figure printed
// is the file's real one even when something that does not take the lock
// (an agent's own write) changed it between the read and the write. When
// the file cannot be read back, the size computed from what was written
// stands.
func (res *SaveResult) measure(abs string, row *budget.Row) {
	f, err := textfile.Read(abs)
	if err != nil {
		return
	}
	text := f.Text
	if f.HasBOM {
		text = strings.TrimPrefix(text, textfile.BOM)
	}
	if row == nil {
		res.Size = len(textfile.Lines(text))
		return
	}
	res.Size = budget.Measure(text, row.Unit)
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
