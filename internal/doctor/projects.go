package doctor

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/memcompact/memcompact/internal/store"
)

// ProjectStores is one project as doctor --all groups the stores: the
// store Claude Code loads for it and the other stores of the project that
// hold entries it never loads (split stores).
type ProjectStores struct {
	Project string `json:"project"` // the project's path
	Loads   string `json:"loads"`   // the store Claude Code loads for it
	Rule    string `json:"rule"`    // which rule chose that store
	Entries int    `json:"entries"` // entry files in the loaded store
	// Split lists the other stores of the project holding entries.
	Split []store.Related `json:"split"`
}

// transcriptLines bounds how much of one session transcript is read to
// find the directory the session ran in.
const (
	transcriptLines = 32
	transcriptFiles = 50
)

// ProjectsOf groups the stores of every project Claude Code has run in,
// as its session transcripts (<config dir>/projects/<name>/*.jsonl, whose
// records carry the session's working directory) name them, sorted by
// project. A directory that no longer exists is skipped: what Claude Code
// would load there cannot be known.
func ProjectsOf(projects string, getenv func(string) string, home string, o store.Options) []ProjectStores {
	byStore := map[string]*ProjectStores{}
	seenSplit := map[string]map[string]bool{}
	for _, cwd := range sessionDirs(projects) {
		loc, related := store.RelatedStores(getenv, home, cwd, o)
		p := byStore[loc.Dir]
		if p == nil {
			p = &ProjectStores{Project: loc.Project, Loads: loc.Dir, Rule: loc.Describe(), Split: []store.Related{}}
			byStore[loc.Dir], seenSplit[loc.Dir] = p, map[string]bool{}
		}
		for _, r := range related {
			switch {
			case r.Loaded:
				p.Entries = r.Entries
			case r.Entries > 0 && !seenSplit[loc.Dir][r.Dir]:
				seenSplit[loc.Dir][r.Dir] = true
				p.Split = append(p.Split, r)
			}
		}
	}
	out := make([]ProjectStores, 0, len(byStore))
	for _, p := range byStore {
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Project < out[j].Project || out[i].Project == out[j].Project && out[i].Loads < out[j].Loads
	})
	return out
}

// sessionDirs lists the distinct existing working directories named by
// the session transcripts under projects, sorted.
func sessionDirs(projects string) []string {
	dirs, err := os.ReadDir(projects)
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(projects, d.Name(), "*.jsonl"))
		if len(files) > transcriptFiles {
			files = files[:transcriptFiles]
		}
		for _, f := range files {
			if cwd := transcriptCwd(f); cwd != "" && !seen[cwd] {
				if fi, err := os.Stat(cwd); err == nil && fi.IsDir() {
					seen[cwd] = true
				}
			}
		}
	}
	out := make([]string, 0, len(seen))
	for d := range seen {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}

// transcriptCwd returns the working directory the first records of a
// session transcript name, or "".
func transcriptCwd(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 0; n < transcriptLines && sc.Scan(); n++ {
		line := sc.Bytes()
		if !strings.Contains(string(line), `"cwd"`) {
			continue
		}
		var rec struct {
			Cwd string `json:"cwd"`
		}
		if json.Unmarshal(line, &rec) == nil && filepath.IsAbs(rec.Cwd) {
			return rec.Cwd
		}
	}
	return ""
}
