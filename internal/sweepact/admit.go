package sweepact

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/loadcut"
	"github.com/memcompact/memcompact/internal/recall"
	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/snapshot"
	"github.com/memcompact/memcompact/internal/textfile"
)

// AdmitRequest asks for an entry to be admitted to a store.
type AdmitRequest struct {
	Index    string
	File     string // the entry file, inside the store's folder
	Hook     string // the pointer's recall hook: what the entry teaches
	Title    string // the link text (default: the entry's name)
	Section  string // "## …" to put the pointer under (default: the end)
	Critical string // "", "yes" or "no": append the critical row
	Why      string // the critical row's reason
	AsOf     records.Date
	LockWait time.Duration
	Now      func() time.Time
}

// AdmitResult is what an admission wrote.
type AdmitResult struct {
	Identity string `json:"identity"`
	Pointer  string `json:"pointer"`
	Line     int    `json:"line"`
	Critical string `json:"critical"`
}

// RunAdmit gives an entry a life the sweep can reason about: metadata.admitted
// (its life key) and node_type in its frontmatter, a pointer line whose hook
// passes R1, and the critical row when asked. It refuses a pointer without
// a hook, an entry already admitted or already pointed at, and an addition
// that would put a subject past Claude Code's load cut.
func RunAdmit(ctx context.Context, req AdmitRequest) (*AdmitResult, error) {
	if req.Now == nil {
		req.Now = time.Now
	}
	p, err := storePaths(req.Index)
	if err != nil {
		return nil, err
	}
	file, err := filepath.Abs(req.File)
	if err != nil {
		return nil, err
	}
	if filepath.Dir(file) != p.Dir || !strings.HasSuffix(strings.ToLower(file), ".md") {
		return nil, refusef(ReasonPlanInvalid, req.File, "an entry is a .md file directly in the store's folder (%s)", p.Dir)
	}
	name := records.EntryName(file)
	if records.IsReservedName(name) {
		return nil, refusef(ReasonPlanInvalid, req.File, "'%s' is reserved for the sweep's own records", name)
	}
	switch req.Critical {
	case "", "yes", "no":
	default:
		return nil, refusef(ReasonPlanInvalid, req.File, "--critical is yes or no, lower case; found %q", req.Critical)
	}
	if req.Critical != "" && strings.TrimSpace(req.Why) == "" {
		return nil, refusef(ReasonPlanInvalid, req.File, "a critical row must say why the two-part test does or does not hold (--why)")
	}
	release, err := lockStore(ctx, p.Dir, req.LockWait)
	if err != nil {
		return nil, err
	}
	defer release()

	body, err := textfile.Read(file)
	if err != nil {
		return nil, refusef(ReasonUnreadable, req.File, "the entry could not be read: %v", err)
	}
	facts := records.ParseEntryFacts(body.Text)
	if facts.Admitted != records.Unknown {
		return nil, refusef(ReasonPlanInvalid, req.File, "already admitted (admitted: %s); its life key is %s@%s", facts.Admitted, name, facts.Admitted)
	}
	ixf, err := textfile.Read(p.Index)
	if err != nil {
		return nil, refusef(ReasonUnreadable, p.Index, "%v", err)
	}
	lines := textfile.Lines(ixf.Text)
	for _, s := range records.Subjects(lines) {
		if strings.EqualFold(s.Name, name) {
			return nil, refusef(ReasonPlanInvalid, p.Index, "line %d already points at %s.md", s.Line, name)
		}
	}
	title := req.Title
	if title == "" {
		title = name
	}
	pointer := fmt.Sprintf("- [%s](%s.md) — %s", title, name, strings.TrimSpace(req.Hook))
	if err := hookPasses(pointer); err != nil {
		return nil, refusef(ReasonHook, p.Index, "%v", err)
	}
	out, at := insertPointer(lines, pointer, req.Section)
	before := loadcut.Compute(ixf.Text, loadcut.DefaultLines, loadcut.DefaultUnits)
	after := loadcut.Compute(strings.Join(out, "\n")+"\n", loadcut.DefaultLines, loadcut.DefaultUnits)
	if len(after.PastCut) > len(before.PastCut) {
		return nil, refusef(ReasonHook, p.Index, "the pointer would put %d more subject(s) past Claude Code's load cut; run 'memcompact sweep plan' first", len(after.PastCut)-len(before.PastCut))
	}
	identity := name + "@" + req.AsOf.String()
	res := &AdmitResult{Identity: identity, Pointer: pointer, Line: at + 1, Critical: req.Critical}

	var rfs []regionFile
	if req.Critical != "" {
		rfs = append(rfs, slateFile(p.Slate))
	}
	if err := recordsWritable(p.Dir, "", rfs, file, p.Index, filepath.Join(p.Dir, SnapshotsRel, "x")); err != nil {
		return nil, err
	}
	// Snapshots first, then the body (its life key), the record, the index.
	snapDir := filepath.Join(p.Dir, SnapshotsRel)
	today := dateTime(req.AsOf)
	for _, f := range []*textfile.File{ixf, body} {
		want, err := snapshot.Next(snapDir, filepath.Base(f.Path), today, req.Now())
		if err == nil {
			_, err = snapshot.Take(snapDir, filepath.Base(f.Path), want, f.Raw, today, req.Now())
		}
		if err != nil {
			return nil, refusef(ReasonWrite, f.Path, "no snapshot, so nothing was changed: %v", err)
		}
	}
	text := withAdmitted(string(body.Raw), req.AsOf.String())
	if !facts.IsEntry {
		text = withNodeType(text)
	}
	if err := atomicfile.Replace(file, []byte(text), body.Digest); err != nil {
		return nil, refusef(ReasonWrite, file, "%v", err)
	}
	if req.Critical != "" {
		if err := appendRows(slateFile(p.Slate), SlateRow(req.AsOf, identity, records.TrackCritical, req.Critical, req.Why)); err != nil {
			return res, refusef(ReasonWrite, p.Slate, "the entry is admitted, but its critical row was not written: %v", err)
		}
	}
	if err := replaceLines(p.Index, ixf, out); err != nil {
		return res, err
	}
	return res, nil
}

// hookPasses refuses a pointer line whose subject has no recall hook (R1).
func hookPasses(pointer string) error {
	subs, _ := recall.Judge(index.Parse([]string{pointer}))
	for _, s := range subs {
		if !s.HasHook {
			return fmt.Errorf("the pointer has no recall hook (R1): %s; say what the entry teaches in --hook", s.Reason)
		}
	}
	return nil
}

// withNodeType adds "node_type: memory" under the metadata key withAdmitted
// guarantees, so the corpus counts the file as an entry.
func withNodeType(text string) string {
	i := strings.Index(text, "metadata:")
	if i < 0 {
		return text
	}
	j := strings.IndexAny(text[i:], "\r\n")
	if j < 0 {
		return text
	}
	nl := "\n"
	if strings.HasPrefix(text[i+j:], "\r\n") {
		nl = "\r\n"
	}
	at := i + j + len(nl)
	return text[:at] + "  node_type: memory" + nl + text[at:]
}

// replaceLines writes lines back to path in the file's own line endings
// and BOM, by atomic replace behind the digest of f.
func replaceLines(path string, f *textfile.File, lines []string) error {
	nl := textfile.EOL(f.Text)
	text := strings.Join(lines, nl)
	if strings.HasSuffix(f.Text, "\n") || strings.HasSuffix(f.Text, "\r") || f.Text == "" {
		text += nl
	}
	raw := []byte(text)
	if strings.HasPrefix(string(f.Raw), "\ufeff") {
		raw = append([]byte("\ufeff"), raw...)
	}
	if err := atomicfile.Replace(path, raw, f.Digest); err != nil {
		return refusef(ReasonWrite, path, "%v", err)
	}
	return nil
}
