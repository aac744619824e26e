// Package store finds a Claude Code memory store on disk: the directory of
// entry files and the MEMORY.md index Claude Code loads at session start.
//
// Claude Code keeps one store per project, and decides where it is by the
// first of these rules that applies (see Locate; every rule is checked
// against the real client by the differential test):
//
//  1. $CLAUDE_COWORK_MEMORY_PATH_OVERRIDE, when it is a valid directory
//     path (absolute, at least 3 characters, not a bare drive, not UNC-like,
//     no NUL; "~" is not expanded here).
//  2. The setting autoMemoryDirectory, from the first settings level that
//     has the key, in precedence order: managed (policy) settings, the
//     --settings flag, the project's .claude/settings.local.json, the
//     project's shared .claude/settings.json (both honoured in
//     non-interactive runs and trusted workspaces), the user's settings.json
//     in the config dir. An empty value at a level stops the search and
//     means the default store; only a leading "~/" is expanded; a relative
//     path, or one failing the checks of rule 1, is rejected and the
//     default store used.
//  3. The default: <base>/projects/<name>/memory/, where <base> is
//     $CLAUDE_CODE_REMOTE_MEMORY_DIR when set, else the config dir
//     ($CLAUDE_CONFIG_DIR exactly as given, even "" when set but empty,
//     which makes the store relative to the working directory; else
//     ~/.claude), and <name> is
//     the project's path with every UTF-16 code unit that is not an ASCII
//     letter or digit replaced by '-'; a name longer than 200 characters is
//     cut to 200 and given '-' and a 32-bit hash of the whole path in base
//  36. $CLAUDE_CODE_PROJECT_DIR_NAME replaces the name when
//     $CLAUDE_CONFIG_DIR is set and the value is a plain name.
//
// Store paths are in NFC form, as Claude Code names them. When
// $CLAUDE_COWORK_MEMORY_INDEX_CONTENT is set, its value is the index text
// and the store's MEMORY.md is not read (Location.IndexContent).
//
// The project is the root of the git repository enclosing the working
// directory; a linked worktree maps to its main repository only when the
// worktree's back-pointer checks out (so a copied worktree directory keeps
// its own store); outside a repository the project is the working
// directory itself.
//
// Git is never run: the package reads .git, gitdir:, commondir and the
// worktree's gitdir back-pointer itself, so discovery works without git
// installed and cannot hang on a repository lock.
package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"unicode/utf16"
)

// IndexName is the file name of a store's index.
const IndexName = "MEMORY.md"

// maxProjectName is the length past which Claude Code shortens a project
// directory name and appends a hash of the full path.
const maxProjectName = 200

// ConfigDir returns Claude Code's config dir: $CLAUDE_CONFIG_DIR exactly as
// given (no trimming, no "~" expansion: Claude Code uses the value as it
// is), else ~/.claude.
func ConfigDir(getenv func(string) string, home string) string {
	if d := getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return d
	}
	return filepath.Join(home, ".claude")
}

// ConfigDirWith is ConfigDir for a session started in cwd with o: with
// o.LookupEnv, a CLAUDE_CONFIG_DIR set but empty is the working directory
// (Claude Code joins "" with the rest, a relative path), in NFC form.
func ConfigDirWith(getenv func(string) string, home, cwd string, o Options) string {
	return o.configDir(getenv, home, cwd)
}

// ProjectRoot returns the project Claude Code files dir's memory under: the
// root of the main worktree of the git repository enclosing dir (when dir
// is in a linked worktree whose back-pointer checks out), else the root of
// the repository enclosing dir, or dir itself when no repository encloses
// it. dir should be absolute; symbolic links in it are resolved first, as
// the working directory of a process always is.
func ProjectRoot(dir string) string {
	root, _ := projectOf(dir)
	return root
}

// canonical makes p absolute and resolves symlinks where it can.
func canonical(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	return filepath.Clean(p)
}

// repoRoot reports whether d holds a .git entry and, if so, the project
// root Claude Code files the repository's memory under.
//
// A .git directory makes d the root. A .git file ("gitdir: PATH") maps d to
// its main repository only when every link of a linked worktree checks
// out: the git dir it names has a commondir file, sits in <common
// dir>/worktrees/, and has a gitdir file pointing back at d's own .git.
// Then the root is the common dir's parent (or, for a bare repository
// whose common dir is not called .git and has no .git of its own, the
// common dir itself). Anything else — a submodule, a separated git dir, a
// worktree directory copied elsewhere, unreadable files — leaves d as the
// root.
func repoRoot(d string) (string, bool) {
	gitPath := filepath.Join(d, ".git")
	fi, err := os.Stat(gitPath)
	if err != nil {
		return "", false
	}
	if fi.IsDir() {
		return d, true
	}
	if main, ok := mainWorktree(d); ok {
		return main, true
	}
	return d, true
}

// mainWorktree follows a linked worktree's .git file of d to the main
// repository, checking the back-pointer; ok is false when any link fails.
func mainWorktree(d string) (string, bool) {
	b, err := readSmall(filepath.Join(d, ".git"))
	if err != nil {
		return "", false
	}
	rest, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
	if !ok {
		return "", false
	}
	gitDir := resolve(d, strings.TrimSpace(rest))
	cb, err := readSmall(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return "", false
	}
	common := resolve(gitDir, strings.TrimSpace(string(cb)))
	if filepath.Dir(gitDir) != filepath.Join(common, "worktrees") {
		return "", false
	}
	back, err := readSmall(filepath.Join(gitDir, "gitdir"))
	if err != nil {
		return "", false
	}
	if canonical(resolve(gitDir, strings.TrimSpace(string(back)))) != filepath.Join(canonical(d), ".git") {
		return "", false
	}
	if filepath.Base(common) != ".git" {
		if _, err := os.Lstat(filepath.Join(common, ".git")); err == nil {
			return "", false
		}
		return common, true
	}
	return filepath.Dir(common), true
}

// resolve is path.resolve(base, p): p when absolute, else joined to base.
func resolve(base, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

// readSmall reads a git pointer file, refusing anything implausibly large.
func readSmall(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, 4096)
	n, err := f.Read(buf)
	if n == 0 && err != nil {
		return nil, err
	}
	return buf[:n], nil
}

// ProjectDirName is the name Claude Code gives a project's directory under
// <config dir>/projects: the path with every UTF-16 code unit that is not
// an ASCII letter or digit replaced by '-' (a character outside the Basic
// Multilingual Plane becomes two dashes, as in JavaScript). A name longer
// than 200 characters is cut to 200 and given '-' and a hash of the whole
// path, so two long paths sharing their first 200 characters get
// different stores.
func ProjectDirName(project string) string {
	name := sanitizedName(project)
	if len(name) <= maxProjectName {
		return name
	}
	return name[:maxProjectName] + "-" + base36Hash(stringHash(project))
}

// stringHash is the 32-bit string hash Claude Code uses (h = 31*h + unit
// over the UTF-16 code units, wrapping).
func stringHash(s string) int32 {
	var h int32
	for _, u := range utf16.Encode([]rune(s)) {
		h = h*31 + int32(u)
	}
	return h
}

// base36Hash is Math.abs(h).toString(36).
func base36Hash(h int32) string {
	v := int64(h)
	if v < 0 {
		v = -v
	}
	return strconv.FormatInt(v, 36)
}

// sanitizedName replaces every UTF-16 unit of p that is not an ASCII
// letter or digit with '-'.
func sanitizedName(project string) string {
	var b strings.Builder
	for _, r := range project {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			n := utf16.RuneLen(r)
			if n < 1 {
				n = 1
			}
			b.WriteString(strings.Repeat("-", n))
		}
	}
	return b.String()
}

// MemoryDir returns the store directory for the project enclosing cwd and
// the settings files it consulted (in the order read). It does not check
// that the directory exists. See Locate for the rule that chose it.
func MemoryDir(getenv func(string) string, home, cwd string) (dir string, consulted []string) {
	l := Locate(getenv, home, cwd, Options{})
	return l.Dir, l.Consulted
}

// managedSettings is where an administrator's managed settings live; a
// variable so tests can point it at a temporary file.
var managedSettings = func() []string {
	switch runtime.GOOS {
	case "darwin":
		return []string{"/Library/Application Support/ClaudeCode/managed-settings.json"}
	case "windows":
		return []string{`C:\Program Files\ClaudeCode\managed-settings.json`}
	default:
		return []string{"/etc/claude-code/managed-settings.json"}
	}
}

// FindIndex returns the path of the MEMORY.md Claude Code loads for a
// session started in cwd, and every place it looked (settings files read,
// then the index path). When there is no index file it returns a
// *NoIndexError carrying the same list and hints for the user.
func FindIndex(getenv func(string) string, home, cwd string) (indexPath string, looked []string, err error) {
	_, indexPath, looked, err = FindIndexWith(getenv, home, cwd, Options{})
	return indexPath, looked, err
}

// FindIndexWith is FindIndex for a session started with o, returning also
// the store's Location (which rule chose it).
func FindIndexWith(getenv func(string) string, home, cwd string, o Options) (loc Location, indexPath string, looked []string, err error) {
	loc = Locate(getenv, home, cwd, o)
	indexPath, looked, err = indexIn(loc, cwd)
	return loc, indexPath, looked, err
}

func indexIn(loc Location, cwd string) (indexPath string, looked []string, err error) {
	indexPath = filepath.Join(loc.Dir, IndexName)
	looked = append(append([]string(nil), loc.Consulted...), indexPath)
	fi, statErr := os.Stat(indexPath)
	switch {
	case statErr == nil && fi.Mode().IsRegular():
		return indexPath, looked, nil
	case statErr == nil:
		return indexPath, looked, &NoIndexError{Project: ProjectRoot(cwd), Index: indexPath, Looked: looked, NotFile: true}
	case errors.Is(statErr, fs.ErrNotExist):
		return indexPath, looked, &NoIndexError{Project: ProjectRoot(cwd), Index: indexPath, Looked: looked}
	default:
		return indexPath, looked, &NoIndexError{Project: ProjectRoot(cwd), Index: indexPath, Looked: looked, Cause: statErr}
	}
}

// NoIndexError says that no memory index was found for a project, where
// discovery looked, and how to point memcompact at one.
type NoIndexError struct {
	Project string   // the project root discovery settled on
	Index   string   // the index path it expected
	Looked  []string // every path consulted, in order
	NotFile bool     // something other than a regular file sits at Index
	Cause   error    // an I/O error other than "does not exist", if any
}

func (e *NoIndexError) Error() string {
	switch {
	case e.NotFile:
		return fmt.Sprintf("no Claude Code memory index for %s: %s is not a regular file", e.Project, e.Index)
	case e.Cause != nil:
		return fmt.Sprintf("no Claude Code memory index for %s: %v", e.Project, e.Cause)
	}
	return fmt.Sprintf("no Claude Code memory index for %s: %s does not exist", e.Project, e.Index)
}

// Hints returns the lines a verb prints after the error: where discovery
// looked, and how to point memcompact at an index.
func (e *NoIndexError) Hints() []string { return e.HintsFor("VERB") }

// HintsFor is Hints with the example command spelled for verb, so that the
// user can copy it as it stands.
func (e *NoIndexError) HintsFor(verb string) []string {
	// Other verbs' tests match the "looked at: " prefix; keep it.
	h := []string{"looked at: " + strings.Join(e.Looked, ", ")}
	return append(h,
		"give the index as an argument, e.g. 'memcompact "+verb+" path/to/MEMORY.md'",
		"or run from inside the project whose memory you mean: Claude Code keeps it in <config dir>/projects/<project path with each non-alphanumeric as '-'>/memory/",
		"the config dir is $CLAUDE_CONFIG_DIR, else ~/.claude; autoMemoryDirectory (an absolute or ~/ path) in managed, --settings, the project's .claude/settings.local.json or .claude/settings.json, or the user's settings.json moves the store, as does $CLAUDE_COWORK_MEMORY_PATH_OVERRIDE",
	)
}

// StoreOf reports whether path lies inside a Claude Code memory store laid
// out the default way (<anything>/projects/<name>/memory/...), and returns
// that store's directory. It looks only at the path's shape, so it works
// for files that do not exist yet (a write about to create an entry).
// Stores moved by autoMemoryDirectory are found by StoreOfIn.
func StoreOf(path string) (storeDir string, ok bool) {
	p := filepath.Clean(path)
	if !filepath.IsAbs(p) {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
	}
	for d := filepath.Dir(p); ; {
		if filepath.Base(d) == "memory" {
			project := filepath.Dir(d)
			if filepath.Base(filepath.Dir(project)) == "projects" && filepath.Base(project) != "projects" {
				return d, true
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false
		}
		d = parent
	}
}

// within reports whether p is dir or inside it.
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// StoreOfIn is StoreOf, and also recognizes the store of the project
// enclosing cwd when autoMemoryDirectory moved it elsewhere.
func StoreOfIn(path string, getenv func(string) string, home, cwd string) (storeDir string, ok bool) {
	return StoreOfInWith(path, getenv, home, cwd, Options{})
}

// StoreOfInWith is StoreOfIn for a session started with o (o.LookupEnv
// tells an empty CLAUDE_CONFIG_DIR from an unset one, as Claude Code does).
//
// A file in the folder of a team store that CLAUDE_MEMORY_STORES mounts
// belongs to that store: its folder as the session's prompt names it for
// writing (WriteDir) when the file is inside that, else the mount's folder;
// so the store's own MEMORY.md is judged as an index, not as an entry of
// the project's store.
func StoreOfInWith(path string, getenv func(string) string, home, cwd string, o Options) (storeDir string, ok bool) {
	p := filepath.Clean(path)
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	var loc *Location
	if getenv != nil && strings.TrimSpace(getenv(MemoryStoresVar)) != "" {
		l := Locate(getenv, home, cwd, o)
		loc = &l
		if m, ok := MountOf(l.MemoryStores, p); ok {
			if m.WriteDir != "" && within(m.WriteDir, p) {
				return m.WriteDir, true
			}
			return m.Dir, true
		}
	}
	if d, ok := StoreOf(path); ok {
		return d, true
	}
	if loc == nil {
		l := Locate(getenv, home, cwd, o)
		loc = &l
	}
	dir := loc.Dir
	for _, cand := range []string{dir, canonical(dir)} {
		if rel, err := filepath.Rel(cand, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && rel != "." {
			return cand, true
		}
	}
	return "", false
}
