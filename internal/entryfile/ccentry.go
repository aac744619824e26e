// Package entryfile reads memory entry files as Claude Code writes them:
// a YAML frontmatter block with name, description and metadata (type:
// user, feedback, project or reference; pinned: true for the few entries
// it keeps in view), then the fact, which may link other entries by name
// as [[name]]. Entries may sit in the store or in its team/ folder, all
// indexed from the one MEMORY.md.
//
// Claude Code's recall picks entries by name and description, so an empty
// description hides an entry from recall; it pins at most MaxPinned.
package entryfile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/memcompact/memcompact/internal/filecache"
	"github.com/memcompact/memcompact/internal/lazyre"
	"github.com/memcompact/memcompact/internal/textfile"
)

// MaxPinned is how many pinned entries Claude Code keeps in view.
const MaxPinned = 4

// Entry is one entry file's frontmatter and links.
type Entry struct {
	Path        string `json:"path"` // relative to the store, slash-separated
	Frontmatter bool   `json:"frontmatter"`
	// Unreadable says why Claude Code cannot read the entry's frontmatter
	// block as YAML, even the second time; "" when it can or there is none.
	Unreadable  string   `json:"unreadable,omitempty"`
	Name        string   `json:"name,omitempty"`
	Description string   `json:"description,omitempty"`
	Type        string   `json:"type,omitempty"`
	Pinned      bool     `json:"pinned,omitempty"`
	Links       []string `json:"links,omitempty"` // [[name]] targets, in order
}

var (
	fmRE   = lazyre.New(`(?s)\A---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\z)`)
	linkRE = lazyre.New(`\[\[([^\[\]\n|#]+)(?:[|#][^\[\]\n]*)?\]\]`)
)

// Parse reads one entry's text. A frontmatter yaml.v3 refuses, even as
// Claude Code reads it a second time (claudeQuoted), leaves the entry
// without frontmatter fields (Frontmatter false).
func Parse(rel, text string) Entry {
	e, block, ok := split(rel, text)
	if ok {
		e.apply(decodeAll([]string{block})[0])
	}
	return e
}

// splitEntry reads an entry's text but for its frontmatter: its path and
// links, and the frontmatter block, if it has one (ok).
func splitEntry(rel, text string) (e Entry, block string, ok bool) {
	e = Entry{Path: rel}
	body := text
	m := fmRE().FindStringSubmatchIndex(text)
	if m != nil {
		block, body = text[m[2]:m[3]], text[m[1]:]
	}
	for _, l := range linkRE().FindAllStringSubmatch(body, -1) {
		e.Links = append(e.Links, strings.TrimSpace(l[1]))
	}
	return e, block, m != nil
}

// split is splitEntry; tests count its calls.
var split = splitEntry

// apply sets e's frontmatter fields from f; a block Claude Code cannot
// read at all is named in Unreadable.
func (e *Entry) apply(f Fields) {
	if !f.Valid {
		e.Unreadable = f.Unreadable
		return
	}
	e.Frontmatter = true
	e.Name, e.Description = strings.TrimSpace(f.Name), strings.TrimSpace(f.Description)
	e.Type, e.Pinned = f.Type, f.Pinned
}

// Read reads every entry file of the store dir and of its team/ folder
// (every .md but MEMORY.md), in path order. Unreadable files are skipped.
func Read(dir string) []Entry { return read(dir, nil, nil, nil) }

// cacheVersion changes whenever Parse would read the same text otherwise.
const cacheVersion = "2"

// ReadCached is Read for the hooks and doctor, which read every entry on
// every session start: each file's Entry is remembered (package
// filecache) and reused while the file's stamp is unchanged, or its
// content digest when only its stamp moved; a changed file is read and
// parsed again. The cache holds what Read returns: names, descriptions,
// types and link names of entries.
func ReadCached(dir string) []Entry { return ReadCachedWith(dir, nil, nil) }

// ReadCachedWith is ReadCached with the run's stat and read of each file
// (nil: stat and read here), which the caller shares with the other parts
// of its run.
func ReadCachedWith(dir string, stats *filecache.Stats, reads *textfile.Reads) []Entry {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Read(dir)
	}
	c := filecache.Open("entryfile "+abs, cacheVersion+" "+filecache.BuildStamp())
	out := read(abs, c, stats, reads)
	c.Save()
	return out
}

// read reads the entry files of dir, through c when it is not nil: an
// unchanged file's Entry comes from the cache; the others are read and
// their frontmatters decoded (decode).
func read(dir string, c *filecache.Cache, stats *filecache.Stats, reads *textfile.Reads) []Entry {
	var (
		out   []Entry
		fresh []pending
	)
	for _, sub := range []string{"", "team"} {
		files, _ := os.ReadDir(filepath.Join(dir, sub))
		for _, f := range files {
			if f.IsDir() || !strings.EqualFold(filepath.Ext(f.Name()), ".md") || (sub == "" && f.Name() == "MEMORY.md") {
				continue
			}
			e, p, ok := readOne(dir, filepath.Join(sub, f.Name()), c, stats, reads)
			if !ok {
				continue
			}
			if p != nil {
				p.at = len(out)
				fresh = append(fresh, *p)
			}
			out = append(out, e)
		}
	}
	decode(out, fresh)
	remember(c, out, fresh)
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// pending is an entry file read this run, its frontmatter not yet decoded.
type pending struct {
	at       int    // its Entry's index among read's
	block    string // its frontmatter
	hasBlock bool
	path     string // its path, fi and digest: the cache's record of it
	fi       os.FileInfo
	digest   string
}

// readOne reads the entry at rel in dir, through c when it is not nil.
// An Entry the cache remembered comes whole (p nil); one read from its
// file comes without its frontmatter fields, which p holds, to decode.
func readOne(dir, rel string, c *filecache.Cache, stats *filecache.Stats, reads *textfile.Reads) (e Entry, p *pending, ok bool) {
	path := filepath.Join(dir, rel)
	slash := filepath.ToSlash(rel)
	var fi os.FileInfo
	if c != nil {
		var err error
		if fi, err = stats.Stat(path); err != nil {
			return Entry{}, nil, false
		}
		if e, ok := recall(c.Stat(path, fi)); ok && e.Path == slash {
			return e, nil, true
		}
	}
	tf, err := reads.Read(path)
	if err != nil {
		return Entry{}, nil, false
	}
	if c != nil {
		if e, ok := recall(c.Digest(path, fi, tf.Digest)); ok && e.Path == slash {
			return e, nil, true
		}
	}
	e, block, has := split(slash, tf.Text)
	return e, &pending{block: block, hasBlock: has, path: path, fi: fi, digest: tf.Digest}, true
}

// decode sets the frontmatter fields of the entries read this run.
func decode(out []Entry, fresh []pending) {
	var blocks []string
	var with []int
	for i, p := range fresh {
		if p.hasBlock {
			blocks, with = append(blocks, p.block), append(with, i)
		}
	}
	fields := decodeAll(blocks)
	for j, i := range with {
		out[fresh[i].at].apply(fields[j])
	}
}

// remember records in c the entries read this run.
func remember(c *filecache.Cache, out []Entry, fresh []pending) {
	if c == nil {
		return
	}
	for _, p := range fresh {
		if data, err := json.Marshal(out[p.at]); err == nil {
			c.Put(p.path, p.fi, p.digest, data)
		}
	}
}

func recall(data []byte, ok bool) (Entry, bool) {
	var e Entry
	if !ok || json.Unmarshal(data, &e) != nil {
		return Entry{}, false
	}
	return e, true
}

// Dangling returns the [[name]] links that name no entry (by name, or by
// file name without .md), as "path: [[name]]".
func Dangling(entries []Entry) []string {
	known := map[string]bool{}
	for _, e := range entries {
		if e.Name != "" {
			known[strings.ToLower(e.Name)] = true
		}
		known[strings.ToLower(strings.TrimSuffix(filepath.Base(e.Path), filepath.Ext(e.Path)))] = true
	}
	var out []string
	for _, e := range entries {
		for _, l := range e.Links {
			if !known[strings.ToLower(l)] {
				out = append(out, e.Path+": [["+l+"]]")
			}
		}
	}
	return out
}
