// Package ccentry reads memory entry files as Claude Code writes them:
// a YAML frontmatter block with name, description and metadata (type:
// user, feedback, project or reference; pinned: true for the few entries
// it keeps in view), then the fact, which may link other entries by name
// as [[name]]. Entries may sit in the store or in its team/ folder, all
// indexed from the one MEMORY.md.
//
// Claude Code's recall picks entries by name and description, so an empty
// description hides an entry from recall; it pins at most MaxPinned.
package ccentry

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/memcompact/memcompact/internal/filecache"
	"github.com/memcompact/memcompact/internal/lazyre"
	"github.com/memcompact/memcompact/internal/textfile"
)

// MaxPinned is how many pinned entries Claude Code keeps in view.
const MaxPinned = 4

// Entry is one entry file's frontmatter and links.
type Entry struct {
	Path        string   `json:"path"` // relative to the store, slash-separated
	Frontmatter bool     `json:"frontmatter"`
	Name        string   `json:"name,omitempty"`
	Description string   `json:"description,omitempty"`
	Type        string   `json:"type,omitempty"`
	Pinned      bool     `json:"pinned,omitempty"`
	Links       []string `json:"links,omitempty"` // [[name]] targets, in order
}

type frontmatter struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Metadata    struct {
		Type   string `yaml:"type"`
		Pinned bool   `yaml:"pinned"`
	} `yaml:"metadata"`
}

var (
	fmRE   = lazyre.New(`(?s)\A---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\z)`)
	linkRE = lazyre.New(`\[\[([^\[\]\n|#]+)(?:[|#][^\[\]\n]*)?\]\]`)
)

// Parse reads one entry's text.
func Parse(rel, text string) Entry {
	e := Entry{Path: rel}
	body := text
	if m := fmRE().FindStringSubmatchIndex(text); m != nil {
		var fm frontmatter
		if yaml.Unmarshal([]byte(text[m[2]:m[3]]), &fm) == nil {
			e.Frontmatter = true
			e.Name, e.Description = strings.TrimSpace(fm.Name), strings.TrimSpace(fm.Description)
			e.Type, e.Pinned = fm.Metadata.Type, fm.Metadata.Pinned
		}
		body = text[m[1]:]
	}
	for _, l := range linkRE().FindAllStringSubmatch(body, -1) {
		e.Links = append(e.Links, strings.TrimSpace(l[1]))
	}
	return e
}

// Read reads every entry file of the store dir and of its team/ folder
// (every .md but MEMORY.md), in path order. Unreadable files are skipped.
func Read(dir string) []Entry { return read(dir, nil, nil, nil) }

// cacheVersion changes whenever Parse would read the same text otherwise.
const cacheVersion = "1"

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
	c := filecache.Open("ccentry "+abs, cacheVersion+" "+filecache.BuildStamp())
	out := read(abs, c, stats, reads)
	c.Save()
	return out
}

func read(dir string, c *filecache.Cache, stats *filecache.Stats, reads *textfile.Reads) []Entry {
	var out []Entry
	for _, sub := range []string{"", "team"} {
		files, _ := os.ReadDir(filepath.Join(dir, sub))
		for _, f := range files {
			if f.IsDir() || !strings.EqualFold(filepath.Ext(f.Name()), ".md") || (sub == "" && f.Name() == "MEMORY.md") {
				continue
			}
			if e, ok := readOne(dir, filepath.Join(sub, f.Name()), c, stats, reads); ok {
				out = append(out, e)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// readOne reads the entry at rel in dir, through c when it is not nil.
func readOne(dir, rel string, c *filecache.Cache, stats *filecache.Stats, reads *textfile.Reads) (Entry, bool) {
	path := filepath.Join(dir, rel)
	slash := filepath.ToSlash(rel)
	var fi os.FileInfo
	if c != nil {
		var err error
		if fi, err = stats.Stat(path); err != nil {
			return Entry{}, false
		}
		if e, ok := recall(c.Stat(path, fi)); ok && e.Path == slash {
			return e, true
		}
	}
	tf, err := reads.Read(path)
	if err != nil {
		return Entry{}, false
	}
	if c != nil {
		if e, ok := recall(c.Digest(path, fi, tf.Digest)); ok && e.Path == slash {
			return e, true
		}
	}
	e := parse(slash, tf.Text)
	if c != nil {
		if data, err := json.Marshal(e); err == nil {
			c.Put(path, fi, tf.Digest, data)
		}
	}
	return e, true
}

// parse is Parse; tests count its calls.
var parse = Parse

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
