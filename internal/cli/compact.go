package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/compact"
	"github.com/memcompact/memcompact/internal/lockfile"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/psflag"
	"github.com/memcompact/memcompact/internal/shellword"
	"github.com/memcompact/memcompact/internal/summarize"
)

const compactUsage = "compact [FILE...] [--all] [--dry-run] [--yes] [--summarizer claude|anthropic|openai|CMD [--model M] [--base-url URL] [--strict] [--timeout D]] [--plan | --summary FILE] [--steps] [--allow-loss] [--entry-heading H] [--root DIR] [--json]"

func init() {
	register(compactUsage, runCompact)
}

// compactFlags are the flags compact and save share: they fill a compact
// Request (save takes its summarizer and consent from it), and --json.
type compactFlags struct {
	req  compact.Request
	json bool
}

// request is the Request the flags filled, with what the environment
// adds: the date, the clock, and the questions a terminal can be asked.
// --yes is consent to both questions.
func (f *compactFlags) request(env *Env) compact.Request {
	req := f.req
	req.AllowRemote, req.Confirm, req.Today, req.Now = req.Confirmed, askFirstCompaction(env), env.Today(), env.Now()
	if isTerminal(env.Stdin) {
		req.ConfirmRemote = func(where string) bool {
			return ask(env, fmt.Sprintf("Send the oldest tier of each file to compact (never a secret entry) to %s?", where))
		}
	}
	return req
}

func compactFlagSet(f *compactFlags, name string) *flag.FlagSet {
	fset := newFlagSet(name)
	fset.StringVar(&f.req.Root, "root", "", "the memory root (the directory holding compaction/)")
	fset.StringVar(&f.req.EntryHeading, "entry-heading", "", "what starts an entry: a heading level (\"##\") or a regular expression")
	fset.StringVar(&f.req.Summarizer, "summarizer", "", "claude, anthropic, openai, builtin, or a shell command: the prompt and the oldest tier on stdin, bullets on stdout")
	fset.StringVar(&f.req.Model, "model", "", "the model of --summarizer claude, anthropic or openai (default: MEMCOMPACT_MODEL, then the summarizer's own)")
	fset.StringVar(&f.req.BaseURL, "base-url", "", "the API's base URL for --summarizer anthropic or openai (default: ANTHROPIC_BASE_URL or OPENAI_BASE_URL)")
	fset.StringVar(&f.req.Fallback, "fallback", "", "builtin: when the summary is refused for what it says or leaves out (after its repair round), let the built-in summarizer write the block instead of leaving the file as it was")
	fset.BoolVar(&f.req.Strict, "strict", false, "abort when the summary still misses something after the repair round, instead of appending those lines verbatim")
	fset.DurationVar(&f.req.Timeout, "timeout", summarize.DefaultTimeout, "how long the summarizer may take per call")
	fset.BoolVar(&f.req.Confirmed, "yes", false, "confirm without asking: a first compaction, and sending the oldest tier to a remote summarizer")
	psflag.Bool(fset, &f.json, "json", "Json", "print the result as JSON")
	psflag.Alias(fset, "yes", "y")
	psflag.Alias(fset, "timeout", "summarizer-timeout")
	return fset
}

// askFirstCompaction is the confirmation callback of compact and save: nil
// (so the engine refuses) without a terminal to ask on.
func askFirstCompaction(env *Env) func(*compact.Report) bool {
	if !isTerminal(env.Stdin) {
		return nil
	}
	return func(r *compact.Report) bool {
		return ask(env, fmt.Sprintf("First compaction of %s (%d/%d %s; snapshot %s). Go ahead?", r.File, r.SizeBefore, r.Budget, r.Unit, r.Snapshot))
	}
}

func runCompact(env *Env, args []string) (err error) {
	var f compactFlags
	fset := compactFlagSet(&f, "compact")
	fset.BoolVar(&f.req.All, "all", false, "compact every over-budget file of the policy (the default without FILE)")
	fset.BoolVar(&f.req.DryRun, "dry-run", false, "show everything, write nothing")
	fset.BoolVar(&f.req.AllowLoss, "allow-loss", false, "when the budget cannot hold the statements that must stay live (health and safety, people, decisions, instructions), compact anyway and move them to the snapshot, counted in the report")
	fset.BoolVar(&f.req.Steps, "steps", false, "only the design's one step: distill the oldest tier as drawn, and report a shortfall if that is not enough")
	fset.BoolVar(&f.req.Plan, "plan", false, "print the oldest tier and the facts that must survive, for an agent to summarize; write nothing")
	fset.StringVar(&f.req.SummaryFile, "summary", "", "use the bullets in this file (written from --plan) as the summary")
	pos, err := parseFlags(env, fset, args)
	if err != nil {
		return err
	}
	defer func() { err = withJSONError(env, f.json, err) }()
	req := f.request(env)
	req.Files = pos
	if !f.json {
		h := &compactHinter{args: args, pos: pos, root: f.req.Root, flags: fset}
		req.OnFile = func(r *compact.Report) { renderCompact(env, r, req.DryRun, h) }
	}
	res, err := compact.Run(context.Background(), req)
	if err != nil {
		rerun := "memcompact compact " + shellword.Join(args)
		return fail(lockHint(err, rerun), compactHints(f.req.Root, rerun))
	}
	if f.json {
		if err := printJSON(env, res); err != nil {
			return err
		}
	} else {
		res.WriteText(env.Stdout, len(pos) > 0)
	}
	return exitCode(int(res.Outcome))
}

// compactHints are the hints of compact's and save's refusals that replace
// the engine's (a file's own refusals get refusalHints), each a command to
// paste, with root the --root given and rerun the command as run. Save's
// rerun is "": its refusal of a malformed policy keeps the engine's hint,
// or says how to save the kept entry.
func compactHints(root, rerun string) map[outcome.Reason]string {
	h := map[outcome.Reason]string{budget.ReasonNoRoot: "make the working directory the memory root: memcompact init"}
	if root != "" {
		h = map[outcome.Reason]string{budget.ReasonNoPolicy: "create its policy: memcompact init" + rootArg(root)}
	}
	if rerun != "" {
		h[budget.ReasonMalformedPolicy] = "fix those lines of " + budget.PolicyRel + " (" + budget.PolicyRow + "), then run it again: " + rerun
	}
	return h
}

// lockHint replaces the hint of a refusal for a lock another run held
// with the command to run again once it is done (rerun), when there is
// one.
func lockHint(err error, rerun string) error {
	var oe *outcome.Error
	if rerun != "" && errors.As(err, &oe) && oe.Reason == lockfile.ReasonHeld {
		oe.Hints = []string{"wait for the other run to finish, then run it again: " + rerun}
	}
	return err
}

// compactHinter writes compact's hints as commands to paste where compact
// was run: args are its arguments as run, root the --root given.
type compactHinter struct {
	args, pos []string // as run, and the FILE arguments among them
	root      string
	flags     *flag.FlagSet // compact's, to tell which flags take a value
}

// only is the command as run for r's file alone: that FILE, the flags as
// given but --all, and flags added.
func (h *compactHinter) only(r *compact.Report, flags ...string) string {
	words := []string{h.file(r)}
	pos := h.pos
	for i, a := range h.args {
		if a == "--" {
			break
		}
		if len(pos) > 0 && a == pos[0] && (i == 0 || !psflag.TakesValue(h.flags, h.args[i-1])) {
			pos = pos[1:]
			continue
		}
		if name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "="); strings.HasPrefix(a, "-") && strings.EqualFold(name, "all") {
			continue
		}
		words = append(words, a)
	}
	return "memcompact compact " + shellword.Join(append(words, flags...))
}

// again is the command as run with flags added (before a "--", after
// which they would be FILE arguments), quoted for a shell.
func (h *compactHinter) again(flags ...string) string {
	i := slices.Index(h.args, "--")
	if i < 0 {
		i = len(h.args)
	}
	words := slices.Concat(h.args[:i], flags, h.args[i:])
	return "memcompact compact " + shellword.Join(words)
}

// file is the report's file as a FILE argument from the working
// directory, quoted for a shell.
func (h *compactHinter) file(r *compact.Report) string {
	return wdPath(r.Root, r.File)
}

// rootArg is " --root DIR" for the --root given (root), quoted for a
// shell, or "": how compact's and save's hints repeat it.
func rootArg(root string) string {
	if root == "" {
		return ""
	}
	return " --root " + shellword.Quote(root)
}

// renderCompact prints one file's outcome, with compact's hints when h
// (the command as run, to paste with a flag added) is set; save prints
// its own (after a save, running it again would save the entry twice).
func renderCompact(env *Env, r *compact.Report, dryRun bool, h *compactHinter) {
	w := env.Stdout
	switch r.Status {
	case compact.StatusWithin:
		// The summary line after the loop covers the all-within case.
		fmt.Fprintln(w, r.Message)
		return
	case compact.StatusPlanned:
		r.WritePlanText(w)
		return
	case compact.StatusRefused, compact.StatusNotConfirmed:
		outcome.Say(env.Stderr, outcome.KindError, r.Message)
		if h != nil {
			refusalHints(env.Stderr, r, h)
		}
		return
	}
	r.WriteText(w)
	if r.Status == compact.StatusShortfall && h != nil {
		r.WriteShortfallHints(w, h.file(r), rootArg(h.root))
	}
	if dryRun {
		r.WriteDryRunText(w)
	}
}

// refusalHints are the hints of a file's refusal: the command as run with
// the flag that gives the missing consent, where there is one.
func refusalHints(w io.Writer, r *compact.Report, h *compactHinter) {
	switch {
	case r.Status == compact.StatusNotConfirmed:
		outcome.Say(w, outcome.KindHint, "run it in a terminal to be asked, or confirm it: "+h.again("--yes"))
	case r.Reason == compact.ReasonRemoteNotAllowed:
		outcome.Say(w, outcome.KindHint, "see what would be sent: "+h.again("--plan"))
		outcome.Say(w, outcome.KindHint, "allow sending it (or set allow_remote = true in compaction/summarizer.toml): "+h.again("--yes"))
	case r.Reason == compact.ReasonNoEntries && r.SuggestEntryHeading != "":
		// A file with no heading that would do gets no hint: the message
		// says what was looked for, and no command can be promised.
		outcome.Say(w, outcome.KindHint, fmt.Sprintf("start an entry at each %s heading: %s", r.SuggestEntryHeading, h.only(r, "--entry-heading", r.SuggestEntryHeading)))
	}
}
