// Package drift finds where a memory store and its index disagree: entry
// files that no pointer names (orphans) and pointers that name files that
// do not exist (dangling pointers).
//
// Both kinds of drift make memory quietly wrong. An orphan is knowledge the
// agent will never be led to, because Claude Code loads only the index; a
// dangling pointer promises knowledge that is not there. Neither is always a
// mistake, so drift reports and never repairs.
//
// The rules:
//
//   - The index is the store's MEMORY.md (or the index file given). Its
//     pointers are read with package index: a pointer is a subject link (a
//     link whose target ends in .md) on a pointer-pattern line (a list
//     item). Links in prose, tables or headings are not pointers.
//   - An entry file is a regular file directly in the index's directory
//     (not in sub-folders: a store's snapshots, archives and tooling live
//     there) whose name ends in .md (any case) and does not start with '.'.
//     The one sub-folder that holds entries is team/: Claude Code keeps
//     team memories there (team/x.md, or team/<mount>/x.md) and indexes
//     them from the same MEMORY.md as "team/x.md", so .md files anywhere
//     under team/ are entries too (a MEMORY.md there is a team index, not
//     an entry), and one is named only by a link to its path under team/.
//     The store's own files are not entries: the index itself, LEDGER.md,
//     SLATE.md, ARCHIVE.md and POLICY.md (names compared without regard to
//     case, as the sweep's inventory does), and the policy file the index's
//     stanza names.
//   - An orphan is an entry file whose name (case-insensitively) is the
//     file name of no link's target in the index. Here every subject link
//     counts, pointer or not: a link in a table row or in prose ("See
//     [x](x.md)") still leads the agent to the file. An orphan whose life key
//     (name@admitted, from its frontmatter) has an exit in force in the
//     store's LEDGER.md left the index deliberately and on the record: it
//     is listed as exited, not as drift.
//   - A dangling pointer is a pointer (never a link elsewhere: an HTML
//     comment's example link or a prose reference to a repository document
//     promises no entry) whose target, resolved against the
//     index's directory (percent-escapes decoded; URLs are not checked), is
//     not a regular file. When a file differing only in letter case exists,
//     the finding says so: on a case-sensitive file system the link does
//     not reach it.
package drift

import (
	"errors"
	"fmt"
	"github.com/memcompact/memcompact/internal/entryfile"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/policy"
	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/textfile"
)

// IndexName is the file name of a Claude Code store's index.
const IndexName = "MEMORY.md"

// Orphan is an entry file no pointer names.
type Orphan struct {
	File     string `json:"file"`     // file name, in the store directory
	Identity string `json:"identity"` // name@admitted, "@unknown" when it records none
	// Exit is the disposition of the exit in force for this life, for
	// orphans that left on the record; "" for drift.
	Exit string `json:"exit,omitempty"`
	// ExitLine is the LEDGER.md line of that record.
	ExitLine int `json:"exit_line,omitempty"`
}

// Dangling is a pointer to a file that does not exist.
type Dangling struct {
	Line   int    `json:"line"`           // 1-based line of the pointer line in the index
	Target string `json:"target"`         // the link target as written (cut at '#')
	Reason string `json:"reason"`         // "no such file", "a directory", ...
	Hint   string `json:"hint,omitempty"` // e.g. a file differing only in case
}

// Result is what Compute found.
type Result struct {
	Store    string     `json:"store"`    // the store directory
	Index    string     `json:"index"`    // the index file
	Ledger   string     `json:"ledger"`   // the ledger path consulted
	Entries  int        `json:"entries"`  // entry files in the store
	Pointers int        `json:"pointers"` // pointers (subject links on pointer lines)
	Orphans  []Orphan   `json:"orphans"`  // drift: entry files no pointer names
	Exited   []Orphan   `json:"exited"`   // not drift: unnamed, but their exit is in force
	Dangling []Dangling `json:"dangling"` // drift: pointers to missing files
	// LedgerProblems counts LEDGER.md records that could not be read (and
	// so could not excuse an orphan), plus one for a duplicated marker.
	LedgerProblems int `json:"ledger_problems"`
	// DanglingLinks lists [[name]] links in entry files that name no entry
	// ("file: [[name]]"); noted, not drift.
	DanglingLinks []string `json:"dangling_links"`
}

// Drifted reports whether anything drifted: an orphan or a dangling pointer.
func (r *Result) Drifted() bool { return len(r.Orphans) > 0 || len(r.Dangling) > 0 }

// ErrNoIndex is returned (wrapped) when the store has no index file.
var ErrNoIndex = errors.New("no index file")

// reserved are the names of a store's own files (without extension, upper
// case), which are never entries.
var reserved = []string{"LEDGER", "SLATE", "ARCHIVE", "POLICY"}

// Compute finds the drift of the store at path: a store directory (its
// index is MEMORY.md there) or an index file (its directory is the store).
// asOf is the date the ledger is read as of (records dated later are
// malformed, as the sweep reads them). An index that cannot be read, or a
// ledger that exists but cannot be read, is an error: without them there is
// no verdict.
func Compute(path string, asOf records.Date) (*Result, error) {
	indexPath := path
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		indexPath = filepath.Join(path, IndexName)
	}
	f, err := textfile.Read(indexPath)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: %w", indexPath, ErrNoIndex)
		}
		return nil, err
	}
	lines := textfile.Lines(f.Text)
	return ComputeParsed(indexPath, lines, index.Parse(lines), asOf, nil)
}

// ComputeParsed is Compute for a caller that has already read the index at
// indexPath (a file) into lines and parsed them into ix: the doctor, which
// runs on every session start, reads and parses the index once for all its
// findings.
//
// ents are the store's entry files as entryfile reads them, for a caller
// that has read them already (nil: they are read here).
func ComputeParsed(indexPath string, lines []string, ix *index.Index, asOf records.Date, ents []entryfile.Entry) (*Result, error) {
	dir := filepath.Dir(indexPath)
	res := &Result{Store: dir, Index: indexPath, Ledger: filepath.Join(dir, "LEDGER.md")}

	named := map[string]bool{} // lower-cased file names of link targets
	// lower-cased paths of link targets inside team/, which name team
	// entries (a bare "x.md" names the store's own x.md, not team/x.md)
	namedTeam := map[string]bool{}
	// One resolver (package index) lists the store's directory once and
	// says where every pointer leads, as the sweep's plan is told.
	rv := index.NewResolver(dir)
	des, dirErr := rv.List(dir)
	for i := range ix.Lines {
		ln := &ix.Lines[i]
		if !ln.Pointer {
			// A link in a table row or in prose ("See [x](x.md)") still
			// leads the agent to its file, so it keeps that file from
			// being an orphan; it is not a pointer, so it is never
			// reported dangling (an HTML comment's example link is not a
			// promise).
			links, _ := index.ScanLinks(ln.Text)
			for _, k := range links {
				if k.Subject {
					name(named, k.Dest)
					nameTeam(namedTeam, k.Dest)
				}
			}
			continue
		}
		for _, k := range ln.Subjects() {
			res.Pointers++
			name(named, k.Dest)
			nameTeam(namedTeam, k.Dest)
			if d, ok := dangling(rv, ln.Num, k); ok {
				res.Dangling = append(res.Dangling, d)
			}
		}
	}

	skip := map[string]bool{strings.ToLower(filepath.Base(indexPath)): true}
	for _, r := range reserved {
		skip[strings.ToLower(r)+".md"] = true
	}
	if st := policy.ReadStanza(lines, ix.FirstHeading); st.Path != "" {
		p := st.Path
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if filepath.Dir(filepath.Clean(p)) == filepath.Clean(dir) {
			skip[strings.ToLower(filepath.Base(p))] = true
		}
	}

	if dirErr != nil {
		return nil, dirErr
	}
	entries := entryFiles(dir, des, skip)
	team := teamFiles(dir)
	res.Entries = len(entries) + len(team)
	unnamed := make([]string, 0, len(entries)+len(team))
	for _, name := range entries {
		if !named[strings.ToLower(name)] {
			unnamed = append(unnamed, name)
		}
	}
	for _, name := range team {
		if !namedTeam[strings.ToLower(name)] {
			unnamed = append(unnamed, name)
		}
	}
	var ledger *records.Ledger
	for _, name := range unnamed {
		if ledger == nil {
			var err error
			ledger, err = records.ReadLedger(res.Ledger, asOf)
			if err != nil {
				return nil, err
			}
			res.LedgerProblems = len(ledger.Malformed)
			if ledger.State() == records.StateDuplicated {
				res.LedgerProblems++
			}
		}
		id, err := records.EntryIdentity(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			return nil, err
		}
		o := Orphan{File: name, Identity: id}
		if rec, ok := ledger.ExitInForce(id); ok {
			o.Exit, o.ExitLine = rec.Disposition, rec.Line
			res.Exited = append(res.Exited, o)
			continue
		}
		res.Orphans = append(res.Orphans, o)
	}
	// [[name]] links between entries (Claude Code's own cross-references)
	// that name no entry. Not drift: Claude Code reads them as entries
	// still to write, so they are reported beside it, never as a defect.
	if ents == nil {
		ents = entryfile.Read(dir)
	}
	res.DanglingLinks = entryfile.Dangling(ents)
	return res, nil
}

// name marks the file a link names (its Dest: escapes and
// percent-escapes decoded, so "my%20note.md" names "my note.md").
func name(named map[string]bool, dest string) {
	named[strings.ToLower(index.FileName(dest))] = true
}

// nameTeam marks the team entry a link names: its path, cleaned, when it
// lies under team/.
func nameTeam(named map[string]bool, dest string) {
	if p := path.Clean(strings.TrimPrefix(dest, "./")); strings.HasPrefix(strings.ToLower(p), teamDir+"/") {
		named[strings.ToLower(p)] = true
	}
}

// teamDir is the store's folder of team memories.
const teamDir = "team"

// teamFiles lists the entry files under dir's team/ folder, as paths
// relative to dir with forward slashes, sorted; at most three folders deep.
func teamFiles(dir string) []string {
	var out []string
	var walk func(rel string, depth int)
	walk = func(rel string, depth int) {
		des, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			return
		}
		for _, de := range des {
			name := de.Name()
			if strings.HasPrefix(name, ".") {
				continue
			}
			p := rel + "/" + name
			fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p))) // follows a symlink
			switch {
			case err != nil:
			case fi.IsDir() && depth < 3:
				walk(p, depth+1)
			case fi.Mode().IsRegular() && strings.HasSuffix(strings.ToLower(name), ".md") && !strings.EqualFold(name, IndexName):
				out = append(out, p)
			}
		}
	}
	walk(teamDir, 1)
	sort.Strings(out)
	return out
}

// entryFiles lists the entry files of dir, sorted by name.
func entryFiles(dir string, des []fs.DirEntry, skip map[string]bool) []string {
	var out []string
	for _, de := range des {
		name := de.Name()
		lower := strings.ToLower(name)
		if strings.HasPrefix(name, ".") || !strings.HasSuffix(lower, ".md") || skip[lower] {
			continue
		}
		// The listing's type is the entry's own (os.ReadDir stats it
		// where the file system does not say): a regular file needs no
		// stat; a symbolic link is followed; anything else is no entry.
		switch t := de.Type(); {
		case t.IsRegular():
		case t&fs.ModeSymlink != 0:
			fi, err := os.Stat(filepath.Join(dir, name))
			if err != nil || !fi.Mode().IsRegular() {
				continue
			}
		default:
			continue
		}
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// dangling reports whether a pointer's destination is not a file, as
// package index resolves it (URLs are not checked).
func dangling(rv *index.Resolver, line int, k index.Link) (Dangling, bool) {
	r := rv.Resolve(k.Dest)
	reason, hint := r.Problem()
	if reason == "" {
		return Dangling{}, false
	}
	return Dangling{Line: line, Target: k.Target, Reason: reason, Hint: hint}, true
}
