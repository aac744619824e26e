package store

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// The rules that can choose a store (Location.Rule).
const (
	RuleCoworkOverride = "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE"
	RuleSetting        = "autoMemoryDirectory"
	RuleDefault        = "default"
)

// The settings levels autoMemoryDirectory is read from, highest precedence
// first (Claude Code's names for them).
const (
	LevelPolicy  = "policySettings"
	LevelFlag    = "flagSettings"
	LevelLocal   = "localSettings"
	LevelProject = "projectSettings"
	LevelUser    = "userSettings"
)

// Location is where Claude Code keeps the store of a project, and why.
type Location struct {
	Dir  string `json:"dir"`  // the store directory
	Rule string `json:"rule"` // RuleCoworkOverride, RuleSetting or RuleDefault
	// Level and File name the settings level and file that set
	// autoMemoryDirectory (RuleSetting only).
	Level string `json:"level,omitempty"`
	File  string `json:"file,omitempty"`
	// Project is the path the default store is named after: the main
	// repository's root, the repository's root, or the working directory.
	Project string `json:"project"`
	// ProjectFrom says which: "worktree" (a linked worktree mapped to its
	// main repository), "git" or "cwd".
	ProjectFrom string `json:"project_from"`
	// Default is the store the default rule gives, whatever rule won.
	Default string `json:"default"`
	// Rejected lists values Claude Code ignores, each with why, in the
	// order met (a relative autoMemoryDirectory, an invalid override).
	Rejected []string `json:"rejected,omitempty"`
	// Consulted lists the settings files read, in order.
	Consulted []string `json:"-"`
	// IndexFrom is IndexContentVar when the session's index text comes
	// from that variable instead of the store's MEMORY.md (which Claude
	// Code then does not read); IndexContent is the text, "" meaning that
	// no index loads at all.
	IndexFrom    string  `json:"index_from,omitempty"`
	IndexContent *string `json:"-"`
	// MemoryOff says why a session here loads no memory at all (see
	// MemoryOff); "" when memory is on.
	MemoryOff string `json:"memory_off,omitempty"`
	// MemoryStores are the stores CLAUDE_MEMORY_STORES names, as the
	// client parses them, placed where it mounts them (see Mounts);
	// MemoryStoresError is why it rejects the value and mounts none.
	MemoryStores      []Mount `json:"memory_stores,omitempty"`
	MemoryStoresError string  `json:"memory_stores_error,omitempty"`
	// IndexSkipped says why a session here loads no MEMORY.md although
	// memory is on: CLAUDE_MEMORY_STORES is set (parsed or not). "" when
	// the index loads.
	IndexSkipped string `json:"index_skipped,omitempty"`
}

// StoresNote says in one line what the memory stores a session mounts
// give it: "memory stores mounted: ..." naming each, or why none are.
func (l *Location) StoresNote() string {
	if l.IndexSkipped == "" {
		return ""
	}
	if l.MemoryStoresError != "" {
		return "no memory store mounted: Claude Code rejects $" + MemoryStoresVar + " (" + l.MemoryStoresError + "), yet loads no MEMORY.md while it is set"
	}
	var parts []string
	for _, m := range l.MemoryStores {
		parts = append(parts, fmt.Sprintf("%s (%s, %s, %s): %s", m.Mount, m.Scope, m.Mode, m.Dir, m.Gives))
	}
	return "memory stores mounted: " + strings.Join(parts, "; ")
}

// IndexContentVar is the environment variable whose value, when set,
// Claude Code loads as the index text instead of the store's MEMORY.md.
const IndexContentVar = "CLAUDE_COWORK_MEMORY_INDEX_CONTENT"

// Describe says in one line which rule chose the store.
func (l *Location) Describe() string {
	switch l.Rule {
	case RuleCoworkOverride:
		return "chosen by $CLAUDE_COWORK_MEMORY_PATH_OVERRIDE"
	case RuleSetting:
		return "chosen by autoMemoryDirectory in " + l.File + " (" + l.Level + ")"
	}
	from := map[string]string{"worktree": "the main repository of this worktree", "git": "the git repository's root", "cwd": "the working directory"}[l.ProjectFrom]
	return "the default store, named after " + l.Project + " (" + from + ")"
}

// Options carries what a Claude Code session is started with beyond its
// environment and working directory.
type Options struct {
	// FlagSettings is the value of claude's --settings flag: a file path
	// or a JSON object.
	FlagSettings string
	// LookupEnv, when set, reads the environment as os.LookupEnv does, so
	// that a variable set to "" is told from one not set, as Claude Code
	// tells them (CLAUDE_CONFIG_DIR="" and an empty
	// CLAUDE_COWORK_MEMORY_INDEX_CONTENT mean something). Without it an
	// empty value counts as unset.
	LookupEnv func(string) (string, bool)
}

// LookupEnvOr reads variable k with o.LookupEnv, or with getenv (where
// "" counts as unset) when o has none, reporting whether it is set.
func (o Options) LookupEnvOr(getenv func(string) string, k string) (string, bool) {
	return o.lookup(getenv, k)
}

// lookup reads variable k, reporting whether it is set.
func (o Options) lookup(getenv func(string) string, k string) (string, bool) {
	if o.LookupEnv != nil {
		return o.LookupEnv(k)
	}
	v := getenv(k)
	return v, v != ""
}

// configDir is Claude Code's config dir for a session started in cwd:
// $CLAUDE_CONFIG_DIR exactly as given; when it is set but empty, paths
// under it are relative, so they land in the working directory; else
// ~/.claude. Claude Code uses the NFC form.
func (o Options) configDir(getenv func(string) string, home, cwd string) string {
	d, set := o.lookup(getenv, "CLAUDE_CONFIG_DIR")
	switch {
	case set && d == "":
		d = cwd
	case !set:
		d = filepath.Join(home, ".claude")
	}
	return norm.NFC.String(d)
}

// Locate returns the store Claude Code uses for a session started in cwd,
// and whether the index text comes from the environment instead.
func Locate(getenv func(string) string, home, cwd string, o Options) Location {
	l := locate(getenv, home, cwd, o)
	// Claude Code names the store by the NFC form of its path.
	l.Dir, l.Default = norm.NFC.String(l.Dir), norm.NFC.String(l.Default)
	if v, set := o.lookup(getenv, IndexContentVar); set {
		l.IndexFrom, l.IndexContent = IndexContentVar, &v
	}
	l.MemoryOff = MemoryOff(getenv, home, cwd, o)
	if v := getenv(MemoryStoresVar); strings.TrimSpace(v) != "" && l.MemoryOff == "" {
		stores, err := MemoryStores(getenv)
		if err != nil {
			l.MemoryStoresError = err.Error()
		}
		l.MemoryStores = Mounts(stores, l.Dir)
		l.IndexSkipped = "$" + MemoryStoresVar + " is set: Claude Code loads no MEMORY.md from disk in this project's sessions"
	}
	return l
}

func locate(getenv func(string) string, home, cwd string, o Options) Location {
	project, from := projectOf(cwd)
	l := Location{Project: project, ProjectFrom: from}
	l.Default = defaultStore(getenv, home, cwd, project, o)
	if v := getenv("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE"); v != "" {
		if d, why := memoryDirValue(v, false, home); why == "" {
			l.Dir, l.Rule = d, RuleCoworkOverride
			return l
		} else {
			l.Rejected = append(l.Rejected, "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE="+v+": "+why)
		}
	}
	for _, lv := range settingsLevels(getenv, home, cwd, project, o) {
		l.Consulted = append(l.Consulted, lv.file)
		v, set := autoMemoryDirectory(lv)
		if !set {
			continue
		}
		d, why := memoryDirValue(v, true, home)
		if why == "" {
			l.Dir, l.Rule, l.Level, l.File = d, RuleSetting, lv.level, lv.file
			return l
		}
		l.Rejected = append(l.Rejected, "autoMemoryDirectory "+jsonString(v)+" in "+lv.file+": "+why)
		break // the first level with the key decides, even when it is rejected
	}
	l.Dir, l.Rule = l.Default, RuleDefault
	return l
}

// projectOf returns the project root for cwd and where it came from.
func projectOf(cwd string) (string, string) {
	dir := canonical(cwd)
	for d := dir; ; {
		if root, ok := repoRoot(d); ok {
			if root != d {
				return root, "worktree"
			}
			return root, "git"
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir, "cwd"
		}
		d = parent
	}
}

// defaultStore is rule 3: <base>/projects/<name>/memory.
func defaultStore(getenv func(string) string, home, cwd, project string, o Options) string {
	config := o.configDir(getenv, home, cwd)
	base := config
	if r := getenv("CLAUDE_CODE_REMOTE_MEMORY_DIR"); r != "" {
		base = r
	}
	name := ProjectDirName(project)
	if base == config && getenv("CLAUDE_CONFIG_DIR") != "" {
		if n := getenv("CLAUDE_CODE_PROJECT_DIR_NAME"); plainName(n) && !reservedName(n) {
			name = n
		}
	}
	return filepath.Join(base, "projects", name, "memory")
}

// plainName reports whether n is a project folder name Claude Code takes
// as given: 1 to 64 ASCII letters, digits, "_" or "-". (As a pattern with
// a counted repeat, this check was the costliest compile of a session
// start.)
func plainName(n string) bool {
	if len(n) == 0 || len(n) > 64 {
		return false
	}
	for i := 0; i < len(n); i++ {
		if c := n[i]; !isASCIILetter(c) && !(c >= '0' && c <= '9') && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

// reservedName reports whether n is a Windows device name (CON, PRN, AUX,
// NUL, COM0-9, LPT0-9), in any letter case.
func reservedName(n string) bool {
	switch {
	case len(n) == 3:
		for _, d := range []string{"con", "prn", "aux", "nul"} {
			if strings.EqualFold(n, d) {
				return true
			}
		}
	case len(n) == 4 && n[3] >= '0' && n[3] <= '9':
		return strings.EqualFold(n[:3], "com") || strings.EqualFold(n[:3], "lpt")
	}
	return false
}

// bareDrive reports whether g is a drive letter alone ("C:").
func bareDrive(g string) bool { return len(g) == 2 && isASCIILetter(g[0]) && g[1] == ':' }

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// memoryDirValue checks a store path as Claude Code does, returning the
// cleaned path, or why it is rejected. With expand, a leading "~/" is the
// home directory (and may not climb out of it); nothing else is expanded.
func memoryDirValue(v string, expand bool, home string) (dir, why string) {
	if v == "" {
		return "", "empty"
	}
	if expand && (strings.HasPrefix(v, "~/") || strings.HasPrefix(v, `~\`)) {
		rest := v[2:]
		c := filepath.Clean(rest)
		if rest == "" || c == "." || c == ".." || strings.HasPrefix(c, "../") || strings.HasPrefix(c, `..\`) {
			return "", "it does not name a directory inside the home directory"
		}
		v = filepath.Join(home, rest)
	}
	g := strings.TrimRight(filepath.Clean(v), `/\`)
	switch {
	case !filepath.IsAbs(g):
		return "", "not an absolute path (Claude Code rejects relative paths and uses the default store)"
	case len(g) < 3 || bareDrive(g):
		return "", "too short to be a store"
	case strings.HasPrefix(v, "//") || strings.HasPrefix(v, `\\`):
		return "", "a network (UNC-like) path"
	case strings.ContainsRune(g, 0):
		return "", "contains NUL"
	}
	return g, ""
}

// level is one settings level: its name and file (or inline JSON).
type level struct {
	level, file string
	inline      []byte
}

// settingsLevels lists the places autoMemoryDirectory is read from,
// highest precedence first.
func settingsLevels(getenv func(string) string, home, cwd, project string, o Options) []level {
	var out []level
	for _, f := range managedSettings() {
		out = append(out, level{level: LevelPolicy, file: f})
	}
	if fs := strings.TrimSpace(o.FlagSettings); fs != "" {
		if strings.HasPrefix(fs, "{") {
			out = append(out, level{level: LevelFlag, file: "--settings", inline: []byte(fs)})
		} else {
			out = append(out, level{level: LevelFlag, file: resolve(cwd, fs)})
		}
	}
	out = append(out,
		level{level: LevelLocal, file: filepath.Join(project, ".claude", "settings.local.json")},
		level{level: LevelProject, file: filepath.Join(canonical(cwd), ".claude", "settings.json")},
		level{level: LevelUser, file: filepath.Join(o.configDir(getenv, home, cwd), "settings.json")},
	)
	return out
}

// autoMemoryDirectory reads the setting from one level. A missing,
// unreadable or invalid file sets nothing: Claude Code skips such a file.
// A key present with a string value is set, even when empty (an empty
// value stops the search); null or a non-string is not.
func autoMemoryDirectory(lv level) (string, bool) {
	b := lv.inline
	if b == nil {
		var err error
		if b, err = os.ReadFile(lv.file); err != nil {
			return "", false
		}
	}
	var s struct {
		AutoMemoryDirectory *string `json:"autoMemoryDirectory"`
	}
	if json.Unmarshal(b, &s) != nil || s.AutoMemoryDirectory == nil {
		return "", false
	}
	return *s.AutoMemoryDirectory, true
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Related is one store directory that belongs to the project: the one
// Claude Code loads, or another it does not (a split store).
type Related struct {
	Dir     string `json:"dir"`
	Why     string `json:"why"`    // how it belongs to the project
	Loaded  bool   `json:"loaded"` // the store Claude Code loads
	Entries int    `json:"entries"`
	Index   bool   `json:"index"` // holds a MEMORY.md
}

// RelatedStores lists every existing store that belongs to the project of
// cwd — the one Claude Code loads (first), the default store, every
// autoMemoryDirectory any settings level names, and the default stores of
// the repository's other worktrees and of cwd's own repository root —
// with how many entry files each holds. A store other than the loaded one
// that holds entries is a split store: Claude Code never loads them.
func RelatedStores(getenv func(string) string, home, cwd string, o Options) (Location, []Related) {
	loc := Locate(getenv, home, cwd, o)
	var out []Related
	seen := map[string]bool{}
	add := func(dir, why string) {
		if dir == "" || seen[canonical(dir)] {
			return
		}
		seen[canonical(dir)] = true
		r := Related{Dir: dir, Why: why, Loaded: len(out) == 0}
		entries, err := os.ReadDir(dir)
		if err != nil && !r.Loaded {
			return
		}
		for _, e := range entries {
			switch {
			case e.Name() == IndexName:
				r.Index = true
			case !e.IsDir() && strings.EqualFold(filepath.Ext(e.Name()), ".md"):
				r.Entries++
			}
		}
		if r.Loaded || r.Entries > 0 || r.Index {
			out = append(out, r)
		}
	}
	add(loc.Dir, "the store Claude Code loads ("+loc.Describe()+")")
	add(loc.Default, "the default store of "+loc.Project)
	for _, lv := range settingsLevels(getenv, home, cwd, loc.Project, o) {
		if v, set := autoMemoryDirectory(lv); set {
			if d, why := memoryDirValue(v, true, home); why == "" {
				add(d, "autoMemoryDirectory in "+lv.file)
			}
		}
	}
	for _, wt := range worktreesOf(loc.Project) {
		add(defaultStore(getenv, home, cwd, wt, o), "the default store of worktree "+wt)
	}
	c := canonical(cwd)
	for d := c; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			add(defaultStore(getenv, home, cwd, d, o), "the default store of "+d)
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	add(defaultStore(getenv, home, cwd, c, o), "the default store of "+c)
	return loc, out
}

// worktreesOf lists the linked worktrees of the repository rooted at
// root, as its .git/worktrees/*/gitdir files name them.
func worktreesOf(root string) []string {
	dirs, err := os.ReadDir(filepath.Join(root, ".git", "worktrees"))
	if err != nil {
		return nil
	}
	var out []string
	for _, d := range dirs {
		b, err := readSmall(filepath.Join(root, ".git", "worktrees", d.Name(), "gitdir"))
		if err != nil {
			continue
		}
		out = append(out, filepath.Dir(resolve(filepath.Join(root, ".git", "worktrees", d.Name()), strings.TrimSpace(string(b)))))
	}
	return out
}
