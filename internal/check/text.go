package check

import (
	"fmt"
	"io"
	"strings"

	"github.com/memcompact/memcompact/internal/textfile"
)

const noCounts = "No counts are reported: a verdict on input this check does not fully recognize would be a guess."

// WriteText renders the report as the human-readable lines of the
// contract, each ending in LF.
func WriteText(w io.Writer, r *Report) error {
	var b strings.Builder
	line := func(format string, a ...any) {
		fmt.Fprintf(&b, format, a...)
		b.WriteByte('\n')
	}
	switch r.Result {
	case UsageError:
		line("RESULT: usage-error")
		line("reason: %s", r.Reason)
	case Refused:
		line("RESULT: refused")
		line("reason: %s", r.Refusal.Reason)
		for _, d := range r.Refusal.Detail {
			line("  %s", d)
		}
		line("%s", noCounts)
	default:
		line("RESULT: %s", r.Result)
		line("policy: %s", r.PolicyStatus)
		if r.PolicyDivergence != "" {
			line("  %s", r.PolicyDivergence)
		}
		for _, e := range r.PolicyExplanation {
			line("  %s", e)
		}
		line("size: %s", SizeText(&r.Size))
		if n := len(r.Size.IgnoredKeys); n > 0 {
			line("  note: this version does not understand %d forward-compatibility key(s) and ignored them: %s", n, strings.Join(r.Size.IgnoredKeys, ", "))
		}
		line("subjects_without_hook: %d", len(r.WithoutHook))
		line("unattributed_shared_notes: %d", len(r.SharedNotes))
		line("")
		line("index: %s", r.Index)
		line("reference: %s", r.Reference)
		if r.PolicyFile != "" {
			line("store policy file: %s", r.PolicyFile)
		}
		line("excluded from comparison: %s", ExcludedHeading)
		line("entry kinds named by the policy: %s (read from the %s; matched %d of %d linked subjects)",
			strings.Join(r.KindPrefixes, ", "), r.KindPrefixSource, r.EntriesMatchingKind, r.SubjectsTotal)
		if r.EntriesNotMatchingKind > 0 {
			line("  note: %d linked subject(s) carry none of those prefixes and were judged under this store's rules anyway", r.EntriesNotMatchingKind)
		}
		if len(r.WithoutHook) > 0 {
			line("")
			line("subjects without a recall hook:")
			for _, s := range r.WithoutHook {
				line("  line %-4d %s [%s] - %s", s.Line, s.Target, s.LinkText, s.Reason)
			}
		}
		if len(r.SharedNotes) > 0 {
			line("")
			line("unattributed shared notes:")
			for _, n := range r.SharedNotes {
				line("  line %-4d %d subjects share a %s note '%s'", n.Line, len(n.Subjects), n.Position, n.Note)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
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
	basis := fmt.Sprintf("budget = %s of the %s-%s limit observed %s",
		textfile.Fixed2(s.Fraction), textfile.N0(s.ObservationValue), strings.TrimSuffix(s.Unit, "s"), s.ObservationDate)
	out := fmt.Sprintf("%s of %s %s (%s)", textfile.N0(s.Measured), textfile.N0(s.Budget), s.Unit, basis)
	if s.State == SizeOver {
		out = fmt.Sprintf("%s of %s %s - OVER BY %s (%s)", textfile.N0(s.Measured), textfile.N0(s.Budget), s.Unit, textfile.N0(s.Measured-s.Budget), basis)
	}
	if s.Stale {
		out += fmt.Sprintf(" [the observation is %d days old against a %d-day bound - re-observe the limit]", s.ObservationAgeDays, s.StalenessBoundDays)
	}
	return out
}
