package sweepact

import (
	"bufio"
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
					sub.Reason = "the owner's decision at review: " + arg
				}
				sub.Disposition = arg
				if arg == "keep-hot-with-expiry" && sub.Until == "" {
					sub.Until = addDays(mustDate(pl.PlannedOn), 30).String()
				}
				if arg == "demote" && sub.Destination == "" {
					sub.Destination = "ARCHIVE.md (body kept at " + sub.Name + ".md)"
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
