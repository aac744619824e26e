// Package check is memcompact's read-only check of a memory index on four
// axes: the policy the store carries (in its index header, or split into a
// stanza and a policy file beside the index), the index's size against the
// budget the store records, subjects without a recall hook (R1), and notes
// shared over subjects that say nothing themselves (R2).
//
// Run returns a Report on every path: clean, defects, refused (input the
// check does not fully recognize; no counts) or usage-error (the index is
// not a file). Text and JSON render the same report. The behaviour, output
// bytes and JSON names are those of agent-orchestra's
// Test-MemoryIndexPolicy.ps1, so the two are interchangeable.
package check

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/policy"
	"github.com/memcompact/memcompact/internal/textfile"
)

// probeMinLength is how long (in UTF-16 units, trimmed) a reference policy
// line must be to count as evidence that an index carries the policy: short
// lines such as a code fence would answer yes for any index.
const probeMinLength = 30

// residueFloor is how many policy lines a split index may quote before they
// read as migration residue: a store citing a rule or two of its policy is
// ordinary.
const residueFloor = 3

// Reference is the reference copy to compare against.
type Reference struct {
	// Display is how the reference is named in the report.
	Display string
	// Path is the file to read; "" means Text (the built-in copy).
	Path string
	// Text is the built-in copy, used when Path is "": already decoded
	// (valid UTF-8, no byte-order mark), as reference.EmbeddedText is, so
	// the check does not decode it again on every run.
	Text string
}

// Options are the inputs of one check.
type Options struct {
	IndexPath string // as given; resolved against the working directory
	Reference Reference
	Today     time.Time // the local date; observations after it are errors
}

// legacyExplanation is printed under every diverged legacy header: the check
// cannot tell which policy text a store adopted, so it states both readings.
var legacyExplanation = []string{
	"this check cannot tell which policy text this store adopted, so both readings are stated:",
	"  - if this header predates the supersession of the never-retire ratchet, the divergence IS that",
	"    rewrite, not a defect in this store. Three onward paths, and nothing here obliges any of them:",
	"    adopt the split shape (see \"Adopting the split shape\" in the reference copy); or keep a clean",
	"    verdict by passing -PolicyReferencePath with the preserved pre-supersession text, shipped at",
	"    skills/agent-memory-compaction/templates/policy-pre-supersession.md; or do nothing, since a",
	"    diverged verdict is an honest report and not a failure.",
	"  - if this store had already adopted the text it is being compared against, the divergence is an",
	"    ordinary drift in this store - repair it to match the reference it was adopted from. Passing",
	"    the pre-supersession text will NOT produce a clean verdict in that case.",
}

var halfMigratedExplanation = []string{
	"this store is half-migrated: create the policy file the stanza names, carrying the canonical",
	"policy text between its markers and this store's own values outside them.",
}

const pointerInsideHeader = "a pointer line sits inside the header region, above the first section heading"

func refuse(indexPath string, kind RefusalKind, reason string, detail ...string) *Report {
	if detail == nil {
		detail = []string{}
	}
	return &Report{Result: Refused, Index: indexPath, Refusal: &Refusal{Kind: kind, Reason: reason, Detail: detail}}
}

// Evaluate checks one index. It reads the index, the reference copy and,
// for a split store, the policy file beside the index; it never writes.
func Evaluate(opt Options) *Report {
	ip := opt.IndexPath
	if fi, err := os.Stat(ip); ip == "" || err != nil || !fi.Mode().IsRegular() {
		return &Report{Result: UsageError, Index: ip, Reason: fmt.Sprintf("index not found at '%s'", ip)}
	}
	if rep := referenceMissing(opt); rep != nil {
		return rep
	}
	// The index is read once: the same text is split into lines and
	// measured, so a write landing mid-check cannot mix two versions. The
	// check needs only the text, so no digest is computed.
	text, err := textfile.ReadText(ip)
	if err != nil {
		return refuse(ip, RefIndexUnreadable, "index could not be read", ioMessage(err))
	}
	return runRead(opt, text, nil)
}

// Parsed is an index's text split into lines (textfile.Lines) and parsed
// (index.Parse of those lines), for a caller that holds both already.
type Parsed struct {
	Lines []string
	Index *index.Index
}

// EvaluateParsed is Evaluate over the index opt.IndexPath as the caller
// has already read it (through textfile, so its text is decoded) and parsed
// it: the pre-write guard, which holds the index it is judging a write to
// and parses it once for all its checks, so the index is not read a second
// time on every memory write. The check only reads p.
func EvaluateParsed(opt Options, ixFile *textfile.File, p Parsed) *Report {
	if rep := referenceMissing(opt); rep != nil {
		return rep
	}
	return runRead(opt, ixFile.Text, &p)
}

// referenceMissing is the refusal for a reference copy path that is not a
// regular file, or nil.
func referenceMissing(opt Options) *Report {
	ref := opt.Reference
	if ref.Path != "" {
		if fi, err := os.Stat(ref.Path); err != nil || !fi.Mode().IsRegular() {
			return refuse(opt.IndexPath, RefReferenceNotFound, "policy reference copy not found", "looked for: "+ref.Display)
		}
	}
	return nil
}

// runRead reads the reference copy and judges the index text.
func runRead(opt Options, text string, p *Parsed) *Report {
	ref := opt.Reference
	var refText string
	if ref.Path != "" {
		var err error
		if refText, err = textfile.ReadText(ref.Path); err != nil {
			return refuse(opt.IndexPath, RefReferenceUnreadable, "policy reference copy could not be read", ioMessage(err))
		}
	} else {
		refText = ref.Text
	}
	return judgeParsed(opt, text, textfile.Lines(refText), p)
}

// ioMessage is an I/O error's message without Go's "op path:" prefix
// duplicated by the caller's wording.
func ioMessage(err error) string { return err.Error() }

// resolvePolicyPath resolves the stanza's declared path against the index's
// own directory. A declaration that can never name a file beside the index
// is malformed, which is a different thing from a file not created yet.
func resolvePolicyPath(indexPath, declared string) (abs, reason string) {
	if strings.HasPrefix(declared, "/") {
		return "", fmt.Sprintf("the stanza names an absolute path ('%s'); the path is relative to the index's own directory", declared)
	}
	if trimmed := index.TrimRight(declared); strings.HasSuffix(trimmed, "/") || strings.HasSuffix(trimmed, `\`) {
		return "", fmt.Sprintf("the stanza names '%s', which ends in a path separator and so names a directory rather than a file", declared)
	}
	ixAbs, err := filepath.Abs(indexPath)
	if err != nil {
		return "", fmt.Sprintf("the stanza names a path this filesystem cannot express ('%s'): %v", declared, err)
	}
	dir := filepath.Dir(ixAbs)
	candidate := filepath.Join(dir, declared)
	base := strings.TrimRight(dir, "/")
	if !strings.HasPrefix(candidate, base+"/") {
		if strings.TrimRight(candidate, "/") == base {
			return "", fmt.Sprintf("the stanza names '%s', which names the index's own directory rather than a file in it; the policy file lives beside the index", declared)
		}
		return "", fmt.Sprintf("the stanza names '%s', which resolves outside the index's own directory (to %s); the policy file lives beside the index", declared, candidate)
	}
	return candidate, ""
}

// FirstDivergence names the first line on which an adopted text departs
// from the reference, in the adopted text's own numbering; "" if none.
func FirstDivergence(adopted, reference []string, label string) string {
	for i := 0; i < max(len(adopted), len(reference)); i++ {
		a, b := "<end of "+label+">", "<end of reference text>"
		if i < len(adopted) {
			a = adopted[i]
		}
		if i < len(reference) {
			b = reference[i]
		}
		if a != b {
			return fmt.Sprintf("first divergence at %s line %d: %s has '%s'; reference has '%s'", label, i+1, label, a, b)
		}
	}
	return ""
}

// KindPrefixes returns the entry-kind prefixes a policy text names: every
// backticked identifier ending in '_' (the pattern
// `([A-Za-z][A-Za-z0-9-]*_)`, matched left to right without overlap),
// de-duplicated without regard to case (the first spelling kept) and
// sorted the way the reference sorts them.
func KindPrefixes(text string) []string { return kindPrefixesOf([]string{text}) }

// kindPrefixesOf is KindPrefixes of the lines joined by LF: a prefix never
// spans a line, so the lines are scanned where they are instead of joined.
// Every match is collected and sorted stably, so the spellings of one
// prefix end up side by side with the first one first, and the others
// are dropped.
func kindPrefixesOf(lines []string) []string {
	var out []string
	for _, l := range lines {
		out = appendKindPrefixes(out, l)
	}
	slices.SortStableFunc(out, func(a, b string) int {
		switch {
		case collateLess(a, b):
			return -1
		case collateLess(b, a):
			return 1
		}
		return 0
	})
	return slices.CompactFunc(out, policy.EqualFoldASCII)
}

// appendKindPrefixes appends every prefix named in text. It matches the
// pattern by hand: compiling it cost every check more than the search.
func appendKindPrefixes(out []string, text string) []string {
	for i := 0; i < len(text); i++ {
		j := strings.IndexByte(text[i:], '`')
		if j < 0 {
			break
		}
		i += j
		if end := kindPrefixEnd(text, i+1); end >= 0 {
			out = append(out, text[i+1:end])
			i = end // the closing backtick is part of the match
		}
	}
	return out
}

// kindPrefixEnd returns the end of the prefix starting at text[start] (just
// past its '_', where the closing backtick sits), or -1 when none does: a
// letter, then letters, digits and '-', then "_`".
func kindPrefixEnd(text string, start int) int {
	if start >= len(text) || !isASCIILetter(text[start]) {
		return -1
	}
	i := start + 1
	for i < len(text) && (isASCIILetter(text[i]) || '0' <= text[i] && text[i] <= '9' || text[i] == '-') {
		i++
	}
	if i+1 < len(text) && text[i] == '_' && text[i+1] == '`' {
		return i + 1
	}
	return -1
}

func isASCIILetter(c byte) bool { return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' }

// collateLess orders prefixes as a culture-aware, case-insensitive
// comparison does (the reference sorts with PowerShell's Sort-Object):
// '_' before '-' before digits before letters, letters without case.
func collateLess(a, b string) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if wa, wb := collationWeight(a[i]), collationWeight(b[i]); wa != wb {
			return wa < wb
		}
	}
	return len(a) < len(b)
}

func collationWeight(c byte) int {
	switch {
	case c == '_':
		return 1
	case c == '-':
		return 2
	case '0' <= c && c <= '9':
		return 10 + int(c-'0')
	case 'A' <= c && c <= 'Z':
		return 20 + int(c-'A')
	case 'a' <= c && c <= 'z':
		return 20 + int(c-'a')
	}
	return 100 + int(c)
}

// matchesKind reports whether the target's file name starts with one of
// the prefixes, without regard to ASCII case.
func matchesKind(target string, prefixes []string) bool {
	name := index.FileName(target)
	for _, p := range prefixes {
		if len(name) >= len(p) && policy.EqualFoldASCII(name[:len(p)], p) {
			return true
		}
	}
	return false
}

func sizeAxis(measured int, v *policy.Values, today time.Time, absentCause string) Size {
	s := Size{State: SizeNotEvaluated, Cause: absentCause, Unit: policy.Unit, Measured: measured, IgnoredKeys: []string{}}
	if v == nil || !v.Present {
		return s
	}
	if v.Ignored != nil {
		s.IgnoredKeys = v.Ignored
	}
	if len(v.Errors) > 0 {
		msgs := make([]string, len(v.Errors))
		for i, e := range v.Errors {
			msgs[i] = e.Msg
		}
		s.State = SizeCouldNotVerify
		s.Cause = "the recorded budget inputs could not be read: " + strings.Join(msgs, "; ")
		return s
	}
	obs, ok := v.Freshest()
	if !ok {
		s.State = SizeCouldNotVerify
		s.Cause = "the store records budget inputs but no limit observation"
		return s
	}
	s.Fraction = policy.DefaultFraction
	if v.HasFraction {
		s.Fraction = v.Fraction
	}
	s.StalenessBoundDays = policy.DefaultStalenessDays
	if v.HasStaleness {
		s.StalenessBoundDays = v.Staleness
	}
	s.Cause = ""
	s.Budget = int(math.Floor(s.Fraction * float64(obs.Value)))
	s.ObservationValue = obs.Value
	s.ObservationDate = obs.Date.Format("2006-01-02")
	s.ObservationMethod = obs.Method
	s.ObservationAgeDays = policy.AgeDays(obs.Date, today)
	// Staleness is reported, never a defect: the number may still be right.
	s.Stale = s.ObservationAgeDays > s.StalenessBoundDays
	s.State = SizeWithin
	if measured > s.Budget {
		s.State = SizeOver
	}
	return s
}
