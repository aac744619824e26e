package sweep

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/textfile"
)

// Populations of the corpus.
const (
	PopPointer = "pointer"
	PopOrphan  = "orphan-body"
)

// Entry is one subject of the corpus.
type Entry struct {
	Name       string
	Identity   string // <name>@<admitted>
	Population string // PopPointer or PopOrphan
	Line       int    // its pointer line, 0 for an orphan
	// Body is the file read as its body: the file its link names (package
	// index resolves it, as drift does), or, for a link that leaves the
	// store or is a URL, <name>.md beside the index (Reach says which).
	Body  string
	Reach string // ReachFile, ReachOutside or ReachURL; "" for an orphan
}

// Where a pointer's link leads.
const (
	ReachFile    = "file"    // a file in the store, there or not
	ReachOutside = "outside" // a file outside the store: its body is read beside the index
	ReachURL     = "url"     // a web address, no file: its body is read beside the index
)

// BodyOf is the body a subject's link leads to, read through rv (the
// store directory's resolver): the file the link names when it lies in
// the store, else <name>.md beside the index, as the reference reads
// every body; and what the resolver says is there.
func BodyOf(rv *index.Resolver, s records.Subject) (string, index.Resolved, string) {
	r := rv.Resolve(s.Dest)
	switch {
	case r.State == index.NotFile:
		return filepath.Join(rv.Dir(), s.Name+".md"), rv.Resolve(s.Name + ".md"), ReachURL
	case r.Outside:
		return filepath.Join(rv.Dir(), s.Name+".md"), rv.Resolve(s.Name + ".md"), ReachOutside
	}
	return r.Path, r, ReachFile
}

// Corpus is the two populations a sweep walks.
type Corpus struct {
	Entries       []Entry
	NonEntryFiles []string // pointer-side first, then orphan-side
	Warnings      []Warning
}

// reservedNames are the store's own files, compared case-insensitively: the
// index's own name, LEDGER, SLATE, ARCHIVE and POLICY. (A policy file under
// another name is not reserved, as in the reference: it is listed as a
// non-entry file unless it carries entry frontmatter.)
func reservedNames(indexPath string) []string {
	return []string{records.EntryName(indexPath), "LEDGER", "SLATE", "ARCHIVE", "POLICY"}
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// BuildCorpus enumerates the corpus from disk: every subject on the index's
// pointer lines (its body is always <index dir>/<name>.md, whatever folder
// the link names), then every *.md file directly in the index's directory
// that no pointer names and that is an entry (frontmatter with
// "node_type: memory"), in file-name order. A body that exists but cannot
// be read is an error: an identity guessed from an unread body would be a
// guess.
func BuildCorpus(p Paths, lines []string) (*Corpus, error) { return BuildCorpusWith(p, lines, nil) }

// BuildCorpusWith is BuildCorpus reading each entry file through the
// caller's read of each file for its run (nil: read here): the sweep
// figure a session start computes reads the same bodies again.
func BuildCorpusWith(p Paths, lines []string, reads *textfile.Reads) (*Corpus, error) {
	c := &Corpus{NonEntryFiles: []string{}}
	reserved := reservedNames(p.Index)
	subjects := records.Subjects(lines)
	pointed := make(map[string]bool, len(subjects))
	for _, s := range subjects {
		pointed[strings.ToLower(s.Name)] = true
	}
	base := filepath.Base(p.Index)
	dirReal, err := filepath.EvalSymlinks(p.Dir)
	if err != nil {
		dirReal = p.Dir
	}
	rv := index.NewResolver(p.Dir)
	des, err := rv.List(filepath.Clean(p.Dir))
	if err != nil {
		return nil, err
	}
	for _, s := range subjects {
		if containsFold(reserved, s.Name) {
			c.NonEntryFiles = append(c.NonEntryFiles, s.Name)
			continue
		}
		body, r, reach := BodyOf(rv, s)
		if reach != ReachFile {
			c.Warnings = append(c.Warnings, Warning{File: base, Line: s.Line,
				Msg: fmt.Sprintf("link target '%s' leads outside the store; its body is read beside the index as %s.md", s.Target, s.Name)})
		}
		facts := records.EntryFacts{Admitted: records.Unknown} // a body not there
		if r.State != index.Missing {
			if facts, err = records.ReadEntryFactsWith(reads, body); err != nil {
				return nil, fmt.Errorf("%s:%d: the body of '%s' could not be read: %w", base, s.Line, s.Name, err)
			}
		}
		if r.State == index.Found && (r.Entry == nil || r.Entry.Type()&fs.ModeSymlink != 0) {
			if real, ok := leavesStore(body, dirReal); ok {
				c.Warnings = append(c.Warnings, Warning{File: base, Line: s.Line,
					Msg: fmt.Sprintf("the body of '%s' is a link to '%s', outside the store", s.Name, real)})
			}
		}
		if records.IsReservedName(s.Name) {
			c.Warnings = append(c.Warnings, Warning{File: base, Line: s.Line,
				Msg: fmt.Sprintf("'%s' is reserved for the sweep's own records, so no ledger or slate record can name this entry; rename it", s.Name)})
		}
		c.Entries = append(c.Entries, Entry{Name: s.Name, Identity: s.Name + "@" + facts.Admitted, Population: PopPointer, Line: s.Line, Body: body, Reach: reach})
	}
	var names []string
	for _, de := range des {
		n := de.Name()
		// PowerShell's listing skips dot-files on Unix, and its file-name
		// filter ignores letter case on every platform, so NOTES.MD is
		// listed as the entry NOTES.
		if strings.HasPrefix(n, ".") || len(n) < 3 || !strings.EqualFold(n[len(n)-3:], ".md") {
			continue
		}
		names = append(names, n)
	}
	slices.SortStableFunc(names, compareNames)
	for _, n := range names {
		name := records.EntryName(n)
		if containsFold(reserved, name) || pointed[strings.ToLower(name)] {
			continue
		}
		path := filepath.Join(p.Dir, n)
		if isDir(path) {
			// A folder named x.md is not a file; a dangling link is
			// listed, and read below as a non-entry.
			continue
		}
		facts, err := records.ReadEntryFactsWith(reads, path)
		if err != nil {
			return nil, fmt.Errorf("%s: the orphan body could not be read: %w", n, err)
		}
		if !facts.IsEntry {
			c.NonEntryFiles = append(c.NonEntryFiles, name)
			continue
		}
		if real, ok := leavesStore(path, dirReal); ok {
			c.Warnings = append(c.Warnings, Warning{File: n, Msg: fmt.Sprintf("this entry is a link to '%s', outside the store", real)})
		}
		if records.IsReservedName(name) {
			c.Warnings = append(c.Warnings, Warning{File: n,
				Msg: fmt.Sprintf("'%s' is reserved for the sweep's own records, so no ledger or slate record can name this entry; rename it", name)})
		}
		c.Entries = append(c.Entries, Entry{Name: name, Identity: name + "@" + facts.Admitted, Population: PopOrphan})
	}
	return c, nil
}

// leavesStore reports whether path is a symbolic link whose target lies
// outside the store's directory (dirReal, symlinks resolved), and where it
// leads. Only links are resolved, so a store of plain files costs one lstat
// per body.
func leavesStore(path, dirReal string) (string, bool) {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return "", false
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", false
	}
	rel, err := filepath.Rel(dirReal, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return real, true
	}
	return "", false
}

// compareNames orders names the way the reference's culture-aware sort
// does for ASCII names: whitespace, then punctuation and symbols (in the
// Unicode root collation's order), then digits, then letters without regard
// to case; names equal but for case put lower case first. Other characters
// follow the letters in code-point order.
func compareNames(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	for i := 0; i < len(ra) && i < len(rb); i++ {
		if ka, kb := collationKey(ra[i]), collationKey(rb[i]); ka != kb {
			if ka < kb {
				return -1
			}
			return 1
		}
	}
	if len(ra) != len(rb) {
		if len(ra) < len(rb) {
			return -1
		}
		return 1
	}
	for i := range ra {
		if ra[i] != rb[i] {
			// Lower case first, as the tertiary level orders them.
			if unicode.IsLower(ra[i]) && !unicode.IsLower(rb[i]) {
				return -1
			}
			if !unicode.IsLower(ra[i]) && unicode.IsLower(rb[i]) {
				return 1
			}
			if ra[i] < rb[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// rootOrder is the root collation's order of ASCII whitespace, punctuation
// and symbols.
const rootOrder = "\t\n\v\f\r _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$"

func collationKey(r rune) int {
	if i := strings.IndexRune(rootOrder, r); i >= 0 {
		return i
	}
	switch {
	case r >= '0' && r <= '9':
		return 100 + int(r-'0')
	case r >= 'a' && r <= 'z':
		return 200 + int(r-'a')
	case r >= 'A' && r <= 'Z':
		return 200 + int(r-'A')
	}
	return 1000 + int(unicode.ToLower(r))
}
