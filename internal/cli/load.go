package cli

import (
	"context"
	"fmt"

	"github.com/memcompact/memcompact/internal/loadcut"
	"github.com/memcompact/memcompact/internal/outcome"
)

const loadUsage = "load [--lines N] [--units N] [--text] [--settings FILE|JSON] [--json] [INDEX]"

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
	var req loadcut.Request
	var asJSON bool
	flags := newFlagSet("load")
	flags.BoolVar(&req.Text, "text", false, "also print the memory text exactly as Claude Code loads it")
	flags.IntVar(&req.Lines, "lines", loadcut.DefaultLines, "the line limit")
	flags.IntVar(&req.Units, "units", loadcut.DefaultUnits, "the size limit in UTF-16 code units")
	var settings string
	flags.StringVar(&settings, "settings", "", "the --settings value claude is started with (it may set autoMemoryDirectory)")
	flags.BoolVar(&asJSON, "json", false, "print one JSON object")
	alias(flags, "json", "Json")
	indexFlag := indexFlag(flags)
	pos, err := parseFlags(env, flags, loadUsage, args)
	if err != nil {
		return err
	}
	pos = withIndexFlag(*indexFlag, pos)
	if len(pos) > 1 {
		err = &outcome.Error{Status: outcome.Usage, Msg: fmt.Sprintf("load takes one index; found %d arguments", len(pos)), Hints: []string{"usage: memcompact " + loadUsage}}
	} else {
		if len(pos) == 1 {
			req.Index = pos[0]
		}
		req.Where = env.where()
		req.Where.Settings = settings
		var o *loadcut.Outcome
		if o, err = loadcut.Run(context.Background(), req); err == nil {
			if asJSON {
				writeJSONTo(env.Stdout, o.JSON())
			} else {
				err = o.WriteText(env.Stdout)
			}
			return rendered(int(o.Status()), err)
		}
	}
	if asJSON {
		writeJSONTo(env.Stdout, loadcut.ErrorJSON(err))
	}
	return engineError(err)
}
