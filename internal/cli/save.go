package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/compact"
	"github.com/memcompact/memcompact/internal/textfile"
)

const saveUsage = "save FILE [--entry FILE] [--yes] [--summarizer CMD [--timeout D]] [--entry-heading H] [--root DIR] [--json]"

func init() {
	register(&command{
		name:  "save",
		usage: saveUsage,
		short: "append an entry to a memory file, compacting it first if it is over budget",
		long: `save appends an entry (standard input, or --entry FILE) to FILE, after a blank
line. If FILE is over its budget, it is compacted first (as 'memcompact
compact FILE' would, leaving room for the entry), and the compacted file and
the entry are written in one atomic replace; if the compaction cannot reach
the budget or is aborted, nothing is written and the entry is not saved. A
file within budget gets a plain append. A file not in the policy is saved
without a budget check. The first compaction of a file needs confirmation
(a terminal, or --yes).

Exit 0 saved; 1 not saved because the file is still over budget or the
compaction was aborted; 2 refused; 3 usage (including an empty entry).`,
		run: runSave,
	})
}

func runSave(env *Env, args []string) (err error) {
	var f compactFlags
	var entryFile string
	fset := compactFlagSet(&f, "save")
	fset.StringVar(&entryFile, "entry", "", "read the entry from this file instead of standard input")
	pos, err := parseFlags(env, fset, saveUsage, args)
	if err != nil {
		return err
	}
	defer func() { err = withJSONError(env, f.json, err) }()
	if len(pos) != 1 {
		return Usagef("save needs exactly one FILE")
	}
	var entry string
	if entryFile != "" {
		ef, err := textfile.Read(entryFile)
		if err != nil {
			return Usagef("--entry: %v", err)
		}
		if err := entryIsText(ef.Raw); err != nil {
			return Usagef("--entry %s: %v", entryFile, err)
		}
		entry = ef.Text
	} else {
		raw, err := io.ReadAll(io.LimitReader(env.Stdin, textfile.MaxSize+1))
		if err != nil {
			return Usagef("reading the entry from standard input: %v", err)
		}
		if len(raw) > textfile.MaxSize {
			return Usagef("the entry is larger than %d bytes", textfile.MaxSize)
		}
		if err := entryIsText(raw); err != nil {
			return Usagef("the entry on standard input: %v", err)
		}
		entry = textfile.FromBytes("stdin", raw).Text
	}
	if strings.TrimSpace(entry) == "" {
		return Usagef("the entry is empty; nothing to save")
	}
	root, p, err := openPolicy(f.root)
	if err != nil {
		return err
	}
	rel, err := budget.Rel(root, pos[0])
	if err != nil {
		return &ExitError{Code: ExitRefused, Err: err}
	}
	if budget.Excluded(rel) {
		return Refusef("%s: memcompact does not save into compaction/", rel)
	}
	row, budgeted := p.Lookup(rel)
	abs := filepath.Join(root, filepath.FromSlash(rel))
	cur, err := textfile.Read(abs)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Refusef("%v", err)
	}
	text := ""
	if cur != nil {
		text = cur.Text
	}
	add := joinEntry(text, entry)
	res := saveResult{SchemaVersion: compact.SchemaVersion, File: rel, Budgeted: budgeted}
	if budgeted {
		res.Budget, res.Unit = row.Budget, string(row.Unit)
	}

	if budgeted && cur != nil && budget.Measure(text, row.Unit) > row.Budget {
		if need := budget.Measure(text+add, row.Unit) - budget.Measure(text, row.Unit); need > row.Budget {
			// No compaction can make room: say so, rather than plan
			// against a budget less than nothing.
			return &ExitError{Code: ExitDefects, Err: fmt.Errorf("the entry alone takes %d %s, and %s's budget is %d %s; nothing was saved", need, row.Unit, rel, row.Budget, row.Unit),
				Hints: []string{"shorten the entry, or raise the budget with 'memcompact set-budget " + rel + " N " + string(row.Unit) + "'"}}
		}
		o := compact.Options{
			Root: root, Rel: rel, Row: *row, File: cur, EntryHeading: f.entryHeading,
			Command: f.summarizer, Timeout: f.timeout, Explicit: true,
			Reserve: budget.Measure(text+add, row.Unit) - budget.Measure(text, row.Unit),
			Append:  add, Today: env.Today(), Now: env.Now(),
		}
		pl := compact.Prepare(context.Background(), o)
		res.Compaction = pl.Report
		code := pl.Code
		if code == ExitClean && pl.Report.Status == compact.StatusCompacted {
			code, _ = writePlan(env, root, pl, f.yes)
		} else if code == ExitClean {
			code = ExitDefects // planned but not compacted: the entry would not fit
		}
		if code != ExitClean {
			res.Status = "not_saved"
			res.Size = pl.Report.SizeBefore
			if f.json {
				printJSON(env, res)
			} else {
				renderCompact(env, pl.Report, false)
				fmt.Fprintf(env.Stdout, "The entry was not saved: %s is over budget and could not be compacted.\n", rel)
			}
			return exitCode(code)
		}
		res.Status = "compacted_and_saved"
		res.Size = budget.Measure(pl.NewText()+add, row.Unit)
		if f.json {
			return printJSON(env, res)
		}
		renderCompact(env, pl.Report, false)
		fmt.Fprintf(env.Stdout, "Saved the entry to %s: now %d/%d %s.\n", rel, res.Size, row.Budget, row.Unit)
		return nil
	}

	if cur != nil && cur.HasBOM && text == "" {
		add = textfile.BOM + add
	}
	if err := atomicfile.Append(abs, []byte(add)); err != nil {
		return Refusef("%v; the entry was not saved", err)
	}
	res.Status = "saved"
	if f.json {
		res.Size = sizeIn(text+add, row, budgeted)
		return printJSON(env, res)
	}
	switch {
	case !budgeted:
		fmt.Fprintf(env.Stdout, "Saved the entry to %s (not in the compaction policy, so no budget applies).\n", rel)
	default:
		res.Size = budget.Measure(text+add, row.Unit)
		note := ""
		if res.Size > row.Budget {
			note = " It is now over budget; the next save compacts it first."
		}
		fmt.Fprintf(env.Stdout, "Saved the entry to %s: now %d/%d %s.%s\n", rel, res.Size, row.Budget, row.Unit, note)
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

func sizeIn(text string, row *budget.Row, budgeted bool) int {
	if !budgeted {
		return len(textfile.Lines(text))
	}
	return budget.Measure(text, row.Unit)
}

// entryIsText refuses an entry that is not text: a NUL byte or invalid
// UTF-8 means a binary file or the wrong stream, and saving it would put
// bytes no session can read into a memory file.
func entryIsText(raw []byte) error {
	if i := bytes.IndexByte(raw, 0); i >= 0 {
		return fmt.Errorf("not text: a NUL byte at offset %d; nothing was saved", i)
	}
	if !utf8.Valid(raw) {
		return fmt.Errorf("not UTF-8 text; nothing was saved")
	}
	return nil
}
