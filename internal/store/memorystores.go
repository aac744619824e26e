package store

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/memcompact/memcompact/internal/lazyre"
)

// MemoryStoresVar names the memory stores (team memory) a Claude Code
// session mounts. While it holds anything but blanks, the client does not
// load the project's auto-memory MEMORY.md at session start, whether or
// not its value parses.
const MemoryStoresVar = "CLAUDE_MEMORY_STORES"

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
}

var (
	mountRE    = lazyre.New(`^[A-Za-z0-9_-]+$`)
	notMountRE = lazyre.New(`[^A-Za-z0-9_-]`)
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
				Path  *string `json:"path"`
				Mode  *string `json:"mode"`
				Scope *string `json:"scope"`
				Mount *string `json:"mount"`
			}
			if err := json.Unmarshal(r, &o); err != nil || o.Path == nil {
				return nil, fmt.Errorf("%s[%d] is neither a path nor an object with a path", MemoryStoresVar, i)
			}
			s.Path = *o.Path
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
