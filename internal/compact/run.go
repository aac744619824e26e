package compact

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/distill"
	"github.com/memcompact/memcompact/internal/lockfile"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/shellword"
	"github.com/memcompact/memcompact/internal/snapshot"
	"github.com/memcompact/memcompact/internal/summarize"
	"github.com/memcompact/memcompact/internal/textfile"
)

// Reasons of compaction's refusals and usage errors, at the top (an
// *outcome.Error) or per file (Report.Reason), besides the budget
// package's for the root, the policy and a FILE argument.
const (
	ReasonBadRequest                  = budget.ReasonBadRequest // flags that do not go together, a bad value
	ReasonBadSummary   outcome.Reason = "bad-summary"           // the summary file could not be read
	ReasonNoEntries    outcome.Reason = "no-entries"            // the file has no recognizable entries
	ReasonNeedsConfirm outcome.Reason = "needs-confirmation"    // a first compaction, neither confirmed nor a way to ask
	ReasonNotConfirmed outcome.Reason = "not-confirmed"         // asked, and the answer was no
)

// Summary is an agent's summary of a file's oldest tier, given as a value:
// one bullet per line.
type Summary struct {
	Name string // how reports name it ("summary:NAME")
	Text string
}

// Request asks to compact budgeted files (the compact verb).
type Request struct {
	Root string // the memory root; "" means the nearest one upward
	// Files are the files to compact, even within budget (relative to the
	// working directory, or absolute); none means every over-budget file
	// of the policy. All asks for that explicitly.
	Files []string
	All   bool

	DryRun bool // decide and report everything, write nothing
	// Plan stops once the tiers are known: each report then carries the
	// oldest tier's text and the facts that must survive. Nothing is
	// written.
	Plan bool
	// Steps keeps the design's one step (see Options.Steps).
	Steps bool
	// AllowLoss (see Options.AllowLoss).
	AllowLoss bool

	// The summarizer: an agent's bullets (SummaryFile, a file read here,
	// or Summary, the same as a value), else Command (an external command
	// given the tier on stdin, run for at most Timeout), else the built-in
	// one. Timeout must be positive (summarize.DefaultTimeout is the usual).
	SummaryFile string
	Summary     *Summary
	Command     string
	Timeout     time.Duration
	// Summarizing chooses a model summarizer instead (claude, anthropic,
	// openai), or lets the root's compaction/summarizer.toml choose one;
	// a Command runs through the same prompt, repair and verification.
	Summarizing

	EntryHeading string // overrides the entry rule (see package entries)

	// A file's first compaction (no snapshot of it yet) needs consent:
	// Confirmed gives it; otherwise Confirm, when set, is asked, and with
	// neither the file is refused (StatusNotConfirmed).
	Confirmed bool
	Confirm   func(*Report) bool

	// OnFile, when set, is called with each file's report as soon as it is
	// final, so a caller can show progress between confirmations.
	OnFile func(*Report)

	Today, Now time.Time // name the snapshots
}

// Result is compact's outcome. Its JSON is compact's --json output.
type Result struct {
	SchemaVersion int       `json:"schema_version"`
	Root          string    `json:"root"`
	DryRun        bool      `json:"dry_run"`
	Files         []*Report `json:"files"`
	// Outcome is the worst of the files': Defects when one is still over
	// budget or was aborted, Refused when one was refused.
	Outcome outcome.Status `json:"-"`
}

// target is one file to compact.
type target struct {
	rel      string
	row      *budget.Row
	explicit bool // named: compacted even within budget
}

// Run compacts each file the request names, or each over-budget file of
// the policy. Per-file outcomes (within budget, still over, aborted,
// refused) are reports in the result; an error means nothing was tried.
func Run(ctx context.Context, req Request) (*Result, error) {
	req.Command = req.shellCommand(req.Command)
	if err := req.check(); err != nil {
		return nil, err
	}
	root, p, err := budget.Open(req.Root)
	if err != nil {
		return nil, err
	}
	targets, err := req.targets(root, p)
	if err != nil {
		return nil, err
	}
	summary, err := req.summary()
	if err != nil {
		return nil, err
	}
	ch, err := req.choose(root, req.Command, req.Timeout, summary != nil, req.Plan)
	if err != nil {
		return nil, err
	}
	if !req.DryRun && !req.Plan {
		// From each file's read to its write no other memcompact run
		// writes this root.
		release, err := lockfile.Lock(ctx, root)
		if err != nil {
			return nil, err
		}
		defer release()
	}
	res := &Result{SchemaVersion: SchemaVersion, Root: root, DryRun: req.DryRun, Files: []*Report{}}
	for _, t := range targets {
		o := Options{
			Root: root, Rel: t.rel, Row: *t.row, EntryHeading: req.EntryHeading,
			Summary: summary, SummaryName: req.summaryName(), Command: req.Command, Timeout: req.Timeout,
			Explicit: t.explicit, Today: req.Today, Now: req.Now, PlanOnly: req.Plan, Steps: req.Steps, AllowLoss: req.AllowLoss,
			Model: ch.model, Strict: ch.strict, consent: ch.consent,
		}
		pl := Prepare(ctx, o)
		if req.Fallback == "builtin" && refusedSummary(pl.Report) {
			pl = fallBack(ctx, o, pl)
		}
		if pl.Report.Status == StatusPlanned {
			pl.preview(ch.cfg)
		}
		st := pl.Code
		if st == outcome.Clean && pl.Report.Status == StatusCompacted && !req.DryRun {
			st = pl.write(req.Confirmed, req.Confirm)
		}
		pl.Report.DryRun = req.DryRun
		pl.Report.Root = root
		if !req.DryRun {
			pl.Report.Block = ""
		}
		res.Files = append(res.Files, pl.Report)
		res.Outcome = outcome.Worst(res.Outcome, st)
		if req.OnFile != nil {
			req.OnFile(pl.Report)
		}
	}
	return res, nil
}

// refusedSummary reports whether a compaction was aborted for what its
// summary (a model's, an agent's, a command's) says or leaves out: a
// statement not as the entries say it, a must-keep statement lost, a
// statement under the wrong parent. The built-in summarizer writes none
// of these, so --fallback builtin may write the block instead.
func refusedSummary(r *Report) bool {
	return r.Status == StatusAborted && (len(r.Unfaithful) > 0 || len(r.LostKeep) > 0 || len(r.Misplaced) > 0)
}

// fallBack plans the file again with the built-in summarizer, after the
// meaning check refused the summary of the one asked for; the report says
// what it replaced.
func fallBack(ctx context.Context, o Options, refused *Plan) *Plan {
	o.Summary, o.SummaryName, o.Command, o.Model = nil, "", "", nil
	pl := Prepare(ctx, o)
	pl.Report.FellBack = refused.Report.Message
	return pl
}

// check refuses flags that do not go together.
func (req *Request) check() error {
	hasSummary := req.SummaryFile != "" || req.Summary != nil
	switch {
	case req.All && len(req.Files) > 0:
		return outcome.Usagef(ReasonBadRequest, "give FILE arguments or --all, not both")
	case req.Plan && hasSummary:
		return outcome.Usagef(ReasonBadRequest, "--plan writes nothing; it cannot be combined with --summary")
	case hasSummary && (req.Command != "" || (req.config().Kind != "" && req.config().Kind != summarize.Builtin)):
		return outcome.Usagef(ReasonBadRequest, "give --summarizer or --summary, not both")
	case hasSummary && len(req.Files) != 1:
		return outcome.Usagef(ReasonBadRequest, "--summary needs exactly one FILE: the summary is of that file's oldest tier")
	case req.Fallback != "" && req.Fallback != "builtin":
		return outcome.Usagef(ReasonBadRequest, "--fallback takes builtin (the only summarizer to fall back to), not %q", req.Fallback)
	case req.Timeout <= 0:
		return outcome.Usagef(ReasonBadRequest, "--timeout must be positive")
	}
	return nil
}

// targets are the files named (each must be budgeted), else every
// budgeted file that exists.
func (req *Request) targets(root string, p *budget.Policy) ([]target, error) {
	var ts []target
	for _, file := range req.Files {
		rel, row, err := budget.Budgeted(root, p, file)
		if err != nil {
			return nil, req.budgetHint(err, file)
		}
		ts = append(ts, target{rel, row, true})
	}
	if len(req.Files) > 0 {
		return ts, nil
	}
	files, _ := p.Files(root)
	for _, bf := range files {
		if !bf.Missing {
			ts = append(ts, target{bf.Rel, bf.Row, false})
		}
	}
	return ts, nil
}

// summary is the agent's bullets, or nil when there is no summary.
func (req *Request) summary() ([]string, error) {
	var text string
	switch {
	case req.SummaryFile != "":
		sf, err := textfile.Read(req.SummaryFile)
		if err != nil {
			return nil, &outcome.Error{Status: outcome.Usage, Reason: ReasonBadSummary, Msg: fmt.Sprintf("--summary: %v", err), Err: err}
		}
		text = sf.Text
	case req.Summary != nil:
		text = req.Summary.Text
	default:
		return nil, nil
	}
	if b := distill.ParseBullets(text); b != nil {
		return b, nil
	}
	return []string{}, nil
}

func (req *Request) summaryName() string {
	if req.Summary != nil && req.SummaryFile == "" {
		return req.Summary.Name
	}
	return req.SummaryFile
}

// write asks for consent when this is the file's first compaction (no
// snapshot of it yet), then writes. It returns the outcome's status; a
// refusal or a failed write is in the report.
func (pl *Plan) write(confirmed bool, confirm func(*Report) bool) outcome.Status {
	rep := pl.Report
	if !confirmed && !snapshot.Exists(pl.snapDir, rep.File) {
		refuse := func(reason outcome.Reason, msg string) outcome.Status {
			rep.Status, rep.Reason, rep.Message = StatusNotConfirmed, reason, msg
			rep.Snapshot, rep.SizeAfter = "", rep.SizeBefore
			return outcome.Refused
		}
		if confirm == nil {
			return refuse(ReasonNeedsConfirm, fmt.Sprintf("%s has never been compacted (no snapshot of it yet), and a first compaction needs confirmation; nothing was written", rep.File))
		}
		if !confirm(rep) {
			return refuse(ReasonNotConfirmed, fmt.Sprintf("%s: not confirmed; nothing was written", rep.File))
		}
	}
	if err := pl.Write(); err != nil {
		rep.Status = StatusAborted
		rep.Reason = budget.IOFailure(err).Reason
		rep.Message = err.Error()
		rep.SizeAfter = rep.SizeBefore
		return outcome.Refused
	}
	return outcome.Clean
}

// budgetHint explains the refusal of a FILE: one outside the root can
// never be compacted (the message says so, for every face alike), and one
// the policy does not name gets the command that gives it a budget: its size now, so that the command is
// true as printed (the file is then within budget; a lower budget has it
// compacted). A file that cannot be read gets no hint: there is nothing to
// budget.
func (req *Request) budgetHint(err error, file string) error {
	var oe *outcome.Error
	if errors.As(err, &oe) && oe.Reason == budget.ReasonOutsideRoot {
		// No command compacts a file outside the root: say so.
		oe.Msg += "; only the files under it can be compacted (a FILE path is relative to the working directory)"
		return err
	}
	if oe == nil || oe.Reason != budget.ReasonNotInPolicy {
		return err
	}
	f, rerr := textfile.Read(file)
	if rerr != nil {
		return err
	}
	cmd := fmt.Sprintf("memcompact set-budget %s %d lines", shellword.Quote(file), max(budget.Measure(f.Text, budget.Lines), 1))
	if req.Root != "" {
		cmd += " --root " + shellword.Quote(req.Root)
	}
	oe.Hints = append(oe.Hints, "give it a budget (its size now; a lower one has it compacted): "+cmd)
	return err
}
