package check

import (
	"io"
	"strconv"
	"strings"

	"github.com/memcompact/memcompact/internal/textfile"
)

const noCounts = "No counts are reported: a verdict on input this check does not fully recognize would be a guess."

// WriteText renders the report as the human-readable lines of the
// contract, each ending in LF, in one write. It joins strings rather than
// formatting them: the first use of fmt's machinery in a process (its
// printer, the interface look-ups for each argument) cost a check more
// than its lines.
func WriteText(w io.Writer, r *Report) error {
	b := make([]byte, 0, 1024)
	line := func(parts ...string) {
		for _, p := range parts {
			b = append(b, p...)
		}
		b = append(b, '\n')
	}
	switch r.Result {
	case UsageError:
		line("RESULT: usage-error")
		line("reason: ", r.Reason)
	case Refused:
		line("RESULT: refused")
		line("reason: ", r.Refusal.Reason)
		for _, d := range r.Refusal.Detail {
			line("  ", d)
		}
		line(noCounts)
	default:
		line("RESULT: ", r.Result)
		line("policy: ", r.PolicyStatus)
		if r.PolicyDivergence != "" {
			line("  ", r.PolicyDivergence)
		}
		for _, e := range r.PolicyExplanation {
			line("  ", e)
		}
		line("size: ", SizeText(&r.Size))
		if n := len(r.Size.IgnoredKeys); n > 0 {
			line("  note: this version does not understand ", itoa(n), " forward-compatibility key(s) and ignored them: ", strings.Join(r.Size.IgnoredKeys, ", "))
		}
		line("subjects_without_hook: ", itoa(len(r.WithoutHook)))
		line("unattributed_shared_notes: ", itoa(len(r.SharedNotes)))
		line()
		line("index: ", r.Index)
		line("reference: ", r.Reference)
		if r.PolicyFile != "" {
			line("store policy file: ", r.PolicyFile)
		}
		line("excluded from comparison: ", ExcludedHeading)
		line("entry kinds named by the policy: ", strings.Join(r.KindPrefixes, ", "), " (read from the ", r.KindPrefixSource,
			"; matched ", itoa(r.EntriesMatchingKind), " of ", itoa(r.SubjectsTotal), " linked subjects)")
		if r.EntriesNotMatchingKind > 0 {
			line("  note: ", itoa(r.EntriesNotMatchingKind), " linked subject(s) carry none of those prefixes and were judged under this store's rules anyway")
		}
		if len(r.WithoutHook) > 0 {
			line()
			line("subjects without a recall hook:")
			for _, s := range r.WithoutHook {
				line("  line ", lineNumber(s.Line), " ", s.Target, " [", s.LinkText, "] - ", s.Reason)
			}
		}
		if len(r.SharedNotes) > 0 {
			line()
			line("unattributed shared notes:")
			for _, n := range r.SharedNotes {
				line("  line ", lineNumber(n.Line), " ", itoa(len(n.Subjects)), " subjects share a ", n.Position, " note '", n.Note, "'")
			}
		}
	}
	_, err := w.Write(b)
	return err
}

func itoa(n int) string { return strconv.Itoa(n) }

// lineNumber is a line number left-justified in four columns, as the
// contract's "%-4d" prints it.
func lineNumber(n int) string {
	s := strconv.Itoa(n)
	if len(s) < 4 {
		s += "    "[len(s):]
	}
	return s
}

// SizeText renders the size axis. A budget never appears as a bare number:
// the formula and the dated observation behind it travel with it.
func SizeText(s *Size) string {
	switch s.State {
	case SizeNotEvaluated:
		return "not evaluated - " + s.Cause
	case SizeCouldNotVerify:
		return "could not verify - " + s.Cause
	}
	basis := "budget = " + textfile.Fixed2(s.Fraction) + " of the " + textfile.N0(s.ObservationValue) + "-" + strings.TrimSuffix(s.Unit, "s") +
		" limit observed " + s.ObservationDate
	out := textfile.N0(s.Measured) + " of " + textfile.N0(s.Budget) + " " + s.Unit + " (" + basis + ")"
	if s.State == SizeOver {
		out = textfile.N0(s.Measured) + " of " + textfile.N0(s.Budget) + " " + s.Unit + " - OVER BY " + textfile.N0(s.Measured-s.Budget) + " (" + basis + ")"
	}
	if s.Stale {
		out += " [the observation is " + itoa(s.ObservationAgeDays) + " days old against a " + itoa(s.StalenessBoundDays) + "-day bound - re-observe the limit]"
	}
	return out
}
