// Package store finds a Claude Code memory store on disk: the directory of
// entry files and the MEMORY.md index Claude Code loads at session start.
//
// Claude Code keeps one store per project. The rules, as Claude Code
// documents and implements them:
//
//   - The config dir is $CLAUDE_CONFIG_DIR, or ~/.claude when it is unset.
//   - The project is the root of the git repository enclosing the working
//     directory, and every worktree of a repository shares its main
//     worktree's root; outside a repository the project is the working
//     directory itself.
//   - The store is <config dir>/projects/<project>/memory/, where <project>
//     is the project's absolute path with every UTF-16 code unit that is not
//     an ASCII letter or digit replaced by '-' (so /home/al/my.repo becomes
//     -home-al-my-repo). Claude Code shortens names longer than 200
//     characters and appends a hash; for those the store is the directory
//     under projects/ whose name begins with the first 200 characters.
//   - The setting autoMemoryDirectory replaces that directory. Claude Code
//     accepts it from the managed (policy) settings, from the project's
//     .claude/settings.local.json and from the user's settings.json, in that
//     order of precedence, and deliberately not from the project's shared
//     .claude/settings.json, so a cloned repository cannot redirect memory
//     writes. A leading ~ is the home directory; a relative path is taken
//     relative to the project root.
//
// Git is never run: the package reads .git, gitdir: and commondir itself,
// so discovery works without git installed and cannot hang on a repository
// lock.
package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"unicode/utf16"
)

// IndexName is the file name of a store's index.
const IndexName = "MEMORY.md"

// maxProjectName is the length past which Claude Code shortens a project
// directory name and appends a hash of the full path.
const maxProjectName = 200

// ConfigDir returns Claude Code's config dir: $CLAUDE_CONFIG_DIR when set
// (a leading ~ expanded), else ~/.claude.
func ConfigDir(getenv func(string) string, home string) string {
	if d := strings.TrimSpace(getenv("CLAUDE_CONFIG_DIR")); d != "" {
		return filepath.Clean(expandHome(d, home))
	}
	return filepath.Join(home, ".claude")
}

// expandHome replaces a leading "~" or "~/" with home.
func expandHome(p, home string) string {
	if p == "~" {
		return home
	}
	if strings.HasPrefix(p, "~/") || strings.HasPrefix(p, `~\`) {
		return filepath.Join(home, p[2:])
	}
	return p
}

// ProjectRoot returns the project Claude Code files dir's memory under: the
// root of the main worktree of the git repository enclosing dir, or dir
// itself when no repository encloses it. dir should be absolute; symbolic
// links in it are resolved first, as the working directory of a process
// always is.
func ProjectRoot(dir string) string {
	dir = canonical(dir)
	for d := dir; ; {
		if root, ok := repoRoot(d); ok {
			return root
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
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

// repoRoot reports whether d holds a .git entry and, if so, the root of the
// repository's main worktree.
//
// A .git directory makes d the root. A .git file ("gitdir: PATH") belongs
// to a linked worktree, a submodule or a separated git dir; when the git
// dir it names has a commondir file, the repository's common dir is what
// that names, and the main worktree is the common dir's parent when the
// common dir is called .git. A bare repository has no main worktree; its
// worktrees share the bare repository's own path. Anything unreadable or
// malformed leaves d as the root: it is still where the repository begins.
func repoRoot(d string) (string, bool) {
	gitPath := filepath.Join(d, ".git")
	fi, err := os.Stat(gitPath)
	if err != nil {
		return "", false
	}
	if fi.IsDir() {
		return d, true
	}
	b, err := readSmall(gitPath)
	if err != nil {
		return d, true
	}
	line := strings.TrimSpace(firstLine(string(b)))
	rest, ok := strings.CutPrefix(line, "gitdir:")
	if !ok {
		return d, true
	}
	gitDir := strings.TrimSpace(rest)
	if gitDir == "" {
		return d, true
	}
	if !filepath.IsAbs(gitDir) {
		gitDir = filepath.Join(d, gitDir)
	}
	cb, err := readSmall(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return d, true // a submodule or separated git dir: no shared common dir
	}
	common := strings.TrimSpace(firstLine(string(cb)))
	if common == "" {
		return d, true
	}
	if !filepath.IsAbs(common) {
		common = filepath.Join(gitDir, common)
	}
	common = canonical(common)
	if filepath.Base(common) == ".git" {
		return filepath.Dir(common), true
	}
	return common, true
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

func firstLine(s string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		return s[:i]
	}
	return s
}

// ProjectDirName is the name Claude Code gives a project's directory under
// <config dir>/projects: the path with every UTF-16 code unit that is not
// an ASCII letter or digit replaced by '-' (a character outside the Basic
// Multilingual Plane becomes two dashes, as in JavaScript).
func ProjectDirName(project string) string {
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
// that the directory exists.
func MemoryDir(getenv func(string) string, home, cwd string) (dir string, consulted []string) {
	project := ProjectRoot(cwd)
	config := ConfigDir(getenv, home)
	for _, s := range settingsFiles(config, project) {
		consulted = append(consulted, s)
		if v, ok := autoMemoryDirectory(s); ok {
			v = expandHome(v, home)
			if !filepath.IsAbs(v) {
				v = filepath.Join(project, v)
			}
			return filepath.Clean(v), consulted
		}
	}
	projects := filepath.Join(config, "projects")
	name := ProjectDirName(project)
	dir = filepath.Join(projects, name, "memory")
	if len(name) > maxProjectName {
		if _, err := os.Stat(dir); err != nil {
			if alt := shortenedProjectDir(projects, name[:maxProjectName]); alt != "" {
				dir = filepath.Join(alt, "memory")
			}
		}
	}
	return dir, consulted
}

// shortenedProjectDir finds the directory Claude Code made for a project
// whose name was too long: prefix, a dash, and a hash we do not recompute.
func shortenedProjectDir(projects, prefix string) string {
	entries, err := os.ReadDir(projects)
	if err != nil {
		return ""
	}
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), prefix+"-") {
			return filepath.Join(projects, e.Name())
		}
	}
	return ""
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

// settingsFiles lists the settings files that may set autoMemoryDirectory,
// highest precedence first.
func settingsFiles(config, project string) []string {
	files := managedSettings()
	files = append(files,
		filepath.Join(project, ".claude", "settings.local.json"),
		filepath.Join(config, "settings.json"),
	)
	return files
}

// autoMemoryDirectory reads the setting from one settings file. A missing,
// unreadable or invalid file sets nothing: Claude Code itself starts with
// such a file ignored, and the store it then uses is the default one.
func autoMemoryDirectory(path string) (string, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", false
	}
	var s struct {
		AutoMemoryDirectory *string `json:"autoMemoryDirectory"`
	}
	if json.Unmarshal(b, &s) != nil || s.AutoMemoryDirectory == nil {
		return "", false
	}
	v := strings.TrimSpace(*s.AutoMemoryDirectory)
	return v, v != ""
}

// FindIndex returns the path of the MEMORY.md Claude Code loads for a
// session started in cwd, and every place it looked (settings files read,
// then the index path). When there is no index file it returns a
// *NoIndexError carrying the same list and hints for the user.
func FindIndex(getenv func(string) string, home, cwd string) (indexPath string, looked []string, err error) {
	dir, consulted := MemoryDir(getenv, home, cwd)
	indexPath = filepath.Join(dir, IndexName)
	looked = append(consulted, indexPath)
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
		"the config dir is $CLAUDE_CONFIG_DIR, else ~/.claude; autoMemoryDirectory in the user's settings.json or the project's .claude/settings.local.json moves the store",
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

// StoreOfIn is StoreOf, and also recognizes the store of the project
// enclosing cwd when autoMemoryDirectory moved it elsewhere.
func StoreOfIn(path string, getenv func(string) string, home, cwd string) (storeDir string, ok bool) {
	if d, ok := StoreOf(path); ok {
		return d, true
	}
	dir, _ := MemoryDir(getenv, home, cwd)
	p := filepath.Clean(path)
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	for _, cand := range []string{dir, canonical(dir)} {
		if rel, err := filepath.Rel(cand, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && rel != "." {
			return cand, true
		}
	}
	return "", false
}
