package check

import (
	"fmt"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/recall"
	"github.com/memcompact/memcompact/internal/textfile"
)

// writeTextByFormat and sizeTextByFormat are WriteText and SizeText as
// first written, with fmt's verbs: the joined strings must print the same.
func writeTextByFormat(r *Report) string {
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
		line("size: %s", sizeTextByFormat(&r.Size))
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
	return b.String()
}

func sizeTextByFormat(s *Size) string {
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

// TestWriteTextAsFormat: every branch of the text, every size state and
// line numbers of every width print as the fmt verbs printed them.
func TestWriteTextAsFormat(t *testing.T) {
	evaluated := Size{State: SizeOver, Unit: "characters", Measured: 25123, Budget: 19982, Fraction: 0.8, ObservationValue: 24978,
		ObservationDate: "2026-08-06", ObservationMethod: "m", StalenessBoundDays: 30, ObservationAgeDays: 118, Stale: true, IgnoredKeys: []string{"x-a", "x-b"}}
	within := evaluated
	within.State, within.Stale, within.Measured, within.IgnoredKeys = SizeWithin, false, 100, nil
	full := &Report{
		Result: Defects, Index: "MEMORY.md", Reference: "ref", Shape: ShapeSplit, PolicyFile: "/s/POLICY.md",
		PolicyStatus: "split - stanza INCOMPLETE, policy file complete", PolicyDivergence: "first divergence at stanza line 2: %d",
		PolicyExplanation: legacyExplanation, KindPrefixes: []string{"feedback_", "project_"}, KindPrefixSource: SourcePolicyFile,
		EntriesMatchingKind: 3, EntriesNotMatchingKind: 2, SubjectsTotal: 5, Size: evaluated,
		WithoutHook: []recall.WithoutHook{{Line: 7, Target: "a.md", LinkText: "a", Reason: recall.ReasonBareTitle},
			{Line: 1234, Target: "b.md", LinkText: "%s", Reason: recall.ReasonFillerLinkText}, {Line: 123456, Target: "c.md", Reason: "r"}},
		SharedNotes: []recall.SharedNote{{Line: 12, Position: "trailing", Subjects: []string{"a.md", "b.md"}, Note: "shared words here"}},
	}
	reports := []*Report{
		full,
		{Result: Clean, Index: "i", Reference: "r", PolicyStatus: "in-index header - present, complete", KindPrefixSource: SourceIndexHeader,
			Size: Size{State: SizeNotEvaluated, Cause: "no budget"}, SubjectsTotal: 1, EntriesMatchingKind: 1},
		{Result: Defects, Index: "i", Reference: "r", Size: within},
		{Result: Defects, Index: "i", Reference: "r", Size: Size{State: SizeCouldNotVerify, Cause: "c"}},
		{Result: Refused, Index: "i", Refusal: &Refusal{Reason: "index structure not recognized", Detail: []string{"a", "b %v"}}},
		{Result: UsageError, Index: "i", Reason: "index not found at 'x'"},
	}
	for _, r := range reports {
		var b strings.Builder
		if err := WriteText(&b, r); err != nil {
			t.Fatal(err)
		}
		if want := writeTextByFormat(r); b.String() != want {
			t.Errorf("WriteText:\n%s\nwith fmt:\n%s", b.String(), want)
		}
	}
}
