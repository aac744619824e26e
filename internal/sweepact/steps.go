package sweepact

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/crashpoint"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/snapshot"
	"github.com/memcompact/memcompact/internal/sweep"
	"github.com/memcompact/memcompact/internal/textfile"
)

// assessmentRows are the critical rows the sweep appends: for every acted
// subject the slate has not assessed, and for every orphan body (an orphan
// is accounted for only when this sweep assessed it).
func assessmentRows(s *store, pl *Plan, acts []*act, asOf records.Date) []string {
	acted := map[string]bool{}
	for _, a := range acts {
		acted[a.sub.Identity] = true
	}
	var rows []string
	for _, sub := range pl.Subjects {
		if sub.Critical == "" || sub.Decision == Rejected {
			continue
		}
		orphan := sub.Population == sweep.PopOrphan
		if !orphan && !(acted[sub.Identity] && sub.Assess) {
			continue
		}
		if r := s.slate.Current(sub.Identity, records.TrackCritical); r != nil && !orphan && r.Value == sub.Critical {
			continue
		}
		why := sub.CriticalWhy
		if why == "" {
			why = "assessed at the sweep of " + asOf.String()
		}
		rows = append(rows, SlateRow(asOf, sub.Identity, records.TrackCritical, sub.Critical, why))
	}
	return rows
}

func appendAssessments(s *store, pl *Plan, acts []*act, asOf records.Date) (int, error) {
	rows := assessmentRows(s, pl, acts, asOf)
	return len(rows), appendRows(slateFile(s.paths.Slate), rows...)
}

// simulatedSlate is the slate as it will read once the assessments are
// appended, so the preflight gates judge what the acts will meet.
func simulatedSlate(s *store, pl *Plan, acts []*act, asOf records.Date) *records.Slate {
	text := records.SlateMarker + "\n"
	if f, err := textfile.Read(s.paths.Slate); err == nil && s.slate.State() == records.StatePresent {
		text = f.Text + "\n"
	}
	text += strings.Join(assessmentRows(s, pl, acts, asOf), "\n") + "\n"
	return records.ParseSlate(s.paths.Slate, text, asOf)
}

// destination resolves where an exit's lesson must be: the path the gate
// reads, and the probe it looks for. dangling reports an exit whose only
// text left is the pointer line itself.
func destination(s *store, a *act, home string) (path, probe string, dangling bool) {
	probe = a.sub.LessonProbe
	if probe == "" && a.body != nil {
		probe = a.body.Lesson
	}
	switch a.kind {
	case "demote", "remove-obsolete", "remove-fails-admission":
		if a.body == nil || !a.body.Exists {
			return s.paths.Archive, "", true
		}
		return a.body.Path, probe, false
	case "dedupe-into":
		name, _, _ := strings.Cut(a.sub.Into, "@")
		return filepath.Join(s.paths.Dir, name+".md"), probe, false
	}
	d := strings.TrimSpace(a.sub.Destination)
	if i := strings.Index(d, " ("); i > 0 {
		d = d[:i]
	}
	switch {
	case d == "":
	case strings.HasPrefix(d, "~/") && home != "":
		d = filepath.Join(home, d[2:])
	case !filepath.IsAbs(d):
		d = filepath.Join(s.paths.Dir, d)
	}
	return d, probe, false
}

// gate asks the act's gates, in the procedure's order, and returns why it
// is refused ("" when allowed).
func gate(s *store, slate *records.Slate, ledger *records.Ledger, a *act, req ApplyRequest) string {
	id := a.sub.Identity
	switch a.kind {
	case Complete, "duplicates":
		return ""
	case "keep-hot-with-expiry":
		if v := sweep.DeferralGate(slate, id); !v.Allowed {
			return "deferral gate: " + v.Why
		}
		return ""
	}
	if records.IsExit(a.kind) && a.body != nil && a.body.Exists {
		v, err := sweep.ReconcileGate(ledger, a.body.Path)
		if err != nil {
			return "reconcile gate: " + err.Error()
		}
		if v = sweep.GuardReconcile(v, ledger); v.Verdict == sweep.Exited {
			return "reconcile gate: " + v.Why
		}
	}
	if a.kind == "remove-fails-admission" {
		if req.AdmissionLandedOn.IsZero() {
			return "admission gate: name the day the store's admission rule landed (--admission-landed) before removing an entry for failing it"
		}
		if v := sweep.AdmissionGate(id, req.AdmissionLandedOn); !v.Allowed {
			return "admission gate: " + v.Why
		}
	}
	path, probe, dangling := destination(s, a, req.Home)
	if dangling && records.IsExit(a.kind) {
		// The pointer line is the only text left; it is written to the
		// archive before the record, and the gate reads it there.
		path, probe = s.paths.Archive, danglingProbe(a)
	}
	carries, note, err := sweep.ReadDestination(path, probe)
	if err != nil {
		return "exit gate: " + err.Error()
	}
	if dangling && !carries {
		// Before the archive line is written (the preflight) the gate is
		// asked as it will be asked once it is.
		carries, note = true, "the pointer line is written to ARCHIVE.md before its record"
	}
	if v := sweep.ExitGate(slate, id, a.kind, carries, note, a.sub.Landed); !v.Allowed {
		why := v.Why
		if note != "" {
			why += " (" + note + ")"
		}
		return "exit gate: " + why
	}
	return ""
}

func danglingProbe(a *act) string {
	if len(a.cuts) == 0 {
		return ""
	}
	return a.cuts[0].Segment
}

// preflight gates every act against the store as it will be once the
// assessments are appended; nothing is written when any refuses.
func preflight(s *store, pl *Plan, acts []*act, req ApplyRequest) []Act {
	slate := simulatedSlate(s, pl, acts, req.AsOf)
	var out []Act
	for _, a := range acts {
		if why := gate(s, slate, s.ledger, a, req); why != "" {
			out = append(out, Act{Identity: a.sub.Identity, Disposition: a.kind, Detail: why})
		}
	}
	return out
}

// bindLifeKeys writes metadata.admitted (the sweep's date) into every entry
// that stays in the index without one, each behind a snapshot and a digest
// check, so the enumeration that follows carries life keys the partition
// can tell apart from a later life of the same name.
func bindLifeKeys(s *store, pl *Plan, acts []*act, req ApplyRequest, snapDir string) ([]string, error) {
	bound := []string{}
	today := dateTime(req.AsOf)
	for _, sb := range toBind(s, pl, acts) {
		sub, b := sb.sub, sb.body
		f, err := textfile.Read(b.Path)
		if err != nil {
			return bound, err
		}
		if f.Digest != b.Digest {
			return bound, fmt.Errorf("%s: %w", b.Path, atomicfile.ErrChanged)
		}
		want, err := snapshot.Next(snapDir, filepath.Base(b.Path), today, req.Now())
		if err == nil {
			_, err = snapshot.Take(snapDir, filepath.Base(b.Path), want, f.Raw, today, req.Now())
		}
		if err != nil {
			return bound, fmt.Errorf("%s: no snapshot, so its life key was not bound: %w", b.Path, err)
		}
		if err := atomicfile.Replace(b.Path, []byte(withAdmitted(string(f.Raw), req.AsOf.String())), f.Digest); err != nil {
			return bound, err
		}
		bound = append(bound, sub.Name+"@"+req.AsOf.String())
	}
	return bound, nil
}

// boundSubject is a kept subject whose body gets its life key bound.
type boundSubject struct {
	sub  Subject
	body *body
}

// toBind lists the entries bindLifeKeys writes: those that stay in the
// index (no act but a duplicate drop or a slate row) with a body and no
// admitted date.
func toBind(s *store, pl *Plan, acts []*act) []boundSubject {
	acted := map[string]bool{}
	for _, a := range acts {
		if a.kind != "duplicates" && a.kind != "keep-hot-with-expiry" {
			acted[a.sub.Identity] = true
		}
	}
	var out []boundSubject
	for _, sub := range pl.Subjects {
		b := s.bodies[sub.Name]
		if sub.Population != sweep.PopPointer || acted[sub.Identity] || !records.IsUnknownKey(sub.Identity) || b == nil || !b.Exists {
			continue
		}
		out = append(out, boundSubject{sub, b})
	}
	return out
}

// writeTargets lists every path an apply may write, for withinStore: the
// record files, the index, the policy file, the sweep's own folders, and
// each body whose life key is bound.
func writeTargets(s *store, pl *Plan, acts []*act) []string {
	out := []string{s.paths.Index, s.paths.Ledger, s.paths.Slate, s.paths.Archive, policyFile(s.paths.Dir, s.paths.Index)}
	out = append(out, ownPlaces(s.paths.Dir)...)
	if pl.BindLifeKeys {
		for _, sb := range toBind(s, pl, acts) {
			out = append(out, sb.body.Path)
		}
	}
	return out
}

// withAdmitted returns an entry's text with "admitted: <date>" under its
// frontmatter's metadata key (added, or a frontmatter added, when absent).
// Every other byte is kept, line endings included.
func withAdmitted(raw, date string) string {
	nl := textfile.EOL(raw)
	bom := ""
	if strings.HasPrefix(raw, "\ufeff") {
		bom, raw = "\ufeff", raw[len("\ufeff"):]
	}
	lines := textfile.SplitKeep(raw)
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != "---" {
		return bom + "---" + nl + "metadata:" + nl + "  admitted: " + date + nl + "---" + nl + raw
	}
	var b strings.Builder
	b.WriteString(bom + lines[0])
	done := false
	for i := 1; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimRight(l, "\r\n")
		if !done && strings.TrimSpace(t) == "---" {
			b.WriteString("metadata:" + nl + "  admitted: " + date + nl)
			done = true
		}
		b.WriteString(l)
		if !done && strings.TrimRight(t, " ") == "metadata:" {
			indent := "  "
			if i+1 < len(lines) {
				next := lines[i+1]
				if k := len(next) - len(strings.TrimLeft(next, " ")); k > 0 {
					indent = next[:k]
				}
			}
			if !strings.HasSuffix(l, "\n") && !strings.HasSuffix(l, "\r") {
				b.WriteString(nl)
			}
			b.WriteString(indent + "admitted: " + date + nl)
			done = true
		}
	}
	return b.String()
}

// writeInventory records the enumeration (step 1) before any disposition,
// as a new file the partition reads back.
func writeInventory(s *store, req ApplyRequest) (string, error) {
	inv, err := sweep.BuildInventory(s.paths, req.AsOf)
	if err != nil {
		return "", err
	}
	data, err := json.MarshalIndent(inv.Artifact, "", "  ")
	if err != nil {
		return "", err
	}
	dir := filepath.Join(s.paths.Dir, SweepsRel)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	for k := 1; ; k++ {
		p := filepath.Join(dir, fmt.Sprintf("inventory-%s-%d.json", req.AsOf, k))
		err := atomicfile.CreateExclusive(p, append(data, '\n'))
		if err == nil {
			return p, nil
		}
		if !errors.Is(err, os.ErrExist) || k > 999 {
			return "", err
		}
	}
}

// ledgerRow is the executed record an act writes before it acts, or ""
// for an act that writes none (completing an interrupted one, dropping a
// duplicate pointer).
func ledgerRow(a *act, asOf records.Date) string {
	switch a.kind {
	case Complete:
		return ""
	case "duplicates":
		// The entry stays in the index: a settle-in-place row says so, and
		// what happened to its second pointer.
		var lines []string
		for _, c := range a.cuts {
			lines = append(lines, fmt.Sprint(c.Slot.Line))
		}
		why := fmt.Sprintf("a second pointer to the same file (line %s) dropped, the entry stays on line %d", strings.Join(lines, ", "), a.sub.Line)
		if len(a.hooks) > 0 {
			why += "; its hook carried there: " + strings.Join(a.hooks, "; ")
		} else {
			why += ", which already carries its hook"
		}
		return LedgerRow(asOf, records.StatusExecuted, "settle-in-place", a.sub.Identity, why+"; the dropped line is in ARCHIVE.md", "the index")
	}
	dest := a.sub.Destination
	if dest == "" {
		dest = "none (accepted recall loss)"
	}
	if a.kind == "keep-hot-with-expiry" || a.kind == "settle-in-place" || a.kind == "restore" {
		dest = "the index"
	}
	return LedgerRow(asOf, records.StatusExecuted, a.kind, a.sub.Identity, a.sub.Reason, dest)
}

// archiveHeading is the dated heading an act's pointer lines go under in
// ARCHIVE.md.
func archiveHeading(kind string, asOf records.Date) string {
	switch kind {
	case "demote":
		return "## Demoted " + asOf.String()
	case "duplicates":
		return "## Duplicate pointers " + asOf.String()
	case "promote":
		return "## Promoted " + asOf.String()
	case "dedupe-into":
		return "## Deduplicated " + asOf.String()
	case "settle-in-place":
		return "## Moved to the Settled section " + asOf.String()
	}
	return "## Removed " + asOf.String()
}

// archiveLines are a cut as ARCHIVE.md keeps it: the subject's pointer
// text byte for byte (the line a reader sees), then a comment line that
// tells restore where it sat (cutMeta).
func archiveLines(c Cut, sweepID string) []string {
	return []string{c.Segment, encodeCutMeta(c, sweepID)}
}

// writesArchive reports whether an act's cut lines go to ARCHIVE.md: every
// exit's do, so restore can put each one back where it was.
func writesArchive(a *act) bool {
	switch a.kind {
	case Complete:
		r, _ := completedKind(a)
		return records.IsExit(r)
	}
	// A settled pointer moves within the index: its old place is
	// recorded too, so restoring a neighbour counts the lines right.
	return records.IsExit(a.kind) || a.kind == "duplicates" || a.kind == "settle-in-place"
}

func completedKind(a *act) (string, bool) {
	for _, e := range a.sub.Evidence {
		if i := strings.Index(e, "| executed | "); i >= 0 {
			rest := e[i+len("| executed | "):]
			d, _, _ := strings.Cut(rest, " |")
			return d, true
		}
	}
	return "", false
}

// execute appends each act's record, then does the act's part outside the
// index (archive lines, deferral rows), re-gating each one on the slate and
// ledger as they now read.
func execute(s *store, acts []*act, req ApplyRequest, res *ApplyResult) error {
	slate, err := records.ReadSlate(s.paths.Slate, req.AsOf)
	if err != nil || !slate.Trustworthy() {
		return refusef(ReasonRecords, s.paths.Slate, "the slate could not be read whole after the assessments were appended; no disposition was taken")
	}
	for _, a := range byArchiveHeading(acts, req.AsOf) {
		dangling := records.IsExit(a.kind) && (a.body == nil || !a.body.Exists)
		if dangling {
			// The pointer line is all that is left of this entry: it goes
			// to the archive first, so the exit has a destination to read.
			if err := archiveCuts(s, a, req.AsOf); err != nil {
				return err
			}
		}
		if why := gate(s, slate, s.ledger, a, req); why != "" {
			res.Refusals = append(res.Refusals, Act{Identity: a.sub.Identity, Disposition: a.kind, Detail: why})
			return &outcome.Error{Status: outcome.Refused, Reason: ReasonGate, File: s.paths.Index,
				Msg:   fmt.Sprintf("%s: %s; the sweep stopped here, before its record, and the index was not rewritten", a.sub.Identity, why),
				Hints: []string{"run 'memcompact inventory' to see what was recorded, then make a new plan"}}
		}
		if row := ledgerRow(a, req.AsOf); row != "" {
			if err := s.log.add(row); err != nil {
				return refusef(ReasonWrite, s.paths.Ledger, "the record could not be appended, so the act was not taken: %v", err)
			}
			crashpoint.At("after-record")
		}
		if writesArchive(a) && !dangling {
			if err := archiveCuts(s, a, req.AsOf); err != nil {
				return err
			}
		}
		if a.kind == "keep-hot-with-expiry" {
			n := 1
			if d := slate.Current(a.sub.Identity, records.TrackDeferral); d != nil {
				n = d.Count + 1
			}
			row := SlateRow(req.AsOf, a.sub.Identity, records.TrackDeferral, fmt.Sprint(n), "until "+a.sub.Until+" — "+a.sub.Reason)
			if err := appendRows(slateFile(s.paths.Slate), row); err != nil {
				return refusef(ReasonWrite, s.paths.Slate, "%v", err)
			}
		}
		res.Acts = append(res.Acts, Act{Identity: a.sub.Identity, Disposition: a.kind, Done: true, Detail: a.sub.Reason})
	}
	return nil
}

// byArchiveHeading orders acts so those whose lines go under one archive
// heading run together (interrupted ones first, as planned): ARCHIVE.md
// then carries one "## Demoted", one "## Removed" … per sweep, not a new
// heading each time the kind changes.
func byArchiveHeading(acts []*act, asOf records.Date) []*act {
	key := func(a *act) string {
		if a.kind == Complete {
			return ""
		}
		if !writesArchive(a) {
			return "~"
		}
		return archiveHeading(a.kind, asOf)
	}
	out := slices.Clone(acts)
	slices.SortStableFunc(out, func(x, y *act) int { return strings.Compare(key(x), key(y)) })
	return out
}

func archiveCuts(s *store, a *act, asOf records.Date) error {
	kind := a.kind
	if kind == Complete {
		kind, _ = completedKind(a)
	}
	var lines []string
	for _, c := range a.cuts {
		lines = append(lines, archiveLines(c, sweepID(s))...)
	}
	if err := appendArchive(s.paths.Archive, archiveHeading(kind, asOf), lines); err != nil {
		return refusef(ReasonWrite, s.paths.Archive, "%v", err)
	}
	return nil
}

// replaceIndex writes the rebuilt index in the file's own line endings and
// BOM, by atomic replace behind the digest the whole sweep planned against.
func replaceIndex(s *store, lines []string) error {
	nl := textfile.EOL(s.index.Text)
	text := strings.Join(lines, nl)
	if strings.HasSuffix(s.index.Text, "\n") || strings.HasSuffix(s.index.Text, "\r") {
		text += nl
	}
	raw := []byte(text)
	if strings.HasPrefix(string(s.index.Raw), "\ufeff") {
		raw = append([]byte("\ufeff"), raw...)
	}
	crashpoint.At("before-replace")
	if err := ensureLedger(s, "before-replace", nil); err != nil {
		return err
	}
	if err := atomicfile.Replace(s.paths.Index, raw, s.index.Digest); err != nil {
		return &outcome.Error{Status: outcome.Refused, Reason: ReasonWrite, File: s.paths.Index, Err: err,
			Msg:   fmt.Sprintf("the index was not rewritten: %v; the records are written, so the next inventory lists these dispositions as interrupted", err),
			Hints: []string{"run 'memcompact inventory' and decide each interrupted disposition: complete it or restore it"}}
	}
	return nil
}

// ensureLedger makes sure, just before an act and at the end, that the
// ledger still carries every record this sweep appended (rowLog.ensure),
// and counts the ones it appended again in the result.
func ensureLedger(s *store, step string, res *ApplyResult) error {
	if _, err := s.log.ensure(step); err != nil {
		return refusef(ReasonWrite, s.paths.Ledger, "the ledger was replaced during the sweep and its records could not be appended again: %v", err)
	}
	if res != nil {
		res.LedgerRepaired = s.log.repaired
	}
	return nil
}

// moveBodies moves the body of each removed entry into the archive folder.
func moveBodies(s *store, acts []*act, res *ApplyResult) error {
	if err := ensureLedger(s, "before-move", res); err != nil {
		return err
	}
	for _, a := range acts {
		kind := a.kind
		if kind == Complete {
			kind, _ = completedKind(a)
		}
		if !strings.HasPrefix(kind, "remove-") || a.body == nil || !a.body.Exists {
			continue
		}
		to, err := moveBody(a.body.Path, filepath.Join(s.paths.Dir, ArchiveDir), a.sub.Name)
		if err != nil {
			return refusef(ReasonWrite, a.body.Path, "the pointer is out and recorded, but the body could not be moved to %s: %v", ArchiveDir, err)
		}
		for i := range res.Acts {
			if res.Acts[i].Identity == a.sub.Identity {
				res.Acts[i].Detail += "; body moved to " + filepath.ToSlash(mustRel(s.paths.Dir, to))
			}
		}
	}
	return nil
}

func mustRel(base, p string) string {
	if r, err := filepath.Rel(base, p); err == nil {
		return r
	}
	return p
}

// complete writes the sweep's own record, x-last-sweep where a values
// region exists, and runs the partition check against the enumeration.
func complete(s *store, pl *Plan, acts []*act, req ApplyRequest, res *ApplyResult) error {
	exits, deferrals := 0, 0
	for _, a := range acts {
		switch {
		case records.IsExit(a.kind):
			exits++
		case a.kind == "keep-hot-with-expiry":
			deferrals++
		}
	}
	row := LedgerRow(req.AsOf, records.StatusExecuted, "sweep-complete", "sweep@"+req.AsOf.String(),
		fmt.Sprintf("%d subjects walked, %d exits, %d deferral(s), %d other act(s)", len(pl.Subjects), exits, deferrals, len(acts)-exits-deferrals), "LEDGER.md")
	if err := s.log.add(row); err != nil {
		return refusef(ReasonWrite, s.paths.Ledger, "%v", err)
	}
	if err := ensureLedger(s, "final", res); err != nil {
		return err
	}
	if err := appendLastSweep(s, req.AsOf); err != nil {
		return refusef(ReasonWrite, policyFile(s.paths.Dir, s.paths.Index), "%v", err)
	}
	f, err := textfile.Read(s.paths.Index)
	if err != nil {
		return refusef(ReasonUnreadable, s.paths.Index, "%v", err)
	}
	res.After, _ = figures(textfile.Lines(f.Text), pl.Target)
	art, err := textfile.Read(res.Artifact)
	if err != nil {
		return refusef(ReasonUnreadable, res.Artifact, "%v", err)
	}
	la, err := sweep.ParseArtifact(res.Artifact, art.Raw)
	if err != nil {
		return refusef(ReasonUnreadable, res.Artifact, "%v", err)
	}
	part, err := sweep.RunPartition(la, sweep.PartitionInput{Paths: s.paths, AsOf: req.AsOf, Strict: true})
	if err != nil {
		return refusef(ReasonUnreadable, s.paths.Index, "the partition could not run: %v", err)
	}
	res.Partition = part.Report
	return nil
}

// appendLastSweep appends "x-last-sweep: <date>" at the end of the store's
// values region, only where that region already exists (a store with none
// must not gain one: a region without an observation cannot be verified).
func appendLastSweep(s *store, asOf records.Date) error {
	path := policyFile(s.paths.Dir, s.paths.Index)
	f, err := textfile.Read(path)
	if err != nil {
		return nil
	}
	lines := textfile.SplitKeep(f.Text)
	end := -1
	for i, l := range lines {
		if strings.EqualFold(strings.TrimSpace(l), "<!-- store-values-end -->") {
			end = i
		}
	}
	if end < 0 {
		return nil
	}
	nl := textfile.EOL(f.Text)
	out := strings.Join(lines[:end], "") + "x-last-sweep: " + asOf.String() + nl + strings.Join(lines[end:], "")
	raw := []byte(out)
	if strings.HasPrefix(string(f.Raw), "\ufeff") {
		raw = append([]byte("\ufeff"), raw...)
	}
	return atomicfile.Replace(path, raw, f.Digest)
}
