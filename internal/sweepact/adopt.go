package sweepact

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/loadcut"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/policy"
	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/reference"
	"github.com/memcompact/memcompact/internal/snapshot"
	"github.com/memcompact/memcompact/internal/textfile"
)

// DefaultLimitMethod names how Claude Code's load cut is known: read from its
// source and confirmed by boundary probes (see package loadcut).
const DefaultLimitMethod = "Claude Code's session-start load cut, 25,000 UTF-16 units, read from its source and confirmed by boundary probes (anthropics/claude-code#82056)"

// DefaultHeading is the one section heading adopt gives a flat list, so
// the check can read where the header ends.
const DefaultHeading = "## Entries"

// AdoptRequest asks for a store with no policy to take the split shape.
type AdoptRequest struct {
	Index    string
	Yes      bool // the owner's yes; without it adopt only shows the diff
	AsOf     records.Date
	LockWait time.Duration
	Now      func() time.Time
}

// AdoptResult is what adopt would write, or wrote.
type AdoptResult struct {
	Index    string `json:"index"`
	Policy   string `json:"policy"`
	Diff     string `json:"diff"`
	Written  bool   `json:"written"`
	Snapshot string `json:"snapshot,omitempty"`
	Heading  bool   `json:"heading_added"`
}

// RunAdopt migrates a store with no policy to the split shape: the stanza at
// line 1 of the index (naming POLICY.md), POLICY.md from the built-in
// reference with a values region holding Claude Code's known limit as a
// dated limit_observation and the default budget fraction, and, for a
// flat list with no "## " heading, one heading. The index is snapshotted
// first; without Yes nothing is written and the diff is returned.
func RunAdopt(ctx context.Context, req AdoptRequest) (*AdoptResult, error) {
	if req.Now == nil {
		req.Now = time.Now
	}
	p, err := storePaths(req.Index)
	if err != nil {
		return nil, err
	}
	release, err := lockStore(ctx, p.Dir, req.LockWait)
	if err != nil {
		return nil, err
	}
	defer release()
	ixf, err := textfile.Read(p.Index)
	if err != nil {
		return nil, refusef(ReasonUnreadable, p.Index, "%v", err)
	}
	polPath := filepath.Join(p.Dir, "POLICY.md")
	if _, err := textfile.Read(polPath); !errors.Is(err, fs.ErrNotExist) {
		return nil, refusef(ReasonPlanInvalid, polPath, "the store already has a POLICY.md; adopt is for a store with no policy (run 'memcompact check' to see how it reads)")
	}
	lines := textfile.Lines(ixf.Text)
	for _, l := range lines {
		if strings.Contains(l, "memory-policy-stanza-begin") || strings.Contains(l, reference.PolicyBegin) {
			return nil, refusef(ReasonPlanInvalid, p.Index, "the index already carries a policy or a stanza; adopt is for a store with none")
		}
	}
	ref := textfile.Lines(reference.EmbeddedText())
	stanza := policy.ReadRegion(ref, reference.StanzaBegin, reference.StanzaEnd)
	pol := policy.ReadRegion(ref, reference.PolicyBegin, reference.PolicyEnd)
	if !stanza.HasContent() || !pol.HasContent() {
		return nil, &outcome.Error{Status: outcome.Refused, Reason: ReasonUnreadable, Msg: "the built-in reference carries no stanza or policy region"}
	}
	head := append([]string{"<!-- memory-policy-stanza-begin: POLICY.md -->"}, stanza.Block...)
	head = append(head, policy.StanzaEndMarker)
	body := lines
	res := &AdoptResult{Index: p.Index, Policy: polPath}
	if index.Parse(lines).FirstHeading < 0 {
		body, res.Heading = withHeading(lines), true
	}
	out := append(head, body...)
	polText := policyText(pol.Block, req.AsOf)
	res.Diff = adoptDiff(head, res.Heading, polPath, polText)
	if !req.Yes {
		return res, nil
	}
	if err := withinStore(p.Dir, p.Index, polPath, filepath.Join(p.Dir, SnapshotsRel, "x")); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	snapDir := filepath.Join(p.Dir, SnapshotsRel)
	today := dateTime(req.AsOf)
	want, err := snapshot.Next(snapDir, filepath.Base(p.Index), today, req.Now())
	if err == nil {
		res.Snapshot, err = snapshot.Take(snapDir, filepath.Base(p.Index), want, ixf.Raw, today, req.Now())
	}
	if err != nil {
		return nil, refusef(ReasonWrite, p.Index, "no snapshot, so nothing was changed: %v", err)
	}
	if err := atomicfile.Replace(polPath, []byte(polText), ""); err != nil {
		return nil, refusef(ReasonWrite, polPath, "%v", err)
	}
	if err := replaceLines(p.Index, ixf, out); err != nil {
		return res, err
	}
	res.Written = true
	return res, nil
}

// withHeading puts DefaultHeading above the first list item of a flat
// index (after any title and prose), so the check can find its header's end.
func withHeading(lines []string) []string {
	at := len(lines)
	for i, l := range lines {
		if index.IsPointerPattern(l) {
			at = i
			break
		}
	}
	out := append([]string{}, lines[:at]...)
	out = append(out, DefaultHeading)
	return append(out, lines[at:]...)
}

// policyText is POLICY.md: the reference's policy region, the values
// region with the known limit as a dated observation, and the sweep
// machinery section outside both regions.
func policyText(block []string, asOf records.Date) string {
	var b strings.Builder
	b.WriteString("# Memory policy\n\n")
	b.WriteString(reference.PolicyBegin + "\n" + strings.Join(block, "\n") + "\n" + reference.PolicyEnd + "\n\n")
	b.WriteString(policy.ValuesBegin + "\n")
	fmt.Fprintf(&b, "budget_fraction: %.2f\n", policy.DefaultFraction)
	fmt.Fprintf(&b, "staleness_bound_days: %d\n", policy.DefaultStalenessDays)
	fmt.Fprintf(&b, "limit_observation: %s | %d | characters | %s\n", asOf, loadcut.DefaultUnits, DefaultLimitMethod)
	b.WriteString(policy.ValuesEnd + "\n\n")
	b.WriteString("## Sweep machinery (not part of the compared text)\n\n")
	b.WriteString("Sweeps of this store follow the sweep procedure (`memcompact sweep plan`, `review`, `apply`). Its records live\n")
	b.WriteString("beside this file: `LEDGER.md` (exits and proposals), `SLATE.md` (critical flags, deferrals, landings in\n")
	b.WriteString("flight), and `ARCHIVE.md` (demoted pointers, created at the first demotion).\n")
	return b.String()
}

func adoptDiff(head []string, heading bool, polPath, polText string) string {
	var b strings.Builder
	b.WriteString("--- MEMORY.md\n+++ MEMORY.md (adopted)\n@@ line 1 @@\n")
	for _, l := range head {
		b.WriteString("+" + l + "\n")
	}
	if heading {
		b.WriteString("@@ above the first pointer @@\n+" + DefaultHeading + "\n")
	}
	fmt.Fprintf(&b, "--- /dev/null\n+++ %s (new, %d lines)\n", filepath.Base(polPath), strings.Count(polText, "\n"))
	for _, l := range strings.Split(polText, "\n") {
		if strings.HasPrefix(l, "budget_fraction") || strings.HasPrefix(l, "limit_observation") || strings.HasPrefix(l, "staleness") {
			b.WriteString("+" + l + "\n")
		}
	}
	return b.String()
}

// ObserveRequest appends a limit observation.
type ObserveRequest struct {
	Index    string
	Value    int
	Method   string
	AsOf     records.Date
	LockWait time.Duration
}

// RunObserveLimit appends a dated limit_observation (value, unit, method) at
// the end of the store's values region. Earlier rows stay byte-identical:
// appending is the whole update, and the freshest date governs. A store
// with no values region is refused (creating one is adopt's job).
func RunObserveLimit(ctx context.Context, req ObserveRequest) (string, error) {
	if req.Value <= 0 {
		return "", refusef(ReasonPlanInvalid, "", "the observed limit must be a positive number of characters")
	}
	if strings.TrimSpace(req.Method) == "" {
		return "", refusef(ReasonPlanInvalid, "", "an observation must name its method")
	}
	p, err := storePaths(req.Index)
	if err != nil {
		return "", err
	}
	release, err := lockStore(ctx, p.Dir, req.LockWait)
	if err != nil {
		return "", err
	}
	defer release()
	path := policyFile(p.Dir, p.Index)
	f, err := textfile.Read(path)
	if err != nil {
		return "", refusef(ReasonUnreadable, path, "%v", err)
	}
	lines := textfile.Lines(f.Text)
	v := policy.ParseValues(lines, dateTime(req.AsOf))
	if !v.Present || v.RegionEnd < 0 {
		return "", refusef(ReasonPlanInvalid, path, "no values region (%s … %s); a store that records no budget inputs gains one with 'memcompact adopt', not by an observation", policy.ValuesBegin, policy.ValuesEnd)
	}
	if err := withinStore(p.Dir, path); err != nil {
		return "", err
	}
	row := fmt.Sprintf("limit_observation: %s | %d | characters | %s", req.AsOf, req.Value, strings.TrimSpace(req.Method))
	out := append(append(append([]string{}, lines[:v.RegionEnd]...), row), lines[v.RegionEnd:]...)
	if err := replaceLines(path, f, out); err != nil {
		return "", err
	}
	return row, nil
}
