// Package doctor gives one friendly verdict on a memory store: what Claude
// Code loads of its index, subjects without a recall hook and notes shared
// over several subjects (R1/R2), drift (orphan entry files and dangling
// pointers), secrets, budgets when a compaction policy exists, and what
// the strict check makes of it — each finding with the one command that
// explains or fixes it.
//
// The strict check refuses most real stores (a flat list under "# Memory"
// has no "## " section heading and no adopted policy). The doctor does not:
// it judges R1/R2 on whatever pointer lines it finds, and reports the
// check's refusal as one line on what adopting the policy would add. It
// refuses nothing it can read. Every judgment is made by the engine the
// corresponding verb uses (check, loadcut, secrets, budget, records), so
// the doctor and the verbs can never disagree.
package doctor

import (
	"errors"
	"fmt"
	"github.com/memcompact/memcompact/internal/claudehooks"
	"github.com/memcompact/memcompact/internal/entryfile"
	"github.com/memcompact/memcompact/internal/store"
	"path/filepath"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/check"
	"github.com/memcompact/memcompact/internal/filecache"
	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/loadcut"
	"github.com/memcompact/memcompact/internal/recall"
	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/secrets"
	"github.com/memcompact/memcompact/internal/sweepact"
	"github.com/memcompact/memcompact/internal/textfile"
)

// SchemaVersion is the version of the doctor's JSON.
const SchemaVersion = 1

// Options are the inputs of one diagnosis.
type Options struct {
	Index     string          // the store's MEMORY.md
	Reference check.Reference // the reference copy the strict check compares against
	// ReferenceFlag is the --reference the user gave, if any; the check
	// commands doctor suggests carry it, so running one compares against
	// the same copy doctor did.
	ReferenceFlag string
	Today         time.Time
	// Quick skips the strict check (policy comparison and reference
	// resolution), which a session-start hook does not report: the hook
	// runs on every session and says only what the agent can act on. It
	// also leaves the loaded text's warning and escape count out of Load
	// (the note does not use them), which spares building the loaded text.
	Quick bool
	// JournalDir is memcompact's data directory, whose store journal doctor
	// reads for recent mass deletions; "" skips that area.
	JournalDir string
	// DataDir is memcompact's data directory, whose hook record doctor
	// reads (hook failures, a guard switched off); "" skips that area. The
	// session-start hook leaves it empty: it reports the record itself.
	DataDir string
	// ClaudeHooks is what claudehooks.Inspect found in Claude Code's
	// settings files; nil skips that area (the session-start hook).
	ClaudeHooks *claudehooks.Inspection
	// Location and Related, set when the store was found from the working
	// directory, say which rule chose it and which other stores of the
	// project hold entries Claude Code never loads.
	Location *store.Location
	Related  []store.Related
	// NoCache reads, scans and plans afresh instead of trusting the cache
	// of earlier runs: the secrets scan (secrets.ScanOptions), the entry
	// files (entryfile.ReadCached) and the sweep figure (sweepact.RunReach).
	NoCache bool
	// Stats is the run's stat of each file, shared by the entry reads, the
	// secrets scan and the sweep figure, and with the caller's other parts
	// (a session-start hook's journal); nil: one of its own.
	Stats *filecache.Stats
	// Secrets shares each file's secrets scan with the caller's other
	// parts (a session-start hook's journal asks of every file whether it
	// holds a secret); nil: the scan is doctor's own.
	Secrets *secrets.Memo
	// Reads is the run's read of each file, shared by the index read, the
	// entry reads, the secrets scan and the sweep figure, and with the
	// caller's other parts (a session-start hook's journal); nil: one of
	// its own.
	Reads *textfile.Reads
}

// Area names a part of the diagnosis.
const (
	AreaLoad    = "load"
	AreaHooks   = "recall hooks"
	AreaNotes   = "notes"
	AreaDrift   = "drift"
	AreaSecrets = "secrets"
	AreaBudgets = "budgets"
	AreaCheck   = "check"
	AreaPolicy  = "policy"
	AreaHistory = "history"
	// AreaHookRuns is what the Claude Code hooks recorded they could not
	// do (package hookstate), and a guard switched off.
	AreaHookRuns = "hook runs"
	// AreaClaudeHooks is memcompact's hooks in Claude Code's settings:
	// installed or not, each command tried once, and hooks installed
	// twice (in settings and by the memcompact plugin).
	AreaClaudeHooks = "claude code hooks"
	AreaStore       = "store"
	AreaEntries     = "entries"
)

// Status of one area.
const (
	StatusOK      = "ok"
	StatusProblem = "problem"
	StatusInfo    = "info" // not a defect: a note, or an area that does not apply
)

// Finding is the verdict on one area.
type Finding struct {
	Area    string   `json:"area"`
	Status  string   `json:"status"`
	Summary string   `json:"summary"`
	Details []string `json:"details,omitempty"`
	Command string   `json:"command,omitempty"` // the one command that explains or fixes it
}

// Report is the doctor's verdict on one store.
type Report struct {
	SchemaVersion int    `json:"schema_version"`
	Index         string `json:"index"`
	Store         string `json:"store"`
	// Result is "healthy" (no problem), "problems", or "unreadable" (the
	// index itself could not be read; Reason says why).
	Result   string `json:"result"`
	Reason   string `json:"reason,omitempty"`
	Problems int    `json:"problems"`

	Lines        int `json:"lines"`
	Characters   int `json:"characters"`
	PointerLines int `json:"pointer_lines"`
	Subjects     int `json:"subjects"`
	PastCut      int `json:"subjects_past_cut"`
	// SweepReach is what 'memcompact sweep plan' would bring a cut index
	// to (absent when the index loads whole or no plan can be made).
	SweepReach    *sweepact.Figures `json:"sweep_would_reach,omitempty"`
	WithoutHook   int               `json:"subjects_without_hook"`
	SharedNotes   int               `json:"unattributed_shared_notes"`
	Orphans       int               `json:"orphans"`
	Dangling      int               `json:"dangling"`
	Secrets       int               `json:"secrets"`
	OverBudget    int               `json:"files_over_budget"`
	CheckResult   string            `json:"check_result"` // the strict check's result, or "skipped"
	PolicyAdopted bool              `json:"policy_adopted"`

	Findings []Finding `json:"findings"`

	// The engines' results in full (the findings above list at most five
	// of each): the same objects the load, check, secrets and budgets
	// verbs print.
	Load           loadcut.Result        `json:"load"`
	Hookless       []recall.WithoutHook  `json:"without_hook"`
	Notes          []recall.SharedNote   `json:"shared_notes"`
	SecretFindings []secrets.FileFinding `json:"secret_findings"`
	BudgetFiles    []budget.FileStatus   `json:"budget_files"`
}

// ExitCode is 0 healthy, 1 problems, 2 unreadable.
func (r *Report) ExitCode() int {
	switch r.Result {
	case "healthy":
		return 0
	case "problems":
		return 1
	}
	return 2
}

// Diagnose examines the store whose index is opt.Index. It never fails:
// an index it cannot read is reported as unreadable.
func Diagnose(opt Options) *Report {
	if opt.Stats == nil {
		opt.Stats = filecache.NewStats()
	}
	if opt.Reads == nil {
		opt.Reads = textfile.NewReads().Before(func(p string) { opt.Stats.Stat(p) })
	}
	dir := filepath.Dir(opt.Index)
	r := &Report{SchemaVersion: SchemaVersion, Index: opt.Index, Store: dir, Findings: []Finding{}, CheckResult: "skipped",
		Hookless: []recall.WithoutHook{}, Notes: []recall.SharedNote{}, SecretFindings: []secrets.FileFinding{}, BudgetFiles: []budget.FileStatus{}}
	f, err := opt.Reads.Read(opt.Index)
	if err != nil {
		r.Result, r.Reason = "unreadable", err.Error()
		return r
	}
	lines := textfile.Lines(f.Text)
	ix := index.Parse(lines)
	r.Lines, r.Characters = len(lines), textfile.Units(f.Text)
	for i := range ix.Lines {
		if ix.Lines[i].IsPointerLine() {
			r.PointerLines++
			r.Subjects += len(ix.Lines[i].Subjects())
		}
	}
	d := &diagnosis{opt: opt, r: r, text: f.Text, lines: lines, ix: ix, dir: dir}
	scan := d.scanSecrets()
	defer scan.wait()
	d.hookless, d.sharedNotes = recall.HooksAndNotes(ix)
	d.stores()
	d.load()
	d.entries()
	d.hooks()
	d.notes()
	d.drift()
	d.secrets(scan.report())
	d.budgets()
	historyFinding(d)
	hookRunsFinding(d)
	claudeHooksFinding(d)
	if !opt.Quick {
		d.check()
	}
	for _, f := range r.Findings {
		if f.Status == StatusProblem {
			r.Problems++
		}
	}
	r.Result = "healthy"
	if r.Problems > 0 {
		r.Result = "problems"
	}
	return r
}

type diagnosis struct {
	opt   Options
	r     *Report
	text  string
	lines []string
	ix    *index.Index
	dir   string

	// hookless and sharedNotes are the R1 and R2 axes of ix, judged once
	// for hooks and notes.
	hookless    []recall.WithoutHook
	sharedNotes []recall.SharedNote

	ents []entryfile.Entry // the entry files, read once (entryFiles)
}

// entryFiles reads the store's entry files once for the entries and drift
// areas, through the per-file cache unless NoCache.
func (d *diagnosis) entryFiles() []entryfile.Entry {
	if d.ents == nil {
		if d.opt.NoCache {
			d.ents = entryfile.Read(d.dir)
		} else {
			d.ents = entryfile.ReadCachedWith(d.dir, d.opt.Stats, d.opt.Reads)
		}
		if d.ents == nil {
			d.ents = []entryfile.Entry{}
		}
	}
	return d.ents
}

func (d *diagnosis) add(f Finding) { d.r.Findings = append(d.r.Findings, f) }

// most lists at most n items, then how many more there are.
func most(items []string, n int) []string {
	if len(items) <= n {
		return items
	}
	return append(items[:n:n], fmt.Sprintf("… and %d more", len(items)-n))
}

// mostOf is most of the total items item(0), item(1), …, formatting only
// the ones it lists: a store far past the load cut has hundreds of
// subjects, dangling pointers or hookless lines, and a session start
// formatted every one to show five.
func mostOf(total, n int, item func(i int) string) []string {
	out := make([]string, 0, min(total, n)+1)
	for i := range min(total, n) {
		out = append(out, item(i))
	}
	if total > n {
		out = append(out, fmt.Sprintf("… and %d more", total-n))
	}
	return out
}

// stores reports which rule chose the store, and every other store of the
// project that holds entries Claude Code never loads (a split store).
func (d *diagnosis) stores() {
	loc := d.opt.Location
	if loc == nil {
		return
	}
	if loc.MemoryOff != "" {
		d.add(Finding{Area: AreaStore, Status: StatusProblem,
			Summary: "memory is off: Claude Code loads none of this store in this project's sessions (" + loc.MemoryOff + ")",
			Details: []string{"the agent neither reads MEMORY.md nor is told to keep memory; what the store holds is never recalled"},
			Command: "turn it on where it was turned off: unset $" + store.DisableAutoMemoryVar + ", or remove \"autoMemoryEnabled\": false from the settings file named"})
	}
	if loc.IndexSkipped != "" {
		// Not a defect in itself: the session keeps memory in the stores
		// it mounts. What it no longer gets is this store's index.
		f := Finding{Area: AreaStore, Status: StatusInfo,
			Summary: loc.StoresNote(),
			Details: []string{loc.IndexSkipped + ": what this store's MEMORY.md points to is not in the session's prompt"},
			Command: "unset $" + store.MemoryStoresVar + " for sessions that should load this store's MEMORY.md"}
		if loc.MemoryStoresError != "" {
			f.Status = StatusProblem
			f.Command = "fix $" + store.MemoryStoresVar + " (" + loc.MemoryStoresError + ") or unset it"
		}
		d.add(f)
	}
	var split []string
	entries := 0
	for _, r := range d.opt.Related {
		if r.Loaded {
			continue
		}
		entries += r.Entries
		split = append(split, fmt.Sprintf("%s: %d entry file(s)%s, never loaded — %s", r.Dir, r.Entries, map[bool]string{true: " and a MEMORY.md", false: ""}[r.Index], r.Why))
	}
	details := append([]string{loc.Describe()}, loc.Rejected...)
	if loc.IndexContent != nil {
		// Cowork sessions hand Claude Code the index text: the file this
		// report reads is not what the session loads.
		details = append(details, "the session loads $"+loc.IndexFrom+", not "+store.IndexName+" (memcompact load shows what it loads)")
	}
	if len(split) == 0 {
		d.add(Finding{Area: AreaStore, Status: StatusOK, Summary: "one store: " + loc.Dir, Details: details})
		return
	}
	d.add(Finding{Area: AreaStore, Status: StatusProblem,
		Summary: fmt.Sprintf("split store: Claude Code loads %s, but %d other store(s) of this project hold %d entry file(s) it never loads", loc.Dir, len(split), entries),
		Details: append(details, most(split, 5)...),
		Command: "memcompact load   # shows the rule that chose the store; move the entries you want into it"})
}

// entries judges the entry files as Claude Code writes and recalls them:
// more than entryfile.MaxPinned pinned, a frontmatter with no description
// or one Claude Code cannot read (recall picks by name and description), pointer lines longer than the
// ~200 characters Claude Code's own guidance allows, and [[links]] to no
// entry (only noted: Claude Code treats those as entries still to write).
func (d *diagnosis) entries() {
	es := d.entryFiles()
	var pinned, undescribed, unreadable, long []string
	for _, e := range es {
		if e.Pinned {
			pinned = append(pinned, e.Path)
		}
		if e.Frontmatter && e.Description == "" {
			undescribed = append(undescribed, e.Path+": no description")
		}
		if e.Unreadable != "" {
			unreadable = append(unreadable, e.Path+": "+e.Unreadable)
		}
	}
	for i := range d.ix.Lines {
		l := &d.ix.Lines[i]
		// A line has at most as many UTF-16 units as bytes: a short one
		// need not be counted.
		if !l.IsPointerLine() || len(l.Text) <= maxPointerUnits {
			continue
		}
		if n := textfile.Units(l.Text); n > maxPointerUnits {
			long = append(long, fmt.Sprintf("line %d: %d characters", l.Num, n))
		}
	}
	var problems, details []string
	if len(pinned) > entryfile.MaxPinned {
		problems = append(problems, fmt.Sprintf("%d pinned entries (Claude Code keeps at most %d in view)", len(pinned), entryfile.MaxPinned))
		details = append(details, most(pinned, 5)...)
	}
	if len(undescribed) > 0 {
		problems = append(problems, fmt.Sprintf("%d entr(ies) with an empty description (recall picks entries by name and description)", len(undescribed)))
		details = append(details, most(undescribed, 5)...)
	}
	if len(unreadable) > 0 {
		problems = append(problems, fmt.Sprintf("%d entr(ies) whose frontmatter Claude Code cannot read as YAML, even with its values quoted, so recall sees no name or description (quote the value, or take out the character YAML reads as syntax)", len(unreadable)))
		details = append(details, most(unreadable, 5)...)
	}
	if len(long) > 0 {
		problems = append(problems, fmt.Sprintf("%d pointer line(s) over %d characters (Claude Code asks for one line under ~200)", len(long), maxPointerUnits))
		details = append(details, most(long, 5)...)
	}
	if dangling := entryfile.Dangling(es); len(dangling) > 0 {
		d.add(Finding{Area: AreaEntries, Status: StatusInfo, Summary: fmt.Sprintf("%d [[link(s)]] name no entry yet (Claude Code reads them as entries still to write)", len(dangling)), Details: most(dangling, 5)})
	}
	if len(problems) == 0 {
		d.add(Finding{Area: AreaEntries, Status: StatusOK, Summary: fmt.Sprintf("%d entry file(s): pinned %d of at most %d, every frontmatter has a description, every pointer line within %d characters", len(es), len(pinned), entryfile.MaxPinned, maxPointerUnits)})
		return
	}
	d.add(Finding{Area: AreaEntries, Status: StatusProblem, Summary: strings.Join(problems, "; "), Details: details,
		Command: "memcompact load --text " + quote(d.r.Index) + "   # what Claude Code sees; shorten pointers, describe entries, unpin"})
}

// maxPointerUnits is the pointer-line length Claude Code's own guidance
// asks for ("one line under ~200 chars").
const maxPointerUnits = 200

func (d *diagnosis) load() {
	res := loadcut.ComputeParsed(d.text, d.ix, loadcut.DefaultLines, loadcut.DefaultUnits, !d.opt.Quick)
	d.r.Load = res
	d.r.PastCut = len(res.PastCut)
	cmd := "memcompact load " + quote(d.opt.Index)
	if !res.Cut {
		f := Finding{Area: AreaLoad, Status: StatusOK, Summary: fmt.Sprintf("loads whole: %d of %d lines, %s of %s characters, as Claude Code counts them", res.LinesTotal, res.LineLimit, textfile.N0(res.UnitsTotal), textfile.N0(res.UnitLimit))}
		// The figures are the file's; a session here may load none of it.
		if loc := d.opt.Location; loc != nil && (loc.MemoryOff != "" || loc.IndexSkipped != "") {
			f.Status = StatusInfo
			f.Summary = "would load whole" + strings.TrimPrefix(f.Summary, "loads whole") + "; but this project's sessions load none of it (see the store area)"
		}
		d.add(f)
		return
	}
	limit := fmt.Sprintf("the %d-line limit", res.LineLimit)
	if res.Limit == loadcut.LimitUnits {
		limit = fmt.Sprintf("the %s-character limit", textfile.N0(res.UnitLimit))
	}
	det := mostOf(len(res.PastCut), 5, func(i int) string {
		s := res.PastCut[i]
		return fmt.Sprintf("line %d: [%s](%s)", s.Line, s.LinkText, s.Target)
	})
	if reach := d.sweepReach(); reach != "" {
		det, cmd = append([]string{reach}, det...), "memcompact sweep plan "+quote(d.opt.Index)
	}
	d.add(Finding{Area: AreaLoad, Status: StatusProblem,
		Summary: fmt.Sprintf("cut at line %d by %s: %d subject(s) are never loaded", res.FirstCutLine, limit, len(res.PastCut)),
		Details: det, Command: cmd})
}

// sweepReach is what a sweep plan would bring a cut index to, in one line
// ("" when no plan can be made): the figure the owner is pointed at.
func (d *diagnosis) sweepReach() string {
	after, err := sweepact.RunReach(sweepact.ReachRequest{
		Plan:    sweepact.PlanRequest{Index: d.opt.Index, AsOf: records.DateOf(d.opt.Today), Reads: d.opt.Reads},
		NoCache: d.opt.NoCache, Stats: d.opt.Stats})
	if err != nil {
		return ""
	}
	d.r.SweepReach = after
	return fmt.Sprintf("a sweep plan would bring it to %d lines, %s characters, %d of %d subjects loading",
		after.Lines, textfile.N0(after.Units), after.SubjectsLoaded, after.SubjectsTotal)
}

// pendingScan is a secret scan running beside the rest of the diagnosis.
type pendingScan struct {
	done chan struct{}
	rep  *secrets.Report
	perr any // what the scan panicked with
}

// scanSecrets starts the secret scan of the store, which reads every file
// and depends on no other part, beside the rest of the diagnosis (on a
// second core, where there is one: on a first run it is a third of the
// time).
func (d *diagnosis) scanSecrets() *pendingScan {
	return startScan(func() *secrets.Report {
		return secrets.ScanFilesWith([]string{d.dir}, secrets.ScanOptions{NoCache: d.opt.NoCache, Stats: d.opt.Stats, Memo: d.opt.Secrets, Reads: d.opt.Reads})
	})
}

// startScan runs scan in a goroutine of its own.
func startScan(scan func() *secrets.Report) *pendingScan {
	p := &pendingScan{done: make(chan struct{})}
	go func() {
		defer close(p.done)
		defer func() { p.perr = recover() }()
		p.rep = scan()
	}()
	return p
}

// wait returns once the scan has ended (written its cache included), so
// no caller returns, or exits, with it half done.
func (p *pendingScan) wait() { <-p.done }

// report waits for the scan's report. A bug that made the scan panic (in
// its own goroutine, where nothing else could recover it) is an error:
// the area says it was not checked, and the rest of the diagnosis stands.
func (p *pendingScan) report() (*secrets.Report, error) {
	p.wait()
	if p.perr != nil {
		return nil, fmt.Errorf("internal error (%v) — this is a bug, please report it", p.perr)
	}
	return p.rep, nil
}

func (d *diagnosis) secrets(rep *secrets.Report, err error) {
	if err != nil {
		d.add(Finding{Area: AreaSecrets, Status: StatusInfo, Summary: "not checked: " + err.Error()})
		return
	}
	if rep.Findings != nil {
		d.r.SecretFindings = rep.Findings
	}
	d.r.Secrets = len(rep.Findings)
	cmd := "memcompact secrets " + quote(d.dir)
	if len(rep.Findings) == 0 {
		what := fmt.Sprintf("no secrets in %d file(s)", len(rep.Scanned))
		st := StatusOK
		if len(rep.Errors) > 0 {
			what += fmt.Sprintf("; %d file(s) could not be read", len(rep.Errors))
			st = StatusInfo
		}
		d.add(Finding{Area: AreaSecrets, Status: st, Summary: what})
		return
	}
	files := map[string]bool{}
	var det []string
	for _, f := range rep.Findings {
		files[f.File] = true
		det = append(det, fmt.Sprintf("%s:%d (%s): %s", rel(d.dir, f.File), f.Line, f.Rule, f.Excerpt))
	}
	d.add(Finding{Area: AreaSecrets, Status: StatusProblem,
		Summary: fmt.Sprintf("%d secret(s) in %d file(s) of always-available memory", len(rep.Findings), len(files)),
		Details: most(det, 5), Command: cmd})
}

func (d *diagnosis) budgets() {
	root, err := budget.FindRoot(d.dir)
	if errors.Is(err, budget.ErrNoRoot) || err != nil {
		d.add(Finding{Area: AreaBudgets, Status: StatusInfo, Summary: "no compaction policy: memory files have no size budgets (budgets suit long-lived files such as diaries, not the index)", Command: "memcompact help init"})
		return
	}
	p, err := budget.Load(root)
	if err != nil {
		d.add(Finding{Area: AreaBudgets, Status: StatusProblem, Summary: "the compaction policy cannot be used: " + oneLine(err), Command: "memcompact budgets --root " + quote(root)})
		return
	}
	rep := budget.Check(root, p)
	if rep.Files != nil {
		d.r.BudgetFiles = rep.Files
	}
	d.r.OverBudget = rep.Over
	if rep.Over == 0 && rep.Errors == 0 {
		// A row whose file does not exist is within budget trivially; say
		// so rather than count it as a file that was measured.
		missing := 0
		for _, f := range rep.Files {
			if f.Status == budget.StatusMissing {
				missing++
			}
		}
		summary := fmt.Sprintf("%d budgeted file(s), all within budget", len(rep.Files)-missing)
		switch {
		case missing > 0 && missing == len(rep.Files):
			summary = fmt.Sprintf("no budgeted file exists yet (the policy names %d)", missing)
		case missing > 0:
			summary += fmt.Sprintf("; %d more named in the policy not found", missing)
		}
		d.add(Finding{Area: AreaBudgets, Status: StatusOK, Summary: summary})
		return
	}
	var det []string
	for _, f := range rep.Files {
		if f.Status == budget.StatusOver || f.Status == budget.StatusError {
			det = append(det, fmt.Sprintf("%s: %d/%d %s (%s)", f.File, f.Size, f.Budget, f.Unit, f.Status))
		}
	}
	d.add(Finding{Area: AreaBudgets, Status: StatusProblem,
		Summary: fmt.Sprintf("%d of %d budgeted file(s) over budget, %d unreadable", rep.Over, len(rep.Files), rep.Errors),
		Details: most(det, 5), Command: "memcompact compact --all --dry-run --root " + quote(root)})
}

// check runs the strict four-axis check and turns a refusal into a line on
// what adopting the policy would add.
func (d *diagnosis) check() {
	rep := check.Evaluate(check.Options{IndexPath: d.opt.Index, Reference: d.opt.Reference, Today: d.opt.Today})
	d.r.CheckResult = rep.Result
	cmd := "memcompact check " + quote(d.opt.Index)
	if d.opt.ReferenceFlag != "" {
		cmd += " --reference " + quote(d.opt.ReferenceFlag)
	}
	switch rep.Result {
	case check.Refused:
		reason := ""
		if rep.Refusal != nil {
			reason = rep.Refusal.Reason
		}
		d.add(Finding{Area: AreaCheck, Status: StatusInfo, Summary: "the strict check cannot judge this store: " + reason, Command: cmd})
		d.add(Finding{Area: AreaPolicy, Status: StatusInfo,
			Summary: "not adopted. Adopting the compaction policy would add a size budget for this index, sections the strict check can verify, and recorded, reversible exits (LEDGER.md)",
			Command: "memcompact reference"})
		return
	case check.UsageError:
		d.add(Finding{Area: AreaCheck, Status: StatusInfo, Summary: "the strict check did not run: " + rep.Reason, Command: cmd})
		return
	}
	d.r.PolicyAdopted = rep.PolicyPresent
	d.listedByCheck(cmd)
	size := "size " + rep.Size.State
	if rep.Size.Evaluated() {
		size = fmt.Sprintf("size %s of %s characters (%s)", textfile.N0(rep.Size.Measured), textfile.N0(rep.Size.Budget), rep.Size.State)
	}
	if !rep.PolicyPresent {
		// Not adopting the policy is a choice, not a defect: R1/R2 are
		// reported above on their own, and the rest needs the policy.
		d.add(Finding{Area: AreaCheck, Status: StatusInfo, Summary: "no adopted policy, so the strict check judges only recall hooks and shared notes (above)", Command: cmd})
		d.add(Finding{Area: AreaPolicy, Status: StatusInfo,
			Summary: "not adopted. Adopting it would add a size budget for this index (checked against Claude Code's measured limit) and recorded, reversible exits (LEDGER.md)",
			Command: "memcompact reference"})
		return
	}
	st, summary := StatusOK, "policy "+rep.PolicyStatus+"; "+size
	switch {
	case !rep.PolicyComplete || rep.PolicyDivergence != "":
		st = StatusProblem
		if rep.PolicyDivergence != "" {
			summary += "; " + rep.PolicyDivergence
		}
	case rep.Size.State == check.SizeOver || rep.Size.State == check.SizeCouldNotVerify:
		st = StatusProblem
		if rep.Size.Cause != "" {
			summary += ": " + rep.Size.Cause
		}
	}
	d.add(Finding{Area: AreaCheck, Status: st, Summary: summary, Command: cmd})
}

// drift reports orphan entry files and dangling pointers (drift.go).
func (d *diagnosis) drift() { driftFinding(d) }

// rel writes path relative to dir when it lies inside it.
func rel(dir, path string) string {
	if r, err := filepath.Rel(dir, path); err == nil && !filepath.IsAbs(r) && r != "" && r[0] != '.' {
		return r
	}
	return path
}

// quote makes a path safe to paste into a shell when it needs to be.
func quote(p string) string {
	for _, c := range p {
		if !(c == '/' || c == '.' || c == '-' || c == '_' || c == '~' || c == ':' || c == '\\' ||
			(c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
			return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
		}
	}
	return p
}

func oneLine(err error) string {
	var el budget.ErrorList
	if errors.As(err, &el) && len(el) > 0 {
		return fmt.Sprintf("%v (and %d more)", el[0], len(el)-1)
	}
	return err.Error()
}
