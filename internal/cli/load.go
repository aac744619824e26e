package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/memcompact/memcompact/internal/loadcut"
	"github.com/memcompact/memcompact/internal/store"
	"github.com/memcompact/memcompact/internal/textfile"
)

const loadUsage = "load [--lines N] [--units N] [--text] [--json] [INDEX]"

func init() {
	register(&command{
		name:  "load",
		usage: loadUsage,
		short: "show what Claude Code loads of an index at session start, and which subjects it loses",
		long: `load reports what a Claude Code session loads of a memory index: lines and
UTF-16 units loaded of the total, which limit ends the load, and every linked
subject past the cut (line, target, link text), nearest the cut first.

Claude Code loads nothing of a MEMORY.md over 4 MiB. Otherwise it removes
YAML frontmatter at the top (a first line of "---" swallows everything up to
the next "---", wherever it is) and block-level HTML comments, trims blank
space from both ends, keeps the first 200 lines, and then, if more than
25,000 UTF-16 units remain, cuts at the last line break at or before unit
25,000, and appends a warning line. Lines and units are counted as it
counts them: a CR is a character, so a CRLF file loads fewer lines. When
what it counts differs from the file, load shows both, and every subject
the frontmatter or a comment hides. --text prints the memory text exactly
as Claude Code puts it into the session (in JSON: "loaded_text").

With no INDEX, load reads the current project's Claude Code index:
<config dir>/projects/<project path, each non-alphanumeric as '-'>/memory/MEMORY.md,
the project being the enclosing git repository's main worktree (or the
current directory), the config dir $CLAUDE_CONFIG_DIR or ~/.claude, unless
autoMemoryDirectory in the user's or the project's local settings moves it.

Exit 0 when everything loads, 1 when anything is cut or hidden by
frontmatter, 2 when the index
exists but cannot be read, 3 when there is no index; --json prints one
object on every path.`,
		run: runLoad,
	})
}

func runLoad(env *Env, args []string) error {
	lines, units := loadcut.DefaultLines, loadcut.DefaultUnits
	var asJSON, withText bool
	flags := newFlagSet("load")
	flags.BoolVar(&withText, "text", false, "also print the memory text exactly as Claude Code loads it")
	flags.IntVar(&lines, "lines", lines, "the line limit")
	flags.IntVar(&units, "units", units, "the size limit in UTF-16 code units")
	flags.BoolVar(&asJSON, "json", false, "print one JSON object")
	alias(flags, "json", "Json")
	indexFlag := indexFlag(flags)
	pos, err := parseFlags(env, flags, loadUsage, args)
	if err != nil {
		return err
	}
	pos = withIndexFlag(*indexFlag, pos)
	fail := func(code int, indexPath, reason string, hints ...string) error {
		if asJSON {
			result := "usage-error"
			if code == ExitRefused {
				result = "refused"
			}
			if hints == nil {
				hints = []string{}
			}
			writeJSONTo(env.Stdout, loadcut.ErrorReport{SchemaVersion: 1, Outcome: result, Index: indexPath, Reason: reason, Hints: hints})
		}
		return &ExitError{Code: code, Err: errors.New(reason), Hints: hints}
	}
	if len(pos) > 1 {
		return fail(ExitUsage, "", fmt.Sprintf("load takes one index; found %d arguments", len(pos)), "usage: memcompact "+loadUsage)
	}
	if lines < 1 || units < 1 {
		return fail(ExitUsage, "", "--lines and --units must be positive", "Claude Code's limits are 200 lines and 25,000 units")
	}
	var indexPath string
	if len(pos) == 1 {
		indexPath = pos[0]
	} else {
		cwd, err := os.Getwd()
		if err != nil {
			return fail(ExitUsage, "", "cannot tell the current directory: "+err.Error(), "name the index: memcompact "+loadUsage)
		}
		p, _, err := store.FindIndex(env.Getenv, env.Home(), cwd)
		var nie *store.NoIndexError
		if errors.As(err, &nie) {
			return fail(ExitUsage, p, nie.Error(), nie.HintsFor("load")...)
		}
		indexPath = p
	}
	f, err := textfile.Read(indexPath)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fail(ExitUsage, indexPath, fmt.Sprintf("index not found at '%s'", indexPath))
	case errors.Is(err, textfile.ErrNotRegular):
		return fail(ExitUsage, indexPath, fmt.Sprintf("'%s' is not a file", indexPath))
	case err != nil:
		return fail(ExitRefused, indexPath, err.Error())
	}
	r := loadcut.ComputeSized(f.Text, len(f.Raw), lines, units)
	if asJSON {
		rep := loadcut.NewReport(indexPath, r)
		if withText {
			rep.LoadedText = &r.Text
		}
		writeJSONTo(env.Stdout, rep)
	} else {
		renderLoad(env, indexPath, r)
		if withText {
			fmt.Fprintf(env.Stdout, "\nwhat Claude Code loads:\n%s\n", r.Text)
		}
	}
	if r.Lost() {
		return exitCode(ExitDefects)
	}
	return nil
}

func renderLoad(env *Env, indexPath string, r loadcut.Result) {
	w := env.Stdout
	if r.Cut {
		fmt.Fprintln(w, "RESULT: cut")
	} else if r.Lost() {
		fmt.Fprintln(w, "RESULT: entries hidden")
	} else {
		fmt.Fprintln(w, "RESULT: loads whole")
	}
	over := func(b bool) string {
		if b {
			return " - OVER"
		}
		return ""
	}
	fmt.Fprintf(w, "index: %s\n", indexPath)
	if r.FileLines > 0 {
		var removed []string
		if r.FrontmatterLines > 0 {
			removed = append(removed, fmt.Sprintf("frontmatter (%d lines)", r.FrontmatterLines))
		}
		if r.CommentLines > 0 {
			removed = append(removed, fmt.Sprintf("block comments (%d lines)", r.CommentLines))
		}
		fmt.Fprintf(w, "file: %s lines, %s units; Claude Code removes %s and counts the rest\n",
			textfile.N0(r.FileLines), textfile.N0(r.FileUnits), strings.Join(removed, " and "))
	}
	fmt.Fprintf(w, "lines: %s of %s loaded (limit %s)%s\n", textfile.N0(r.LinesLoaded), textfile.N0(r.LinesTotal), textfile.N0(r.LineLimit), over(r.LinesOver))
	fmt.Fprintf(w, "units: %s of %s loaded (limit %s UTF-16 code units)%s\n", textfile.N0(r.UnitsLoaded), textfile.N0(r.UnitsTotal), textfile.N0(r.UnitLimit), over(r.UnitsOver))
	switch r.Limit {
	case loadcut.LimitSize:
		fmt.Fprintf(w, "cut: the file is over %s bytes; Claude Code loads none of it\n", textfile.N0(loadcut.MaxBytes))
	case loadcut.LimitLines:
		fmt.Fprintf(w, "cut: the line limit ends the load; from line %d on, nothing is loaded\n", r.FirstCutLine)
	case loadcut.LimitUnits:
		fmt.Fprintf(w, "cut: the unit limit ends the load at the last line break before unit %s; from line %d on, nothing is loaded\n", textfile.N0(r.UnitLimit), r.FirstCutLine)
	}
	if len(r.Hidden) > 0 {
		fmt.Fprintf(w, "subjects hidden before any limit: %d of %d\n", len(r.Hidden), r.SubjectsTotal)
		for _, s := range r.Hidden {
			fmt.Fprintf(w, "  line %-4d %s [%s] (by %s)\n", s.Line, s.Target, s.LinkText, s.By)
		}
	}
	fmt.Fprintf(w, "subjects past the cut: %d of %d\n", len(r.PastCut), r.SubjectsTotal)
	if len(r.PastCut) > 0 {
		fmt.Fprintf(w, "\npast the cut, nearest first:\n")
		for _, s := range r.PastCut {
			fmt.Fprintf(w, "  line %-4d %s [%s]\n", s.Line, s.Target, s.LinkText)
		}
	}
}
