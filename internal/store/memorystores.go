package store

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/memcompact/memcompact/internal/lazyre"
)

// MemoryStoresVar names the memory stores (team memory) a Claude Code
// session mounts. While it holds anything but blanks, the client does not
// load the project's auto-memory MEMORY.md at session start, whether or
// not its value parses (checked against 2.1.332).
const MemoryStoresVar = "CLAUDE_MEMORY_STORES"

// TeamDir is the folder of the auto-memory directory under which the
// client mounts each team-scoped store, one folder per mount name.
const TeamDir = "team"

// MemoryStore is one store CLAUDE_MEMORY_STORES names, as the client
// reads it: a bare string is a read-write team store; an object may set
// the mode ("rw" or "ro", default "rw"), the scope ("user" or "team",
// default "team") and the mount name (default: the path's last segment,
// every character outside [A-Za-z0-9_-] turned into "-").
type MemoryStore struct {
	Path  string `json:"path"`
	Mode  string `json:"mode"`
	Scope string `json:"scope"`
	Mount string `json:"mount"`
	// PromptIndex is the store's index file, relative to the store: the
	// client fetches it from the memory service (never from disk) into the
	// prompt, and only while memory sync is on for a claude.ai
	// organization.
	PromptIndex string `json:"prompt_index,omitempty"`
}

var (
	mountRE    = lazyre.New(`^[A-Za-z0-9_-]+$`)
	notMountRE = lazyre.New(`[^A-Za-z0-9_-]`)
	segmentRE  = lazyre.New(`^[A-Za-z0-9._-]+$`)
)

// MemoryStores parses CLAUDE_MEMORY_STORES as the 2.1.x client does. It
// returns nil, nil when the variable is unset or blank; an error names
// what the client rejects (invalid JSON, a wrong shape, a duplicate
// mount, more than one user-scoped store), in which case the client
// mounts none of them.
func MemoryStores(getenv func(string) string) ([]MemoryStore, error) {
	v := getenv(MemoryStoresVar)
	if strings.TrimSpace(v) == "" {
		return nil, nil
	}
	var raw []json.RawMessage
	if err := json.Unmarshal([]byte(v), &raw); err != nil {
		return nil, fmt.Errorf("%s is not a JSON array: %v", MemoryStoresVar, err)
	}
	var out []MemoryStore
	mounts := map[string]bool{}
	user := false
	for i, r := range raw {
		s := MemoryStore{Mode: "rw", Scope: "team"}
		var path string
		if json.Unmarshal(r, &path) == nil {
			s.Path = path
		} else {
			var o struct {
				Path        *string `json:"path"`
				Mode        *string `json:"mode"`
				Scope       *string `json:"scope"`
				Mount       *string `json:"mount"`
				PromptIndex *string `json:"promptIndex"`
			}
			if err := json.Unmarshal(r, &o); err != nil || o.Path == nil {
				return nil, fmt.Errorf("%s[%d] is neither a path nor an object with a path", MemoryStoresVar, i)
			}
			s.Path = *o.Path
			if o.PromptIndex != nil {
				if !safeRelPath(*o.PromptIndex) {
					return nil, fmt.Errorf("%s[%d]: promptIndex %q: each segment must match [A-Za-z0-9._-]+ and be neither \".\" nor \"..\" (it names a file inside the store)", MemoryStoresVar, i, *o.PromptIndex)
				}
				s.PromptIndex = *o.PromptIndex
			}
			if o.Mode != nil {
				if *o.Mode != "rw" && *o.Mode != "ro" {
					return nil, fmt.Errorf("%s[%d]: mode %q is not rw or ro", MemoryStoresVar, i, *o.Mode)
				}
				s.Mode = *o.Mode
			}
			if o.Scope != nil {
				if *o.Scope != "user" && *o.Scope != "team" {
					return nil, fmt.Errorf("%s[%d]: scope %q is not user or team", MemoryStoresVar, i, *o.Scope)
				}
				s.Scope = *o.Scope
			}
			if o.Mount != nil {
				if !mountRE().MatchString(*o.Mount) {
					return nil, fmt.Errorf("%s[%d]: mount %q must match [A-Za-z0-9_-]+", MemoryStoresVar, i, *o.Mount)
				}
				s.Mount = *o.Mount
			}
		}
		if !serverPath(s.Path) {
			return nil, fmt.Errorf("%s[%d]: path %q must be path-absolute and must not override the host", MemoryStoresVar, i, s.Path)
		}
		if s.Mount == "" {
			m, err := mountOf(s.Path)
			if err != nil {
				return nil, fmt.Errorf("%s[%d]: %v", MemoryStoresVar, i, err)
			}
			s.Mount = m
		}
		if mounts[s.Mount] {
			return nil, fmt.Errorf("%s has duplicate mount: %s", MemoryStoresVar, s.Mount)
		}
		mounts[s.Mount] = true
		if s.Scope == "user" {
			if user {
				return nil, fmt.Errorf("%s has more than one scope \"user\" entry", MemoryStoresVar)
			}
			user = true
		}
		out = append(out, s)
	}
	return out, nil
}

// serverPath is the client's test of a store's path, which names the
// store on the memory service: absolute ("/..."), and not a
// scheme-relative reference ("//host/...", "/\\host") that would name
// another host.
func serverPath(p string) bool {
	return strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "//") && !strings.HasPrefix(p, `/\`)
}

// safeRelPath is the client's test of a promptIndex: "/"-separated
// segments of [A-Za-z0-9._-], none "." or "..".
func safeRelPath(p string) bool {
	if p == "" {
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if !segmentRE().MatchString(seg) || seg == "." || seg == ".." {
			return false
		}
	}
	return true
}

// Mount is a store CLAUDE_MEMORY_STORES names, placed where the client
// mounts it on disk, with what a session started with it gets of it.
type Mount struct {
	MemoryStore
	// Dir is the store's local folder: the auto-memory directory itself
	// for the user-scoped store, TeamDir/MOUNT inside it for a team store.
	Dir string `json:"dir"`
	// WriteDir is the folder the session's memory prompt tells the agent
	// to write to: a read-write team store's folder, or the folder of its
	// promptIndex (as the client derives it); "" when the prompt names
	// none for writing.
	WriteDir string `json:"write_dir,omitempty"`
	// Gives says in words what the session gets of the store.
	Gives string `json:"gives"`
}

// Mounts places the stores the client mounts for a session whose
// auto-memory directory is memDir, and says what each gives the session,
// as Claude Code 2.1.332 builds its memory prompt with an API key (no
// claude.ai memory sync): no index is loaded from disk for any of them;
// the read-write team stores' folders are named for writing, the
// read-only ones as read-only; with no read-write user-scoped store there
// is no private memory folder at all.
func Mounts(stores []MemoryStore, memDir string) []Mount {
	hasTeam, userRW := false, false
	for _, s := range stores {
		hasTeam = hasTeam || s.Scope == "team"
		userRW = userRW || (s.Scope == "user" && s.Mode == "rw")
	}
	var out []Mount
	for _, s := range stores {
		m := Mount{MemoryStore: s}
		switch {
		case s.Scope == "user":
			m.Dir = memDir
			switch {
			case s.Mode == "rw":
				m.WriteDir = memDir
				m.Gives = "this project's own memory folder, named for writing; its MEMORY.md does not load"
			case hasTeam:
				m.Gives = "nothing: the prompt names only the team stores"
			default:
				m.Gives = "this project's own memory folder, read-only; its MEMORY.md does not load"
			}
		case s.Mode == "ro":
			m.Dir = filepath.Join(memDir, TeamDir, s.Mount)
			m.Gives = "its folder, named read-only (the agent is told not to write there)"
		default:
			m.Dir = filepath.Join(memDir, TeamDir, s.Mount)
			m.WriteDir = m.Dir
			if sub := promptIndexDir(s.PromptIndex); sub != "" {
				m.WriteDir = filepath.Join(m.Dir, filepath.FromSlash(sub))
			}
			m.Gives = "its folder, named for writing (shared with the team)"
			if !userRW {
				m.Gives += "; the session has no private memory folder"
			}
		}
		if s.PromptIndex != "" {
			m.Gives += "; its index " + s.PromptIndex + " reaches the prompt only from the memory service, while memory sync is on for a claude.ai organization, never from disk"
		}
		out = append(out, m)
	}
	return out
}

// promptIndexDir is the folder of a promptIndex the client names for
// writing: the part before its last "/", or "" when it has none or a
// segment of it starts with ".".
func promptIndexDir(p string) string {
	i := strings.LastIndex(p, "/")
	if i <= 0 {
		return ""
	}
	dir := p[:i]
	for _, seg := range strings.Split(dir, "/") {
		if strings.HasPrefix(seg, ".") {
			return ""
		}
	}
	return dir
}

// MountOf is the mounted team store whose folder holds path, for a
// session whose auto-memory directory is memDir and whose mounts are
// mounts; ok is false outside every team store's folder.
func MountOf(mounts []Mount, path string) (m Mount, ok bool) {
	p := filepath.Clean(path)
	for _, m := range mounts {
		if m.Scope != "team" {
			continue
		}
		if rel, err := filepath.Rel(m.Dir, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return m, true
		}
	}
	return Mount{}, false
}

// mountOf is the mount name the client derives from a store's path.
func mountOf(path string) (string, error) {
	p := strings.TrimRight(path, "/")
	last := p[strings.LastIndex(p, "/")+1:]
	if last == "" {
		return "", fmt.Errorf("cannot derive a mount name from path %q", path)
	}
	m := notMountRE().ReplaceAllString(last, "-")
	if m == "." || m == ".." {
		return "", fmt.Errorf("derived mount name %q is not a valid path segment", last)
	}
	return m, nil
}
