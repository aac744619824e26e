package compact

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/distill"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/summarize"
	"github.com/memcompact/memcompact/internal/textfile"
)

// Reasons of a model summarizer's refusals.
const (
	// ReasonRemoteNotAllowed: the summarizer would send text off this
	// machine, and no flag, setting or answer allowed it.
	ReasonRemoteNotAllowed outcome.Reason = "remote-not-allowed"
	// ReasonSummarizerUnavailable: the summarizer cannot run here (no
	// claude on PATH, no API key, a bad base URL or settings file).
	ReasonSummarizerUnavailable outcome.Reason = "summarizer-unavailable"
)

// ModelRun is what a model summarizer did for one file (JSON "model").
type ModelRun struct {
	Summarizer string `json:"summarizer"` // which model, where
	Rounds     int    `json:"rounds"`     // 1, or 2 with the repair round
	Repaired   bool   `json:"repaired"`
	// RepairedFor is what the repair round asked for: "missing" (a
	// must-keep statement), "too-long", "misplaced".
	RepairedFor []string `json:"repaired_for,omitempty"`
	// Appended are the source lines added verbatim because the model left
	// out what they hold even after the repair round.
	Appended []string `json:"appended_lines,omitempty"`
}

// Summarizing is the part of a Request (and a SaveRequest) that chooses a
// model summarizer, and the consent to send text to it.
type Summarizing struct {
	// Summarizer is the summarizer asked for, as --summarizer names it:
	// claude, anthropic, openai or builtin, else a shell command (run as
	// Command is). "" means none: then Command, else the root's
	// compaction/summarizer.toml, else the built-in summarizer decides.
	Summarizer string
	// Model and BaseURL are a model summarizer's model and API base URL;
	// "" for its default.
	Model, BaseURL string
	// Strict aborts a compaction whose summary still misses lines after
	// the repair round, instead of appending them verbatim.
	Strict bool
	// Fallback is "builtin" to have the built-in summarizer write the
	// block of a file whose summary the meaning check refused (after its
	// repair round), instead of leaving that file as it was; "" for none.
	Fallback string
	// AllowRemote is consent to send the oldest tier (never a secret
	// entry) off this machine; without it ConfirmRemote is asked, and
	// with neither a remote summarizer is refused.
	AllowRemote   bool
	ConfirmRemote func(where string) bool
	// Env is where API keys and claude are looked up; nil for the
	// process's environment and PATH.
	Env *summarize.Env
}

// config is the model summarizer asked for, with its model and base URL
// (Kind "" when none is, or when Summarizer is a shell command: see
// shellCommand).
func (s *Summarizing) config() summarize.Config {
	cfg := summarize.Parse(s.Summarizer)
	if cfg.Kind == summarize.Command {
		cfg = summarize.Config{}
	}
	cfg.Model, cfg.BaseURL = s.Model, s.BaseURL
	return cfg
}

// shellCommand is the shell command to summarize with: Summarizer when it
// names no summarizer of ours, else command.
func (s *Summarizing) shellCommand(command string) string {
	if cfg := summarize.Parse(s.Summarizer); cfg.Kind == summarize.Command {
		return cfg.Command
	}
	return command
}

// chosen is the summarizer a run resolved to.
type chosen struct {
	model   summarize.Model  // nil: the built-in summarizer, a summary, or a plan
	cfg     summarize.Config // what was chosen (Builtin for none)
	strict  bool
	consent *consent // nil when no consent is needed
}

// consent is the question whether the oldest tier may leave the machine.
// It is asked when a file's tier is about to be sent, not before: a run
// in which no file needs distilling (nothing over budget) asks nothing.
// The first answer holds for the rest of the run.
type consent struct {
	cfg   summarize.Config
	ask   func(where string) bool // nil: no way to ask
	asked bool
	ok    bool
}

// allow asks (once) and returns the refusal when the answer is no or
// there was no way to ask. A nil consent allows.
func (c *consent) allow() error {
	if c == nil {
		return nil
	}
	if !c.asked {
		c.asked = true
		c.ok = c.ask != nil && c.ask(c.cfg.Where())
	}
	if c.ok {
		return nil
	}
	return &outcome.Error{Status: outcome.Refused, Reason: ReasonRemoteNotAllowed,
		Msg: fmt.Sprintf("--summarizer %s would send the oldest tier (never a secret entry) to %s, and that was not allowed; nothing was sent or written", c.cfg.Kind, c.cfg.Where())}
}

// choose resolves the summarizer of a run: the flags' choice (a model, or
// command as a shell command), else the root's settings file, else the
// built-in one. Consent to send text off the machine is not asked here:
// c.consent asks when a file's tier is about to be sent (plan sends
// nothing and needs none).
func (s *Summarizing) choose(root, command string, timeout time.Duration, summary, plan bool) (chosen, error) {
	c := chosen{cfg: s.config(), strict: s.Strict}
	if command != "" {
		if c.cfg.Kind != "" && c.cfg.Kind != summarize.Builtin {
			return c, outcome.Usagef(ReasonBadRequest, "give one --summarizer")
		}
		c.cfg = summarize.Config{Kind: summarize.Command, Command: command, Model: c.cfg.Model, BaseURL: c.cfg.BaseURL}
	}
	allow := s.AllowRemote
	if c.cfg.Kind == "" && !summary {
		f, err := summarize.LoadFile(root)
		if err != nil {
			return c, &outcome.Error{Status: outcome.Refused, Reason: ReasonSummarizerUnavailable, Msg: err.Error(), Err: err}
		}
		if f != nil {
			fc := f.Config()
			fc.Model, fc.BaseURL = first(c.cfg.Model, fc.Model), first(c.cfg.BaseURL, fc.BaseURL)
			c.cfg, c.strict, allow = fc, c.strict || f.Strict, allow || f.AllowRemote
		}
	}
	if c.cfg.Kind == "" || c.cfg.Kind == summarize.Builtin || summary {
		if c.cfg.Model != "" || c.cfg.BaseURL != "" {
			return c, outcome.Usagef(ReasonBadRequest, "--model and --base-url are for --summarizer claude, anthropic or openai")
		}
		c.cfg.Kind = summarize.Builtin
		return c, nil
	}
	if c.cfg.Timeout <= 0 {
		c.cfg.Timeout = timeout
	}
	env := summarize.DefaultEnv(os.Getenv)
	if s.Env != nil {
		env = *s.Env
	}
	cfg, err := c.cfg.Resolve(env.Getenv)
	if err != nil {
		return c, outcome.Usagef(ReasonBadRequest, "%v", err)
	}
	c.cfg = cfg
	if plan {
		return c, nil
	}
	if cfg.Remote() && !allow {
		c.consent = &consent{cfg: cfg, ask: s.ConfirmRemote}
	}
	if c.model, err = summarize.New(cfg, env); err != nil {
		return c, &outcome.Error{Status: outcome.Refused, Reason: ReasonSummarizerUnavailable, Msg: err.Error(), Err: err}
	}
	return c, nil
}

// modelBullets distills srcs (the tier's entries) with o.Model. The
// request names the tier's must-keep statements (distill.MustKeep); the
// check is the one verify makes: each must-keep statement present, and
// the block within the budget, no statement under another parent
// (misplaced). What is wrong is sent back once; what is missing is then
// appended verbatim (or the compaction aborts, with Strict). Facts the
// bullets leave out live on in the snapshot, as with any summarizer.
func (pl *Plan) modelBullets(ctx context.Context, srcs []distill.Source) ([]string, error) {
	keep := distill.MustKeep(srcs)
	in := summarize.Input{File: pl.o.Rel, Tier: distill.TierText(srcs), MustKeep: keep}
	var lost []string       // what the last bullets checked missed
	var unfaithful []string // what the last bullets checked said wrong
	over := pl.overBy(srcs)
	check := func(bullets []string) summarize.Verdict {
		stated, dropped := summarize.SplitDropped(bullets)
		lost = missingKeep(keep, stated, dropped)
		// A must-keep line still missing after the repair round is
		// appended verbatim (unless strict): the priority facts it holds
		// are carried by it, so it is read as one of the bullets.
		v := summarize.Verdict{Over: over(bullets), Misplaced: pl.misplaced(stated), Unfaithful: meaningFaults(sourceTexts(srcs, pl.o.Rel), append(append([]string(nil), bullets...), lost...))}
		unfaithful = v.Unfaithful
		for _, s := range lost {
			v.Missing = append(v.Missing, summarize.Missing{What: s, Line: s})
		}
		return v
	}
	res, err := summarize.Distill(ctx, pl.o.Model, in, check, pl.o.Strict)
	run := &ModelRun{Summarizer: pl.o.Model.Name()}
	pl.Report.Model = run
	if errors.Is(err, summarize.ErrStrict) {
		run.Rounds, run.Repaired = 2, true
		pl.Report.LostKeep = lost
		return nil, fmt.Errorf("%s's summary would drop %d %s that must stay in the file, even after one repair round (--strict)", pl.o.Model.Name(), len(lost), textfile.Plural(len(lost), "statement", "statements"))
	}
	if errors.Is(err, summarize.ErrUnfaithful) {
		run.Rounds, run.Repaired = 2, true
		pl.Report.Unfaithful = unfaithful
		return nil, fmt.Errorf("%w; the built-in summarizer keeps to its entries: run again with --summarizer builtin, or add --fallback builtin", err)
	}
	if err != nil {
		return nil, err
	}
	run.Rounds, run.Repaired, run.RepairedFor, run.Appended = res.Rounds, res.Repaired, res.RepairedFor, res.Appended
	return res.Bullets, nil
}

// missingKeep are the statements of keep that bullets do not hold,
// compared as verify compares them (distill.Flat), and that no declared
// drop names.
func missingKeep(keep, bullets, dropped []string) []string {
	flat := distill.Flat(strings.Join(bullets, "\n"))
	var out []string
	for _, s := range keep {
		if !strings.Contains(flat, distill.Flat(s)) && !declaredDropped(s, dropped) {
			out = append(out, s)
		}
	}
	return out
}

// overBy returns a check of whether bullets would leave the file over its
// budget, worded for the repair message ("" when they fit). It estimates:
// the file less the distilled entries, plus a block of these bullets; the
// exact check (and the mid tier's lightening) comes after, in finish.
func (pl *Plan) overBy(srcs []distill.Source) func([]string) string {
	u := pl.o.Row.Unit
	limit := pl.o.Row.Budget - pl.o.Reserve
	rest := pl.Report.SizeBefore - budget.Measure(distill.TierText(srcs), u)
	return func(bullets []string) string {
		var b strings.Builder
		b.WriteString("## Compacted History\n*Distilled from N entries on DATE. Full detail in SNAPSHOT.*\n")
		for _, l := range bullets {
			b.WriteString("- " + l + "\n")
		}
		b.WriteString("\n")
		size := rest + budget.Measure(b.String(), u)
		if size <= limit {
			return ""
		}
		return fmt.Sprintf("with them the file would be about %d %s, and its budget is %d; the bullets must be about %d %s shorter in all.", size, u, limit, size-limit, u)
	}
}

// preview fills a planned report with the instructions and the request a
// summarizer is given (exactly what modelBullets would send: the tier's
// entries and their must-keep statements), and, for a model summarizer,
// where it would go.
func (pl *Plan) preview(cfg summarize.Config) {
	rep := pl.Report
	in := summarize.Input{File: rep.File, Tier: rep.TierText, MustKeep: rep.MustKeep}
	if pl.doc != nil {
		srcs := pl.tierOnly()
		in.Tier, in.MustKeep = distill.TierText(srcs), distill.MustKeep(srcs)
	}
	rep.Prompt, rep.Request = summarize.Instructions, summarize.Request(in)
	if cfg.Kind != "" && cfg.Kind != summarize.Builtin {
		rep.SendsTo = cfg.Where()
		rep.Preview = summarize.Preview(cfg, in)
	}
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
