package check

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"syscall"

	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/policy"
	"github.com/memcompact/memcompact/internal/textfile"
)

// splitJudgement judges the policy axis of a split store: the stanza in
// the index, and the policy file it names beside the index.
type splitJudgement struct {
	*judgement
	stanza policy.Stanza

	residue        []int // 0-based lines of policy text left outside the stanza
	stanzaComplete bool
	fileComplete   bool
	fileDivergence string
}

// judge fills the policy axis. It returns the policy file's compared lines
// (the kind source) and its values.
func (s *splitJudgement) judge() ([]string, *policy.Values, error) {
	rep := s.rep
	rep.Shape = ShapeSplit
	s.findResidue()
	s.stanzaComplete = !s.pointerInHeader && slices.Equal(s.stanza.Block, s.stanzaRef) && len(s.residue) == 0

	abs, reason := resolvePolicyPath(s.opt.IndexPath, s.stanza.Path)
	if reason != "" {
		return nil, nil, refusal(RefPolicyPathMalformed, "split-store stanza is malformed", reason,
			"this is a malformed declaration, not the half-migrated state")
	}
	rep.PolicyFile = abs
	kindLines, values, err := s.readPolicyFile(abs)
	if err != nil {
		return nil, nil, err
	}
	rep.PolicyComplete = s.stanzaComplete && s.fileComplete
	rep.PolicyPresent = rep.Shape == ShapeSplit
	if rep.PolicyComplete {
		rep.PolicyStatus = "split - stanza and policy file both match the reference"
		return kindLines, values, nil
	}
	s.describe()
	return kindLines, values, nil
}

// findResidue finds a run of policy lines left anywhere outside the stanza.
func (s *splitJudgement) findResidue() {
	for i, l := range s.lines {
		if i >= s.stanza.Begin && i <= s.stanza.End {
			continue
		}
		if s.probes[index.TrimRight(l)] {
			s.residue = append(s.residue, i)
		}
	}
	if len(s.residue) < residueFloor {
		s.residue = nil
	}
}

// readPolicyFile reads the policy file at abs. A missing file is the
// half-migrated state (the stanza landed, the file has not); anything else
// that cannot be read is a refusal. It returns the compared region's lines.
func (s *splitJudgement) readPolicyFile(abs string) ([]string, *policy.Values, error) {
	fi, statErr := os.Stat(abs)
	switch {
	case statErr == nil && fi.IsDir():
		return nil, nil, refusal(RefPolicyFileUnreadable, "this store's policy file could not be read",
			"path: "+abs, "a directory sits where the policy file should be",
			"something exists there, so this is not the half-migrated state")
	case statErr != nil && (errors.Is(statErr, fs.ErrNotExist) || errors.Is(statErr, syscall.ENOTDIR)):
		s.rep.Shape = ShapeSplitIncomplete
		s.fileDivergence = fmt.Sprintf("the stanza names '%s', and no such file sits beside this index (looked for: %s)", s.stanza.Path, abs)
		return nil, nil, nil
	}
	text, err := textfile.ReadText(abs)
	if err != nil {
		return nil, nil, refusal(RefPolicyFileUnreadable, "this store's policy file could not be read",
			"path: "+abs, ioMessage(err), "the file exists, so this is not the half-migrated state")
	}
	plines := textfile.Lines(text)
	region := policy.ReadRegion(plines, policy.PolicyBegin, policy.PolicyEnd)
	if !region.HasContent() {
		return nil, nil, refusal(RefPolicyFileMalformed, "this store's policy file is malformed",
			fmt.Sprintf("expected '%s' and '%s' around a non-empty policy text", policy.PolicyBegin, policy.PolicyEnd),
			"in: "+abs)
	}
	if region.Duplicated() {
		return nil, nil, refusal(RefPolicyFileMalformed, "this store's policy file is malformed",
			fmt.Sprintf("carries %d '%s' and %d '%s' marker(s); exactly one of each is expected, so which policy governs is ambiguous",
				region.BeginCount, policy.PolicyBegin, region.EndCount, policy.PolicyEnd),
			"in: "+abs)
	}
	// Blocks are compared line by line: a normalized block has no empty
	// first or last line, so two are equal exactly when their texts are.
	s.fileComplete = slices.Equal(region.Block, s.canon)
	if !s.fileComplete {
		s.fileDivergence = FirstDivergence(region.Block, s.canon, "policy file")
	}
	v := policy.ParseValues(plines, s.opt.Today)
	return region.Block, &v, nil
}

// describe words an incomplete split policy: its status, where it first
// diverges, and for a half-migrated store what to do.
func (s *splitJudgement) describe() {
	rep := s.rep
	label := "split"
	if rep.Shape == ShapeSplitIncomplete {
		label = "split, half-migrated"
	}
	stanzaWord := "stanza INCOMPLETE"
	if s.stanzaComplete {
		stanzaWord = "stanza complete"
	}
	fileWord := "policy file INCOMPLETE"
	switch {
	case rep.Shape == ShapeSplitIncomplete:
		fileWord = "policy file missing"
	case s.fileComplete:
		fileWord = "policy file complete"
	}
	rep.PolicyStatus = label + " - " + stanzaWord + ", " + fileWord
	var parts []string
	if !s.stanzaComplete {
		parts = append(parts, s.stanzaDivergence())
	}
	if s.fileDivergence != "" {
		parts = append(parts, s.fileDivergence)
	}
	rep.PolicyDivergence = strings.Join(parts, "; ")
	if rep.Shape == ShapeSplitIncomplete {
		rep.PolicyExplanation = halfMigratedExplanation
	}
}

// stanzaDivergence says why the stanza is incomplete.
func (s *splitJudgement) stanzaDivergence() string {
	switch {
	case s.pointerInHeader:
		return pointerInsideHeader
	case len(s.residue) > 0:
		where := "in its header region, outside the stanza"
		if s.residue[len(s.residue)-1] >= s.ix.FirstHeading {
			nums := make([]string, 0, 5)
			for _, i := range s.residue[:min(5, len(s.residue))] {
				nums = append(nums, fmt.Sprint(i+1))
			}
			where = "at line(s) " + strings.Join(nums, ", ")
		}
		return fmt.Sprintf("the index still carries policy text %s (%d line(s), first: '%s') - the split moves that text to the policy file",
			where, len(s.residue), index.TrimRight(s.lines[s.residue[0]]))
	}
	return FirstDivergence(s.stanza.Block, s.stanzaRef, "stanza")
}
