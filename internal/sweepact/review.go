package sweepact

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/memcompact/memcompact/internal/records"
)

// ReviewHelp is the answer vocabulary, shown once at the start.
const ReviewHelp = `answers: a accept · r reject · d DISPOSITION change it · e REASON edit the reason ·
         set FIELD VALUE (destination, probe, landed yes|no, critical yes|no, until DATE, into IDENTITY) ·
         A accept every pending subject with this disposition · s skip (decide later) · q stop and save`

// Review walks the plan's pending subjects, prompting on out and reading
// one answer per line from in, so a terminal and a test script answer the
// same way. It changes pl in place and returns how many decisions it took.
// An answer it does not understand is asked again, never guessed; the end
// of input stops the review with what was decided so far.
func Review(pl *Plan, in io.Reader, out io.Writer) (int, error) {
	sc := bufio.NewScanner(in)
	fmt.Fprintln(out, ReviewHelp)
	decided := 0
subjects:
	for i := range pl.Subjects {
		sub := &pl.Subjects[i]
		if sub.Decision != Pending {
			continue
		}
		for asked := false; sub.Decision == Pending; asked = true {
			if !asked {
				printSubject(out, i+1, len(pl.Subjects), sub)
			}
			fmt.Fprint(out, "> ")
			if !sc.Scan() {
				fmt.Fprintln(out)
				return decided, sc.Err()
			}
			verb, arg, _ := strings.Cut(strings.TrimSpace(sc.Text()), " ")
			arg = strings.TrimSpace(arg)
			switch verb {
			case "a":
				sub.Decision = Accepted
				decided++
			case "r":
				sub.Decision = Rejected
				decided++
			case "d":
				if !slices.Contains(PlanDispositions, arg) {
					fmt.Fprintf(out, "unknown disposition %q; one of %s\n", arg, strings.Join(PlanDispositions, ", "))
					continue
				}
				if arg != sub.Disposition {
					changeDisposition(pl, sub, arg)
				}
				fmt.Fprintf(out, "now %s; accept or reject it\n", arg)
			case "e":
				if arg == "" {
					fmt.Fprintln(out, "a reason cannot be empty")
					continue
				}
				sub.Reason = arg
			case "set":
				if msg := setField(sub, arg); msg != "" {
					fmt.Fprintln(out, msg)
				}
			case "A":
				kind := sub.Disposition
				for j := i; j < len(pl.Subjects); j++ {
					if pl.Subjects[j].Decision == Pending && pl.Subjects[j].Disposition == kind {
						pl.Subjects[j].Decision = Accepted
						decided++
					}
				}
			case "s":
				continue subjects
			case "q":
				return decided, nil
			default:
				fmt.Fprintln(out, ReviewHelp)
			}
		}
	}
	return decided, nil
}

func printSubject(out io.Writer, n, total int, s *Subject) {
	fmt.Fprintf(out, "\n[%d/%d] %s (%s, line %d, critical: %s)\n", n, total, s.Identity, s.Population, s.Line, orDash(s.Critical))
	fmt.Fprintf(out, "  proposed: %s — %s\n", s.Disposition, s.Reason)
	if s.CriticalWhy != "" {
		fmt.Fprintf(out, "  critical: %s\n", s.CriticalWhy)
	}
	if s.Destination != "" {
		fmt.Fprintf(out, "  destination: %s\n", s.Destination)
	}
	for _, e := range s.Evidence {
		fmt.Fprintf(out, "  evidence: %s\n", e)
	}
}

func orDash(s string) string {
	if s == "" {
		return "unassessed"
	}
	return s
}

func mustDate(s string) records.Date {
	d, _ := records.ParseDate(s)
	return d
}

// setField sets one of a subject's editable fields from "FIELD VALUE",
// returning what is wrong with the answer ("" when it was taken).
func setField(sub *Subject, arg string) string {
	name, value, _ := strings.Cut(arg, " ")
	value = strings.TrimSpace(value)
	switch name {
	case "destination":
		sub.Destination = value
	case "probe":
		sub.LessonProbe = value
	case "landed":
		if value != "yes" && value != "no" {
			return "landed is yes or no"
		}
		sub.Landed = value == "yes"
	case "critical":
		if value != "yes" && value != "no" {
			return "critical is yes or no, lower case"
		}
		sub.Critical, sub.Assess = value, true
		sub.CriticalWhy = "assessed by the owner at review"
	case "until":
		if _, ok := records.ParseDate(value); !ok {
			return "until is a yyyy-MM-dd date"
		}
		sub.Until = value
	case "into":
		sub.Into = value
	default:
		return "set one of destination, probe, landed, critical, until, into"
	}
	return ""
}

// ReviewRequest asks for a plan file to be reviewed: answers are read from
// In, prompts written to Out, and the decisions saved back into the file.
type ReviewRequest struct {
	PlanPath string
	In       io.Reader
	Out      io.Writer
}

// ReviewResult is what a review decided.
type ReviewResult struct {
	PlanPath string `json:"plan"`
	Decided  int    `json:"decided"`
	Pending  int    `json:"pending"`
}

// RunReview reads the plan file, walks its pending subjects (Review) and
// saves every decision taken, even when the answers end early.
func RunReview(ctx context.Context, req ReviewRequest) (*ReviewResult, error) {
	pl, err := ReadPlan(req.PlanPath)
	if err != nil {
		return nil, err
	}
	n, rerr := Review(pl, req.In, req.Out)
	if err := WritePlan(req.PlanPath, pl); err != nil {
		return nil, refusef(ReasonWrite, req.PlanPath, "the decisions could not be saved: %v", err)
	}
	res := &ReviewResult{PlanPath: req.PlanPath, Decided: n}
	for _, s := range pl.Subjects {
		if s.Decision == Pending {
			res.Pending++
		}
	}
	if rerr != nil {
		return res, refusef(ReasonUnreadable, "", "reading the answers: %v", rerr)
	}
	return res, ctx.Err()
}

// WritePlanText renders a plan for a person: the target, the figures now
// and after, the count per disposition and every move with its reason.
func WritePlanText(w io.Writer, pl *Plan, path string, recorded int) {
	counts := map[string]int{}
	for _, s := range pl.Subjects {
		counts[s.Disposition]++
	}
	fmt.Fprintf(w, "sweep plan for %s (%d subjects)\n", pl.Index, len(pl.Subjects))
	fmt.Fprintf(w, "target: %d lines, %d units (%s)\n", pl.Target.Lines, pl.Target.Units, pl.Target.Source)
	fmt.Fprintf(w, "now:    %d lines, %d units; %d of %d subjects load%s\n", pl.Before.Lines, pl.Before.Units, pl.Before.SubjectsLoaded, pl.Before.SubjectsTotal, CutWord(pl.Before.Cut))
	fmt.Fprintf(w, "after:  %d lines, %d units; %d of %d subjects load%s\n", pl.After.Lines, pl.After.Units, pl.After.SubjectsLoaded, pl.After.SubjectsTotal, CutWord(pl.After.Cut))
	var kinds []string
	for _, k := range PlanDispositions {
		if counts[k] > 0 {
			kinds = append(kinds, fmt.Sprintf("%s %d", k, counts[k]))
		}
	}
	fmt.Fprintf(w, "proposed: %s\n\n", strings.Join(kinds, ", "))
	for _, s := range pl.Subjects {
		if s.Disposition == Keep && len(s.DuplicateLines) == 0 {
			continue
		}
		fmt.Fprintf(w, "  %-20s %s — %s\n", s.Disposition, s.Identity, s.Reason)
	}
	writeCost(w, pl)
	for _, n := range pl.Notes {
		fmt.Fprintf(w, "\nnote: %s\n", n)
	}
	fmt.Fprintf(w, "\nplan written to %s", path)
	if recorded > 0 {
		fmt.Fprintf(w, "; %d proposal(s) recorded in the ledger", recorded)
	}
	fmt.Fprintf(w, "\nnext: memcompact sweep review %s, then memcompact sweep apply %s\n", path, path)
}

// writeCost says what the plan costs: the subjects that load today and
// would not after it, and which of them were read recently.
func writeCost(w io.Writer, pl *Plan) {
	c := pl.Cost
	if len(c.LoadNoLonger) == 0 {
		fmt.Fprintf(w, "\ncost: every subject that loads today still loads after\n")
		return
	}
	by := map[string][]string{}
	var kinds []string
	for _, it := range c.LoadNoLonger {
		if by[it.Disposition] == nil {
			kinds = append(kinds, it.Disposition)
		}
		by[it.Disposition] = append(by[it.Disposition], it.Identity)
	}
	fmt.Fprintf(w, "\ncost: %d subject(s) that load today would not after:\n", len(c.LoadNoLonger))
	for _, k := range kinds {
		fmt.Fprintf(w, "  %-20s %s\n", k, strings.Join(by[k], ", "))
	}
	if len(c.ReadRecently) > 0 {
		fmt.Fprintf(w, "  of them read in the last %d days: %s\n", RecentDays, strings.Join(c.ReadRecently, ", "))
	} else {
		fmt.Fprintf(w, "  of them read in the last %d days: none\n", RecentDays)
	}
}

// CutWord says whether an index loads whole.
func CutWord(cut bool) string {
	if cut {
		return " (cut at session start)"
	}
	return " (loads whole)"
}

// Decision is one owner's answer given other than on a terminal (the MCP
// face): a decision, and optionally a changed disposition.
type Decision struct {
	Identity    string `json:"identity" jsonschema:"the subject's life key, as the plan names it"`
	Decision    string `json:"decision" jsonschema:"accepted or rejected"`
	Disposition string `json:"disposition,omitempty" jsonschema:"a different disposition for it (e.g. keep, demote, keep-hot-with-expiry)"`
	Reason      string `json:"reason,omitempty" jsonschema:"the reason to record, when it differs from the plan's"`
}

// Decide applies decisions to a plan, refusing one that names no subject
// of the plan or says nonsense, and two that say different things of one
// subject (which one the owner meant is not for the order to settle), so
// nothing is decided on a typo.
func Decide(pl *Plan, ds []Decision) error {
	at := map[string]int{}
	for i, s := range pl.Subjects {
		at[s.Identity] = i
	}
	seen := map[string]Decision{}
	for _, d := range ds {
		if prev, ok := seen[d.Identity]; ok && prev != d {
			return fmt.Errorf("%s is decided twice, differently (%s, then %s); give one decision per subject", d.Identity, describe(prev), describe(d))
		}
		seen[d.Identity] = d
		i, ok := at[d.Identity]
		if !ok {
			return fmt.Errorf("'%s' is not a subject of the plan", d.Identity)
		}
		if d.Decision != Accepted && d.Decision != Rejected {
			return fmt.Errorf("%s: decision is accepted or rejected; found %q", d.Identity, d.Decision)
		}
		sub := &pl.Subjects[i]
		if d.Disposition != "" && d.Disposition != sub.Disposition {
			if !slices.Contains(PlanDispositions, d.Disposition) {
				return fmt.Errorf("%s: unknown disposition %q", d.Identity, d.Disposition)
			}
			changeDisposition(pl, sub, d.Disposition)
		}
		if d.Reason != "" {
			sub.Reason = d.Reason
		}
		sub.Decision = d.Decision
	}
	return validatePlan(pl)
}

// describe is a decision as the refusal of a contradiction names it.
func describe(d Decision) string {
	s := d.Decision
	if d.Disposition != "" {
		s += " as " + d.Disposition
	}
	return s
}

// changeDisposition is the owner changing a subject's disposition: the
// reason says so, and the fields the new disposition needs get defaults.
func changeDisposition(pl *Plan, sub *Subject, to string) {
	sub.Reason = "the owner's decision at review: " + to
	sub.Disposition = to
	if to == "keep-hot-with-expiry" && sub.Until == "" {
		sub.Until = addDays(mustDate(pl.PlannedOn), 30).String()
	}
	if to == "demote" && sub.Destination == "" {
		sub.Destination = "ARCHIVE.md (body kept at " + sub.Name + ".md)"
	}
}
