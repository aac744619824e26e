package sweepact

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/memcompact/memcompact/internal/records"
)

// UserInstructions is where a plan promotes a standing rule when it knows
// no project: the user's CLAUDE.md, which Claude Code loads in every
// project. It is written with "~/" so the plan reads the same on any
// machine; apply resolves it against the home directory.
const UserInstructions = "~/.claude/CLAUDE.md"

// promotionDestination names the surface a plan promotes a standing rule
// to, with what it is, in the plan's "path (what)" form: the project's
// CLAUDE.md when the plan knows the project, else the user's CLAUDE.md.
// Never a file inside the memory folder: Claude Code loads no CLAUDE.md
// from there.
func promotionDestination(project string) string {
	if project != "" {
		return filepath.Join(project, "CLAUDE.md") + " (the project's CLAUDE.md, which Claude Code loads at session start)"
	}
	return UserInstructions + " (the user's CLAUDE.md, which Claude Code loads in every project)"
}

// namePromotions gives every proposed promotion its destination surface
// and says, in its evidence, what apply will wait for.
func namePromotions(pl *Plan, project string) {
	for i := range pl.Subjects {
		sub := &pl.Subjects[i]
		if sub.Disposition != "promote" || sub.Decision != Pending {
			continue
		}
		sub.Destination = promotionDestination(project)
		path, _, _ := strings.Cut(sub.Destination, " (")
		sub.Reason = "a standing rule, general beyond this store: it belongs in " + path + ", which Claude Code loads at session start"
		sub.Evidence = append(sub.Evidence, fmt.Sprintf("apply takes the pointer out only once %s carries the lesson; until then the subject stays, with a landing row in the slate", path))
	}
}

// surfaceOf judges a promotion's resolved destination: it must be a file
// Claude Code loads as instructions (a CLAUDE.md or CLAUDE.local.md, a
// .claude/rules/*.md, the user's CLAUDE.md), outside the memory folder
// memDir, and not a symlink leading out of its project. It returns the
// project (the folder the surface belongs to) and why the destination is
// refused ("" when it is not).
func surfaceOf(dest, memDir, home string) (project, why string) {
	if dest == "" {
		return "", "the plan names no destination for this promotion"
	}
	dest = filepath.Clean(dest)
	if inside(canonicalPath(memDir), canonicalPath(dest)) || inside(filepath.Clean(memDir), dest) {
		return "", fmt.Sprintf("'%s' is inside the memory folder, where Claude Code loads no instructions; promote to the project's CLAUDE.md, CLAUDE.local.md, a .claude/rules/*.md file or %s", dest, UserInstructions)
	}
	base, parent := filepath.Base(dest), filepath.Dir(dest)
	switch {
	case base == "CLAUDE.md" || base == "CLAUDE.local.md":
		project = parent
		if filepath.Base(parent) == ".claude" {
			project = filepath.Dir(parent)
		}
		if home != "" && filepath.Clean(dest) == filepath.Join(home, ".claude", "CLAUDE.md") {
			project = filepath.Join(home, ".claude")
		}
	case strings.HasSuffix(base, ".md") && rulesRoot(parent) != "":
		project = rulesRoot(parent)
	default:
		return "", fmt.Sprintf("'%s' is not a file Claude Code loads as instructions; promote to a CLAUDE.md, CLAUDE.local.md, a .claude/rules/*.md file or %s", dest, UserInstructions)
	}
	project = enclosingRepo(project)
	real := canonicalPath(dest)
	if root := canonicalPath(project); !inside(root, real) {
		return project, fmt.Sprintf("'%s' is a symlink to '%s', outside its project '%s'; the promotion is refused so the lesson is not confirmed in a file the project does not own", dest, real, project)
	}
	return project, ""
}

// enclosingRepo is the root of the git repository enclosing dir (the
// nearest folder up with a .git), or dir itself when none does: a
// CLAUDE.md in a subfolder of a project belongs to that project, and a
// symlink out of it leaves it.
func enclosingRepo(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

// rulesRoot is the project whose .claude/rules folder dir is (or is
// under), or "".
func rulesRoot(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if filepath.Base(d) == "rules" && filepath.Base(filepath.Dir(d)) == ".claude" {
			return filepath.Dir(filepath.Dir(d))
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// canonicalPath resolves every symlink of p it can: the longest existing
// prefix is resolved and the rest joined on, so a file that does not
// exist yet is judged by the folder it would be written in.
func canonicalPath(p string) string {
	p = filepath.Clean(p)
	rest := ""
	for d := p; ; d = filepath.Dir(d) {
		if r, err := filepath.EvalSymlinks(d); err == nil {
			return filepath.Join(r, rest)
		}
		if filepath.Dir(d) == d {
			return p
		}
		rest = filepath.Join(filepath.Base(d), rest)
	}
}

// inside reports whether p is dir or under it.
func inside(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// Held is a promotion apply did not take: the subject stays in the index,
// a landing row in the slate says what it waits for.
type Held struct {
	Identity    string `json:"identity"`
	Destination string `json:"destination"`
	Why         string `json:"why"`
}

// holdPromotions takes out of acts every promotion that cannot be taken
// now (a destination that is not a surface Claude Code loads, one that
// leads out of its project, one that does not carry the lesson yet, a
// critical one not landed): those subjects stay, and are returned held.
// A promotion never blocks the rest of the sweep.
func holdPromotions(s *store, pl *Plan, acts []*act, req ApplyRequest) ([]*act, []Held) {
	slate := simulatedSlate(s, pl, acts, req.AsOf)
	var keep []*act
	var held []Held
	for _, a := range acts {
		if a.kind != "promote" {
			keep = append(keep, a)
			continue
		}
		dest, _, _ := destination(s, a, req.Home)
		_, why := surfaceOf(dest, s.paths.Dir, req.Home)
		if strings.HasPrefix(strings.TrimSpace(a.sub.Destination), "~/") && req.Home == "" {
			dest, why = strings.TrimSpace(a.sub.Destination), "the home directory is unknown, so a destination under ~/ cannot be read"
		}
		if why == "" && !fileExists(dest) {
			why = fmt.Sprintf("'%s' does not exist yet; write the lesson there, then sweep again (nothing is created for you: the words are the owner's)", dest)
		}
		if why == "" {
			why = gate(s, slate, s.ledger, a, req)
		}
		if why == "" {
			keep = append(keep, a)
			continue
		}
		held = append(held, Held{Identity: a.sub.Identity, Destination: dest, Why: why})
	}
	return keep, held
}

// heldRows are the slate's landing rows for held promotions: the lesson
// has not landed at its destination.
func heldRows(held []Held, asOf records.Date) []string {
	var rows []string
	for _, h := range held {
		rows = append(rows, SlateRow(asOf, h.Identity, records.TrackLanding, "none",
			"promotion to "+h.Destination+" held at the sweep of "+asOf.String()+": "+h.Why))
	}
	return rows
}
