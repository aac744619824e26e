package doctor

// The two recall areas of the diagnosis: subjects without a recall hook
// (R1) and notes shared by subjects (R2).

import "fmt"

func (d *diagnosis) hooks() {
	h := d.hookless
	if h != nil {
		d.r.Hookless = h
	}
	d.r.WithoutHook = len(h)
	if d.r.Subjects == 0 {
		d.add(Finding{Area: AreaHooks, Status: StatusInfo, Summary: "no linked subjects on pointer lines (an index of prose or tables): nothing to judge"})
		return
	}
	if len(h) == 0 {
		d.add(Finding{Area: AreaHooks, Status: StatusOK, Summary: fmt.Sprintf("all %d linked subjects say what they teach", d.r.Subjects)})
		return
	}
	var det []string
	for _, w := range h {
		det = append(det, fmt.Sprintf("line %d: [%s](%s) — %s", w.Line, w.LinkText, w.Target, w.Reason))
	}
	d.add(Finding{Area: AreaHooks, Status: StatusProblem,
		Summary: fmt.Sprintf("%d of %d linked subjects have no recall hook (R1): a future session cannot tell when to open them; after each link, say what the entry teaches", len(h), d.r.Subjects),
		Details: most(det, 5), Command: d.fullList()})
}

// fullList is the command for R1 and R2 findings when the strict check
// cannot judge the store (see listedByCheck): the details show at most
// five, and --json lists every one with its reason.
func (d *diagnosis) fullList() string {
	cmd := "memcompact doctor --json " + quote(d.opt.Index)
	if d.opt.ReferenceFlag != "" {
		cmd += " --reference " + quote(d.opt.ReferenceFlag)
	}
	return cmd
}

// listedByCheck points the R1 and R2 findings at the strict check once it
// has judged the store: it lists every offender with its reason, and it is
// the command that confirms the fix.
func (d *diagnosis) listedByCheck(cmd string) {
	for i := range d.r.Findings {
		f := &d.r.Findings[i]
		if (f.Area == AreaHooks || f.Area == AreaNotes) && f.Status == StatusProblem {
			f.Command = cmd
		}
	}
}

func (d *diagnosis) notes() {
	n := d.sharedNotes
	if n != nil {
		d.r.Notes = n
	}
	d.r.SharedNotes = len(n)
	if len(n) == 0 {
		if d.r.Subjects > 0 {
			d.add(Finding{Area: AreaNotes, Status: StatusOK, Summary: "no note is shared over subjects without hooks of their own"})
		}
		return
	}
	var det []string
	for _, s := range n {
		det = append(det, fmt.Sprintf("line %d: %q over %d subjects", s.Line, s.Note, len(s.Subjects)))
	}
	d.add(Finding{Area: AreaNotes, Status: StatusProblem,
		Summary: fmt.Sprintf("%d unattributed shared note(s) (R2): one clause over several subjects that say nothing themselves; give each subject its own pointer line", len(n)),
		Details: most(det, 5), Command: d.fullList()})
}
