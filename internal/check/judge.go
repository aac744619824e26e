package check

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/policy"
	"github.com/memcompact/memcompact/internal/recall"
	"github.com/memcompact/memcompact/internal/textfile"
)

// refusalError is a refusal met while judging: the step that meets it
// returns it as an error, and judge turns it into the refused report.
type refusalError struct{ Refusal }

func (e *refusalError) Error() string { return string(e.Kind) + ": " + e.Reason }

// refusal returns a refusalError.
func refusal(kind RefusalKind, reason string, detail ...string) error {
	if detail == nil {
		detail = []string{}
	}
	return &refusalError{Refusal{Kind: kind, Reason: reason, Detail: detail}}
}

// judgement is one check in progress: the reference copy's canonical
// texts, the index as read, and the report being filled. Each axis is a
// method, so no step needs more than the judgement itself.
type judgement struct {
	opt     Options
	refName string
	rep     *Report

	canon         []string // the reference's canonical policy block
	stanzaRef     []string // the reference's canonical stanza
	stanzaProblem string   // why the reference's stanza cannot judge a split store, or ""

	text            string // the index's text
	lines           []string
	ix              *index.Index
	header          []string        // the header region, normalized
	probes          map[string]bool // long canonical lines, to recognize policy text
	pointerInHeader bool
}

// judge checks the index text against the reference's lines.
func judge(opt Options, text string, refLines []string) *Report {
	return judgeParsed(opt, text, refLines, nil)
}

// judgeParsed is judge over the index already parsed into p (nil: parse
// it here).
func judgeParsed(opt Options, text string, refLines []string, p *Parsed) *Report {
	j := &judgement{opt: opt, refName: opt.Reference.Display, text: text}
	if p != nil {
		j.lines, j.ix = p.Lines, p.Index
	}
	err := j.readReference(refLines)
	if err == nil {
		err = j.readIndex()
	}
	if err == nil {
		err = j.judge()
	}
	var r *refusalError
	if errors.As(err, &r) {
		return &Report{Result: Refused, Index: opt.IndexPath, Refusal: &r.Refusal}
	}
	return j.rep
}

// readReference reads the canonical policy (required for every store) and
// the canonical stanza (judged now, demanded only of a split store, so a
// stanza-less reference still judges a legacy store).
func (j *judgement) readReference(refLines []string) error {
	canon := policy.ReadRegion(refLines, policy.PolicyBegin, policy.PolicyEnd)
	malformed := func(detail ...string) error {
		return refusal(RefReferenceMalformed, "policy reference copy is malformed", detail...)
	}
	switch {
	case !canon.HasContent():
		return malformed(fmt.Sprintf("expected '%s' and '%s' around a non-empty policy text", policy.PolicyBegin, policy.PolicyEnd), "in: "+j.refName)
	case canon.Duplicated():
		return malformed(fmt.Sprintf("carries %d '%s' and %d '%s' marker(s); exactly one of each is expected, so which text governs is ambiguous",
			canon.BeginCount, policy.PolicyBegin, canon.EndCount, policy.PolicyEnd), "in: "+j.refName)
	case policy.HasSectionHeading(canon.Block):
		return malformed(`the canonical policy block contains a "## " section heading`,
			`that would make the index-side header boundary ambiguous; use "###" or deeper inside the policy`)
	}
	j.canon = canon.Block

	stanzaRef := policy.ReadRegion(refLines, policy.StanzaBegin, policy.StanzaEnd)
	j.stanzaRef = stanzaRef.Block
	switch {
	case !stanzaRef.HasContent():
		j.stanzaProblem = fmt.Sprintf("expected '%s' and '%s' around a non-empty stanza", policy.StanzaBegin, policy.StanzaEnd)
	case stanzaRef.Duplicated():
		j.stanzaProblem = fmt.Sprintf("carries %d '%s' and %d '%s' marker(s); exactly one of each is expected, so which stanza governs is ambiguous",
			stanzaRef.BeginCount, policy.StanzaBegin, stanzaRef.EndCount, policy.StanzaEnd)
	case policy.HasSectionHeading(stanzaRef.Block):
		j.stanzaProblem = `the canonical stanza contains a "## " section heading, and the stanza sits above the index's first section heading, so that would truncate the header region`
	}
	return nil
}

// readIndex parses the index and refuses a structure it does not fully
// recognize.
func (j *judgement) readIndex() error {
	if j.ix == nil {
		j.lines = textfile.Lines(j.text)
		j.ix = index.Parse(j.lines)
	}
	switch ix := j.ix; {
	case ix.FirstHeading < 0:
		return refusal(RefNoHeading, "index structure not recognized",
			`no "## " section heading found; the policy header is delimited by the first section heading`)
	case ix.FirstPointer < 0:
		return refusal(RefNoPointer, "index structure not recognized",
			"no pointer line found (a list item linking a .md entry)")
	case len(ix.Unparsed) > 0:
		detail := []string{"these would have been judged silently, so no counts are reported:"}
		for _, u := range ix.Unparsed {
			detail = append(detail, fmt.Sprintf("line %d: %s", u.Line, u.Snippet))
		}
		return refusal(RefUnparsedLink, "a link-like construct could not be parsed", detail...)
	}
	j.header = policy.NormalizeBlock(j.lines[:j.ix.FirstHeading])
	for _, l := range j.header {
		if index.IsPointerPattern(l) && strings.Contains(l, "](") {
			j.pointerInHeader = true
			break
		}
	}
	j.probes = map[string]bool{}
	for _, l := range j.canon {
		if textfile.Units(index.TrimSpace(l)) >= probeMinLength {
			j.probes[l] = true
		}
	}
	return nil
}

// judge fills the report's four axes: policy, kinds, hooks and notes, size.
func (j *judgement) judge() error {
	j.rep = &Report{
		Result:                   Defects,
		Index:                    j.opt.IndexPath,
		Reference:                j.refName,
		Shape:                    ShapeLegacy,
		PolicyExplanation:        []string{},
		HeaderBeforeFirstPointer: j.ix.FirstHeading <= j.ix.FirstPointer,
	}
	kindLines, values, err := j.policyAxis()
	if err != nil {
		return err
	}
	if err := j.kindAxis(kindLines); err != nil {
		return err
	}
	rep := j.rep
	absent := "this store's policy file records no budget inputs"
	switch rep.Shape {
	case ShapeSplitIncomplete:
		absent = "this store's policy file does not exist yet, so no budget inputs were read"
	case ShapeLegacy:
		absent = "budget inputs are read only from a split store's policy file, and this store has none"
	}
	// The index's text was decoded as it was read (by the check or its
	// caller), so it is valid UTF-8.
	rep.Size = sizeAxis(textfile.DecodedUnits(j.text), values, j.opt.Today, absent)
	sizeDefect := rep.Size.State == SizeOver || rep.Size.State == SizeCouldNotVerify
	if rep.PolicyComplete && len(rep.WithoutHook) == 0 && len(rep.SharedNotes) == 0 && !sizeDefect {
		rep.Result = Clean
	}
	return nil
}

// policyAxis judges the policy in the store's shape. It returns the lines
// the store's entry kinds are read from, and the policy file's values.
func (j *judgement) policyAxis() ([]string, *policy.Values, error) {
	stanza := policy.ReadStanza(j.lines, j.ix.FirstHeading)
	if stanza.Declared && stanza.Malformed() {
		return nil, nil, refusal(RefStanzaMalformed, "split-store stanza is malformed", stanza.Reason,
			"the store declares the split shape, so it is not read back as a legacy store")
	}
	if !stanza.Declared {
		j.judgeLegacy()
		return j.header, nil, nil
	}
	if j.stanzaProblem != "" {
		return nil, nil, refusal(RefReferenceStanza, "policy reference copy is malformed", j.stanzaProblem,
			"this store declares the split shape, so the canonical stanza is required to judge it",
			"in: "+j.refName)
	}
	s := &splitJudgement{judgement: j, stanza: stanza}
	kindLines, values, err := s.judge()
	if err != nil {
		return nil, nil, err
	}
	if j.rep.Shape != ShapeSplit {
		kindLines = j.header
	}
	return kindLines, values, nil
}

// kindAxis reads the entry kinds from the store's own policy text (the
// policy file's compared region, or the index header), else from the
// reference, and counts the subjects, their hooks and shared notes.
func (j *judgement) kindAxis(kindLines []string) error {
	rep := j.rep
	rep.KindPrefixes = kindPrefixesOf(kindLines)
	rep.KindPrefixSource = SourceIndexHeader
	if rep.Shape == ShapeSplit {
		rep.KindPrefixSource = SourcePolicyFile
	}
	if len(rep.KindPrefixes) == 0 {
		rep.KindPrefixes = kindPrefixesOf(j.canon)
		rep.KindPrefixSource = SourceReference
	}
	if len(rep.KindPrefixes) == 0 {
		return refusal(RefNoKindPrefixes, "policy reference copy is malformed",
			"neither this store's policy text nor the canonical policy text names any entry-kind prefix")
	}
	subjects, notes := recall.Judge(j.ix)
	for _, s := range subjects {
		if matchesKind(s.Target, rep.KindPrefixes) {
			rep.EntriesMatchingKind++
		}
	}
	rep.SubjectsTotal = len(subjects)
	rep.EntriesNotMatchingKind = len(subjects) - rep.EntriesMatchingKind
	// A half-migrated store's vocabulary lives in a file it has not written
	// yet: unknowable, not unadapted, so it is reported rather than refused.
	if rep.EntriesMatchingKind == 0 && rep.Shape != ShapeSplitIncomplete {
		return refusal(RefVocabulary, "entry-kind vocabulary not recognized",
			"policy names: "+strings.Join(rep.KindPrefixes, ", ")+" (read from the "+rep.KindPrefixSource+")",
			"no linked entry in this index carries any of those prefixes",
			"adapt the policy text to this store first - see '"+ExcludedHeading+"' in "+j.refName)
	}
	rep.WithoutHook = recall.WithoutHooks(subjects)
	rep.SharedNotes = notes
	if rep.SharedNotes == nil {
		rep.SharedNotes = []recall.SharedNote{}
	}
	return nil
}

// judgeLegacy fills the policy axis of a store that carries its policy in
// the index header.
func (j *judgement) judgeLegacy() {
	rep := j.rep
	for _, l := range j.header {
		if j.probes[l] {
			rep.PolicyPresent = true
			break
		}
	}
	rep.PolicyComplete = rep.PolicyPresent && rep.HeaderBeforeFirstPointer && !j.pointerInHeader && slices.Equal(j.header, j.canon)
	switch {
	case !rep.PolicyPresent:
		rep.PolicyStatus = "in-index header - absent"
		for _, l := range j.lines {
			if j.probes[index.TrimRight(l)] {
				rep.PolicyDivergence = "policy text appears in this index but below its first section heading, outside the header region"
				break
			}
		}
	case rep.PolicyComplete:
		rep.PolicyStatus = "in-index header - present, complete"
	default:
		rep.PolicyStatus = "in-index header - present, INCOMPLETE"
		if j.pointerInHeader {
			rep.PolicyDivergence = pointerInsideHeader
		} else {
			rep.PolicyDivergence = FirstDivergence(j.header, j.canon, "header")
		}
		rep.PolicyExplanation = legacyExplanation
	}
}
