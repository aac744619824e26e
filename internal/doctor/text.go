package doctor

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/memcompact/memcompact/internal/textfile"
)

// WriteText renders one report for a person.
func WriteText(w io.Writer, r *Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "memcompact doctor: %s\n", r.Index)
	if r.Result == "unreadable" {
		fmt.Fprintf(&b, "verdict: unreadable: %s\n", r.Reason)
		_, err := io.WriteString(w, b.String())
		return err
	}
	fmt.Fprintf(&b, "%d lines, %s characters; %d pointer lines linking %d subjects\n\n", r.Lines, textfile.N0(r.Characters), r.PointerLines, r.Subjects)
	for _, f := range r.Findings {
		writeFinding(&b, f)
	}
	switch r.Problems {
	case 0:
		b.WriteString("\nverdict: healthy\n")
	case 1:
		b.WriteString("\nverdict: 1 problem\n")
	default:
		fmt.Fprintf(&b, "\nverdict: %d problems\n", r.Problems)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// All is the doctor's verdict on every store under a config dir.
type All struct {
	SchemaVersion int       `json:"schema_version"`
	Projects      string    `json:"projects"` // <config dir>/projects
	Stores        []*Report `json:"stores"`
	Healthy       int       `json:"healthy"`
	WithProblems  int       `json:"with_problems"`
	Unreadable    int       `json:"unreadable"`
	// Hooks are the findings about memcompact's hooks on this machine
	// (installed in Claude Code, their record of failures), said once
	// for every store.
	Hooks []Finding `json:"hooks"`
	// ByProject groups the stores by the projects Claude Code has run in
	// (from its session transcripts): the store it loads for each and the
	// split stores whose entries it never loads.
	ByProject []ProjectStores `json:"by_project"`
}

// ExitCode is the worst of the stores' codes (0 when there are none).
func (a *All) ExitCode() int {
	code := 0
	for _, p := range a.ByProject {
		if len(p.Split) > 0 {
			code = 1
		}
	}
	for _, r := range a.Stores {
		code = max(code, r.ExitCode())
	}
	for _, f := range a.Hooks {
		if f.Status == StatusProblem {
			code = max(code, 1)
		}
	}
	return code
}

// WriteAllText renders the summary table of every store: one row each,
// the project directory's name first, then the counts doctor judges.
func WriteAllText(w io.Writer, a *All) error {
	var b strings.Builder
	fmt.Fprintf(&b, "memcompact doctor --all: %d store(s) under %s\n\n", len(a.Stores), a.Projects)
	name := 7
	for _, r := range a.Stores {
		name = max(name, len(project(r)))
	}
	fmt.Fprintf(&b, "%-*s  %5s  %8s  %4s  %5s  %2s  %7s  %7s  %7s  %s\n", name, "PROJECT", "LINES", "SUBJECTS", "CUT", "NOHOOK", "R2", "ORPHANS", "DANGLING", "SECRETS", "VERDICT")
	for _, r := range a.Stores {
		verdict := r.Result
		if r.Result == "problems" {
			verdict = fmt.Sprintf("%d problem(s)", r.Problems)
		}
		if r.Result == "unreadable" {
			fmt.Fprintf(&b, "%-*s  %5s  %8s  %4s  %5s  %2s  %7s  %7s  %7s  %s\n", name, project(r), "-", "-", "-", "-", "-", "-", "-", "-", "unreadable: "+r.Reason)
			continue
		}
		fmt.Fprintf(&b, "%-*s  %5d  %8d  %4d  %5d  %2d  %7d  %7d  %7d  %s\n", name, project(r), r.Lines, r.Subjects, r.PastCut, r.WithoutHook, r.SharedNotes, r.Orphans, r.Dangling, r.Secrets, verdict)
	}
	fmt.Fprintf(&b, "\n%d healthy, %d with problems, %d unreadable; 'memcompact doctor INDEX' explains one store\n", a.Healthy, a.WithProblems, a.Unreadable)
	if len(a.Hooks) > 0 {
		b.WriteString("\nmemcompact's hooks (for every store):\n")
		for _, f := range a.Hooks {
			writeFinding(&b, f)
		}
	}
	writeByProject(&b, a.ByProject)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeFinding writes one finding as doctor's report lists it.
func writeFinding(b *strings.Builder, f Finding) {
	fmt.Fprintf(b, "  %-7s  %-7s  %s\n", f.Status, f.Area, f.Summary)
	for _, d := range f.Details {
		fmt.Fprintf(b, "                     %s\n", d)
	}
	if f.Command != "" && f.Status != StatusOK {
		fmt.Fprintf(b, "                     → %s\n", f.Command)
	}
}

// project is the name of a store's project directory (the parent of
// memory/), which is how Claude Code names the project.
func project(r *Report) string {
	return filepath.Base(filepath.Dir(r.Store))
}

// writeByProject says, per project Claude Code has run in, which store it
// loads and which stores hold entries it never loads.
func writeByProject(b *strings.Builder, ps []ProjectStores) {
	if len(ps) == 0 {
		return
	}
	split := 0
	for _, p := range ps {
		if len(p.Split) > 0 {
			split++
		}
	}
	fmt.Fprintf(b, "\nby project (from Claude Code's session transcripts): %d project(s), %d with split stores\n", len(ps), split)
	for _, p := range ps {
		fmt.Fprintf(b, "  %s\n    loads %s: %d entry file(s); %s\n", p.Project, p.Loads, p.Entries, p.Rule)
		for _, r := range p.Split {
			index := ""
			if r.Index {
				index = " and a MEMORY.md"
			}
			fmt.Fprintf(b, "    never loads %s: %d entry file(s)%s — %s\n", r.Dir, r.Entries, index, r.Why)
		}
	}
}
