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
	b := textLines(make([]byte, 0, 1024))
	switch r.Result {
	case UsageError:
		b.line("RESULT: usage-error")
		b.line("reason: ", r.Reason)
	case Refused:
		b.line("RESULT: refused")
		b.line("reason: ", r.Refusal.Reason)
		for _, d := range r.Refusal.Detail {
			b.line("  ", d)
		}
		b.line(noCounts)
	default:
		b.verdict(r)
	}
	_, err := w.Write(b)
	return err
}

// textLines is the text report as it is built.
type textLines []byte

// line appends one line: its parts, then LF.
func (b *textLines) line(parts ...string) {
	for _, p := range parts {
		*b = append(*b, p...)
	}
	*b = append(*b, '\n')
}

// verdict appends the lines of a report that has counts (clean or defects).
func (b *textLines) verdict(r *Report) {
	b.line("RESULT: ", r.Result)
	b.line("policy: ", r.PolicyStatus)
	if r.PolicyDivergence != "" {
		b.line("  ", r.PolicyDivergence)
	}
	for _, e := range r.PolicyExplanation {
		b.line("  ", e)
	}
	b.line("size: ", SizeText(&r.Size))
	if n := len(r.Size.IgnoredKeys); n > 0 {
		b.line("  note: this version does not understand ", strconv.Itoa(n), " forward-compatibility key(s) and ignored them: ", strings.Join(r.Size.IgnoredKeys, ", "))
	}
	b.line("subjects_without_hook: ", strconv.Itoa(len(r.WithoutHook)))
	b.line("unattributed_shared_notes: ", strconv.Itoa(len(r.SharedNotes)))
	b.line()
	b.line("index: ", r.Index)
	b.line("reference: ", r.Reference)
	if r.PolicyFile != "" {
		b.line("store policy file: ", r.PolicyFile)
	}
	b.line("excluded from comparison: ", ExcludedHeading)
	b.line("entry kinds named by the policy: ", strings.Join(r.KindPrefixes, ", "), " (read from the ", r.KindPrefixSource,
		"; matched ", strconv.Itoa(r.EntriesMatchingKind), " of ", strconv.Itoa(r.SubjectsTotal), " linked subjects)")
	if r.EntriesNotMatchingKind > 0 {
		b.line("  note: ", strconv.Itoa(r.EntriesNotMatchingKind), " linked subject(s) carry none of those prefixes and were judged under this store's rules anyway")
	}
	if len(r.WithoutHook) > 0 {
		b.line()
		b.line("subjects without a recall hook:")
		for _, s := range r.WithoutHook {
			b.line("  line ", lineNumber(s.Line), " ", s.Target, " [", s.LinkText, "] - ", s.Reason)
		}
	}
	if len(r.SharedNotes) > 0 {
		b.line()
		b.line("unattributed shared notes:")
		for _, n := range r.SharedNotes {
			b.line("  line ", lineNumber(n.Line), " ", strconv.Itoa(len(n.Subjects)), " subjects share a ", n.Position, " note '", n.Note, "'")
		}
	}
}

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
		out += " [the observation is " + strconv.Itoa(s.ObservationAgeDays) + " days old against a " + strconv.Itoa(s.StalenessBoundDays) + "-day bound - re-observe the limit]"
	}
	return out
}
