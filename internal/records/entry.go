package records

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/textfile"
)

// EntryFacts is what a file says about itself in its frontmatter.
type EntryFacts struct {
	Exists         bool   // a regular file is there
	HasFrontmatter bool   // its first line is "---"
	IsEntry        bool   // the frontmatter has a "node_type: memory" line
	Admitted       string // the admitted value as written, or Unknown
}

// ReadEntryFacts reads the frontmatter facts of path. A missing file, or a
// directory, is not an entry and its admitted value is Unknown; a file that
// exists but cannot be read is an error wrapping ErrUnreadable.
//
// The frontmatter is read line by line, as the reference reads it, not as
// YAML: it runs from a first line "---" to the next "---" (or the end of
// the file); a line "node_type: memory" (any letter case) makes the file an
// entry; the last line "admitted: <one token>" (key case-sensitive, at any
// nesting — so metadata.admitted is found) sets the admitted value
// verbatim, quotes and all, so a store's identities are the same strings
// the reference computes.
func ReadEntryFacts(path string) (EntryFacts, error) { return ReadEntryFactsWith(nil, path) }

// ReadEntryFactsWith is ReadEntryFacts through the caller's read of each
// file for its run (nil: read here).
func ReadEntryFactsWith(reads *textfile.Reads, path string) (EntryFacts, error) {
	f, err := reads.Read(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, textfile.ErrNotRegular) {
			return EntryFacts{Admitted: Unknown}, nil
		}
		return EntryFacts{Admitted: Unknown}, errors.Join(ErrUnreadable, err)
	}
	facts := ParseEntryFacts(f.Text)
	facts.Exists = true
	return facts, nil
}

// ParseEntryFacts reads the frontmatter facts of decoded text.
func ParseEntryFacts(text string) EntryFacts {
	facts := EntryFacts{Admitted: Unknown}
	lines := textfile.Lines(text)
	if len(lines) == 0 || index.TrimSpace(lines[0]) != "---" {
		return facts
	}
	facts.HasFrontmatter = true
	for _, l := range lines[1:] {
		if index.TrimSpace(l) == "---" {
			break
		}
		if isNodeTypeMemory(l) {
			facts.IsEntry = true
		}
		if v, ok := admittedValue(l); ok {
			facts.Admitted = v
		}
	}
	return facts
}

// isNodeTypeMemory reports whether a frontmatter line is "node_type:
// memory": blanks around each part, the words in any letter case.
func isNodeTypeMemory(l string) bool {
	const key = "node_type:"
	t := index.TrimSpace(l)
	return len(t) >= len(key) && strings.EqualFold(t[:len(key)], key) &&
		strings.EqualFold(index.TrimSpace(t[len(key):]), "memory")
}

// admittedValue is the value of a frontmatter line "admitted: <one
// token>" (the key in this case, blanks around each part), as written.
func admittedValue(l string) (string, bool) {
	v, ok := strings.CutPrefix(index.TrimSpace(l), "admitted:")
	if !ok {
		return "", false
	}
	v = index.TrimSpace(v)
	if v == "" || strings.IndexFunc(v, index.IsSpace) >= 0 {
		return "", false
	}
	return v, true
}

// EntryName is the entry name of a file path: its file name without its
// extension ("notes/x.md" → "x").
func EntryName(path string) string {
	base := index.FileName(filepath.ToSlash(path))
	if i := strings.LastIndexByte(base, '.'); i >= 0 {
		return base[:i]
	}
	return base
}

// EntryIdentity returns the life key of the entry body at path:
// "<file name without extension>@<admitted>", "@unknown" when the body is
// missing or records no admitted date.
func EntryIdentity(path string) (string, error) {
	facts, err := ReadEntryFacts(path)
	return EntryName(path) + "@" + facts.Admitted, err
}

// ArchiveNames reads ARCHIVE.md's subject names: the entry names linked on
// its pointer lines, in order (duplicates kept). A missing archive has
// none (present is false); an archive that exists but cannot be read is an
// error wrapping ErrUnreadable. Compare names against it case-insensitively:
// the archive carries no life key, so it only corroborates a demotion whose
// ledger record accounts for it.
func ArchiveNames(path string) (names []string, present bool, err error) {
	f, err := textfile.Read(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, textfile.ErrNotRegular) {
			return nil, false, nil
		}
		return nil, false, errors.Join(ErrUnreadable, err)
	}
	return SubjectNames(textfile.Lines(f.Text)), true, nil
}

// Subject is one linked subject on an index's pointer line.
type Subject struct {
	Name   string // the file name its link names (Dest), without extension
	Target string // the link target as written (angle brackets stripped, cut at '#')
	Dest   string // the file path the link names (index.Destination: escapes decoded)
	Line   int    // 1-based line of the pointer line
}

// LinkName is the entry name a link names: the file name of its
// destination (escapes and percent-escapes decoded, so
// "project%20notes.md" names "project notes"), without extension.
func LinkName(k index.Link) string { return EntryName(k.Dest) }

// Subjects returns every subject linked on the pointer lines of an index
// (or archive), in line order and, on a line, in link order.
func Subjects(lines []string) []Subject { return SubjectsOf(index.Parse(lines)) }

// SubjectsOf is Subjects for an index already parsed.
func SubjectsOf(ix *index.Index) []Subject {
	n := 0
	for i := range ix.Lines {
		if ix.Lines[i].Pointer {
			for _, k := range ix.Lines[i].Links {
				if k.Subject {
					n++
				}
			}
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]Subject, 0, n)
	for i := range ix.Lines {
		ln := &ix.Lines[i]
		if !ln.Pointer {
			continue
		}
		for _, k := range ln.Links {
			if k.Subject {
				out = append(out, Subject{Name: LinkName(k), Target: k.Target, Dest: k.Dest, Line: ln.Num})
			}
		}
	}
	return out
}

// SubjectNames returns the names of Subjects(lines).
func SubjectNames(lines []string) []string {
	subs := Subjects(lines)
	names := make([]string, len(subs))
	for i, s := range subs {
		names[i] = s.Name
	}
	return names
}
